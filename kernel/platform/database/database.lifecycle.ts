import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseConfig } from '../config/platform.config';
import { DatabaseState } from './database.state';
import { runMigrationsLocked } from './migrate';
import { onPgConnectionLost } from './pg-client';
import { closeSqlPool, rows } from './sql';

/**
 * Connects in the background with backoff so the process never crash-loops on a database
 * that is down at boot: the HTTP server is up, readiness says 503 until this succeeds.
 */
@Injectable()
export class DatabaseLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Database');
  private stopped = false;
  private connecting: Promise<void> | null = null;
  private lastLostLog = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly state: DatabaseState,
    private readonly config: DatabaseConfig,
  ) {}

  onApplicationBootstrap(): void {
    // A lost connection fails its own unit of work (pg-client.ts); it is said here, once per 5 s.
    onPgConnectionLost((e) => {
      if (Date.now() - this.lastLostLog < 5000) return;
      this.lastLostLog = Date.now();
      this.logger.warn(`a database connection was lost (${e.message}); its work failed and the pool reconnects`);
    });
    this.connecting = this.connectWithBackoff();
  }

  /** Resolves once connected and migrated (tests and scripts await it). */
  async whenReady(): Promise<void> {
    await this.connecting;
  }

  private async connectWithBackoff(): Promise<void> {
    let delay = 250;
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        if (!this.ds.isInitialized) await this.ds.initialize();
        await rows(this.ds, 'SELECT 1'); // the SQL pool reaches the database too
        // an app that owns a schema of a shared database makes it before its migrations table
        const schema = (this.ds.options as { schema?: string }).schema;
        if (schema) await rows(this.ds, `CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        const applied = await runMigrationsLocked(this.ds);
        if (applied.length) this.logger.log(`applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
        this.state.markReady();
        return;
      } catch (err: any) {
        this.state.lastError = err?.message ?? String(err);
        this.logger.warn(`database not ready (attempt ${attempt}): ${this.state.lastError}; retrying in ${delay} ms`);
        await new Promise((r) => setTimeout(r, delay).unref?.());
        delay = Math.min(delay * 2, this.config.connectRetryMaxMs);
      }
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
  }

  async close(): Promise<void> {
    this.stopped = true;
    await closeSqlPool(this.ds).catch(() => undefined);
    if (this.ds.isInitialized) await this.ds.destroy().catch(() => undefined);
  }
}
