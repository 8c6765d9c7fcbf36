import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { DatabaseConfig } from '../../../kernel/platform/config/platform.config';
import { connectionSettings } from '../../../kernel/platform/database/data-source.factory';
import { inDbSpan } from '../../../kernel/platform/tracing/db-spans';
import { WebhooksConfig } from '../webhooks.config';

/**
 * The delivery worker's own small connection pool, separate from the API's:
 * - a burst of API traffic cannot starve deliveries of connections, nor the reverse;
 * - its sessions run with `synchronous_commit = off`. Everything written through it is
 *   bookkeeping (claims, attempt results, lag reads): if PostgreSQL crashes, the last few
 *   hundred milliseconds of it may be lost, which only means a delivery is sent again (at
 *   least once). Events themselves are written by the publishers' own transactions on the main
 *   pool, with the server's durable default.
 */
@Injectable()
export class OutboxDb implements OnApplicationShutdown {
  private pool: Pool | null = null;

  constructor(
    private readonly database: DatabaseConfig,
    private readonly config: WebhooksConfig,
  ) {}

  async query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await inDbSpan(text, () => this.connect().query(text, params))).rows as T[];
  }

  async onApplicationShutdown(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    await p?.end().catch(() => undefined);
  }

  private connect(): Pool {
    if (!this.pool) {
      // The URL is read on first use: with the embedded PostgreSQL it is known only after boot.
      // The same connection settings as the service's pools (one place makes them), its own name and size.
      this.pool = new Pool({
        ...connectionSettings(this.database.url!, this.config.dbPoolSize, this.database.statementTimeoutMs),
        application_name: 'payments-platform-webhooks',
        options: '-c synchronous_commit=off',
      });
      this.pool.on('error', () => undefined); // an idle client lost its connection: the next query reconnects
    }
    return this.pool;
  }
}
