import 'reflect-metadata';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { createApp } from './app.factory';
import { CONFIG_SECTIONS } from './config.sections';
import { ConfigValidationError, loadConfig, LoadedConfig } from './platform/config/config';
import { DevSecretStore } from './platform/config/env';
import { DatabaseConfig, PlatformConfig } from './platform/config/platform.config';
import { DataDirInUseError, EmbeddedPostgres } from './platform/database/embedded-postgres';
import { installLastResort } from './platform/lifecycle/last-resort';
import { ShutdownState } from './platform/lifecycle/shutdown.state';

const HARD_EXIT_MS = 9500;

function say(msg: string): void {
  process.stderr.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), service: 'payments-platform', msg })}\n`);
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

async function bootstrap(): Promise<void> {
  const started = Date.now();
  installLastResort((fatal, msg, stack) =>
    process.stderr.write(
      `${JSON.stringify({ level: fatal ? 'fatal' : 'error', time: new Date().toISOString(), service: 'payments-platform', msg, err: { stack } })}\n`,
    ),
  );
  let config: LoadedConfig;
  try {
    config = loadConfig(CONFIG_SECTIONS);
  } catch (e) {
    if (e instanceof ConfigValidationError) fail(e.message);
    throw e;
  }
  const platform = config.get(PlatformConfig);
  const database = config.get(DatabaseConfig);
  if (!(await portFree(platform.port, platform.host))) {
    fail(`Port ${platform.port} is already in use (is another "npm start" running?). Stop it or set PORT.`);
  }

  let embedded: EmbeddedPostgres | null = null;
  if (!database.url) {
    const password = new DevSecretStore(resolve(config.dataDir, 'secrets.json')).get('EMBEDDED_PG_PASSWORD', 24);
    embedded = new EmbeddedPostgres(config.dataDir, database.embeddedPort, password, say);
    try {
      database.url = await embedded.start();
    } catch (e: any) {
      fail(e instanceof DataDirInUseError ? e.message : `Could not start the embedded PostgreSQL: ${e?.message ?? e}`);
    }
    say(`embedded PostgreSQL ready on 127.0.0.1:${database.embeddedPort} (data in ${config.dataDir}/postgres)`);
  }

  const app = await createApp(config);
  try {
    await app.listen(platform.port, platform.host);
  } catch (e: any) {
    await embedded?.stop();
    fail(
      e?.code === 'EADDRINUSE'
        ? `Port ${platform.port} is already in use. Stop the other process or set PORT.`
        : `Could not listen: ${e?.message}`,
    );
  }
  say(`listening on ${platform.publicUrl} (Swagger UI at ${platform.publicUrl}/docs); boot took ${Date.now() - started} ms`);

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

void bootstrap();
