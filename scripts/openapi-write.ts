// Writes (or with --check, compares) the committed openapi.json from the compiled app.
// Run through the build (`node dist/scripts/openapi-write.js`) so the swagger CLI plugin's
// metadata is present, exactly as the running service serves /docs-json.
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../src/app.factory';
import { CONFIG_SECTIONS } from '../src/config.sections';
import { loadConfig } from '../kernel/platform/config/config';
import { buildOpenApiDocument } from '../kernel/platform/openapi/openapi';

export const OPENAPI_SERVER = 'http://localhost:3000';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-openapi-'));
  const config = loadConfig(CONFIG_SECTIONS, {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: OPENAPI_SERVER,
    DATABASE_URL: process.env.DATABASE_URL || 'postgres://unused@127.0.0.1:1/unused',
  });
  const app = await createApp(config);
  const doc = `${JSON.stringify(buildOpenApiDocument(app, OPENAPI_SERVER), null, 2)}\n`;
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  const file = resolve(__dirname, '..', '..', 'openapi.json');
  if (check) {
    const committed = readFileSync(file, 'utf8');
    if (committed !== doc) {
      process.stderr.write('openapi.json is out of date: run `npm run openapi:write` and commit it\n');
      process.exit(1);
    }
    process.stdout.write('openapi.json matches the code\n');
  } else {
    writeFileSync(file, doc);
    process.stdout.write(`wrote ${file}\n`);
  }
  process.exit(0);
}

void main();
