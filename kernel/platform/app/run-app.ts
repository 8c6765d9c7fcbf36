import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigSection, ConfigValidationError, loadConfig, LoadedConfig } from '../config/config';
import { DevSecretStore } from '../config/env';
import { DatabaseConfig, PlatformConfig } from '../config/platform.config';
import { DataDirInUseError, EmbeddedPostgres, EmbeddedPostgresError, EmbeddedPostgresMissingError } from '../database/embedded-postgres';
import { firstLine } from '../database/embedded-postgres-access';
import { installLastResort } from '../lifecycle/last-resort';
import { ShutdownState } from '../lifecycle/shutdown.state';

const HARD_EXIT_MS = 9500;

export interface RunnableApp {
  /** The name its boot lines carry (`service` in each JSON line). */
  name: string;
  sections: ConfigSection<object>[];
  env?: NodeJS.ProcessEnv;
  /** Under DATA_DIR: where its embedded PostgreSQL keeps its data (`<dir>/postgres`). */
  embeddedDir?: string;
  /** The variable that sets its port (named in the message when the port is taken). */
  portVariable?: string;
  /** The variable that sets its operator port (OPS_PORT: /metrics, /docs, /admin apart). */
  opsPortVariable?: string;
  create(config: LoadedConfig): Promise<NestFastifyApplication>;
}

function fail(msg: string): never {
  process.stderr.write(`\n${msg}\n\n`);
  process.exit(1);
}

function portFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/**
 * Boots an app as its own process: validated config, a free port, the embedded PostgreSQL when no
 * database URL is given, then a graceful stop on SIGTERM and SIGINT (readiness 503, drain,
 * close). The service (`src/main.ts`) and the sandbox app (`sandbox/src/main.ts`) both run here.
 */
export async function runApp(spec: RunnableApp): Promise<void> {
  const started = Date.now();
  const say = (msg: string): void => {
    process.stderr.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), service: spec.name, msg })}\n`);
  };
  installLastResort((fatal, msg, stack) =>
    process.stderr.write(
      `${JSON.stringify({ level: fatal ? 'fatal' : 'error', time: new Date().toISOString(), service: spec.name, msg, err: { stack } })}\n`,
    ),
  );
  let config: LoadedConfig;
  try {
    config = loadConfig(spec.sections, spec.env ?? process.env);
  } catch (e) {
    if (e instanceof ConfigValidationError) fail(e.message);
    throw e;
  }
  const platform = config.get(PlatformConfig);
  const database = config.get(DatabaseConfig);
  if (!(await portFree(platform.port, platform.host))) {
    fail(`Port ${platform.port} is already in use (is another "npm start" running?). Stop it or set ${spec.portVariable ?? 'PORT'}.`);
  }
  if (platform.opsPort !== undefined && !(await portFree(platform.opsPort, platform.host))) {
    fail(`Port ${platform.opsPort} (${spec.opsPortVariable ?? 'OPS_PORT'}) is already in use. Stop the other process or set another.`);
  }

  let embedded: EmbeddedPostgres | null = null;
  if (!database.url) {
    const password = new DevSecretStore(resolve(config.dataDir, 'secrets.json')).get('EMBEDDED_PG_PASSWORD', 24);
    const dir = spec.embeddedDir ? resolve(config.dataDir, spec.embeddedDir) : config.dataDir;
    embedded = new EmbeddedPostgres(dir, database.embeddedPort, password, say);
    try {
      database.url = await embedded.start();
    } catch (e: any) {
      fail(
        e instanceof DataDirInUseError || e instanceof EmbeddedPostgresError || e instanceof EmbeddedPostgresMissingError
          ? e.message
          : `Could not start the embedded PostgreSQL: ${firstLine(e)}`,
      );
    }
    say(
      `embedded PostgreSQL ready on 127.0.0.1:${database.embeddedPort} (data in ${spec.embeddedDir ? resolve(config.dataDir, spec.embeddedDir) : config.dataDir}/postgres)`,
    );
  }

  const app = await spec.create(config);
  try {
    await app.listen(platform.port, platform.host);
  } catch (e: any) {
    await embedded?.stop();
    fail(
      e?.code === 'EADDRINUSE'
        ? `Port ${platform.port} is already in use. Stop the other process or set ${spec.portVariable ?? 'PORT'}.`
        : `Could not listen: ${e?.message}`,
    );
  }
  say(
    platform.opsPort === undefined
      ? `listening on ${platform.publicUrl} (Swagger UI at ${platform.publicUrl}/docs); boot took ${Date.now() - started} ms`
      : `listening on ${platform.publicUrl}; /metrics, /docs and /admin on port ${platform.opsPort} only; boot took ${Date.now() - started} ms`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.stderr.write(`shutdown took longer than ${HARD_EXIT_MS} ms; exiting\n`);
      process.exit(1);
    }, HARD_EXIT_MS).unref();
    say(`${signal} received: readiness now 503, draining for ${platform.shutdownDrainMs} ms`);
    app.get(ShutdownState).beginDrain();
    await new Promise((r) => setTimeout(r, platform.shutdownDrainMs));
    // Fastify stops accepting, waits for in-flight requests; Nest stops timers and closes the pool.
    await app.close().catch((e) => process.stderr.write(`close failed: ${e?.message}\n`));
    await embedded?.stop().catch(() => undefined);
    say('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
