#!/usr/bin/env node
// `npm run fuzz`: the schema-driven fuzz of test/platform/fuzz.e2e-spec.ts at full size. Every operation of the committed
// openapi.json, FUZZ_REQUESTS requests (default 10 000) from FUZZ_SEED (default fixed), against
// the real service and PostgreSQL (DATABASE_URL, or an embedded one, as `npm test`). Prints the
// answers per status and every broken rule; the report is also in test-artifacts/fuzz-report.*.
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const env = { ...process.env, FUZZ_REQUESTS: process.env.FUZZ_REQUESTS || '10000' };
const r = spawnSync(process.execPath, [join(__dirname, 'test.js'), '--runInBand', 'test/platform/fuzz.e2e-spec.ts'], { cwd: root, stdio: 'inherit', env });
const report = join(root, 'test-artifacts/fuzz-report.txt');
if (existsSync(report)) process.stdout.write(`\n${readFileSync(report, 'utf8')}`);
process.exit(r.status ?? 1);
