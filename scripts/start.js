#!/usr/bin/env node
// `npm start`: compiles when the sources are newer than the build, then runs the service
// in this process. package.json runs it as `exec node scripts/start.js`: npm passes SIGTERM and
// SIGINT to its child, and without `exec` that child is a shell that dies and leaves the
// service (and its embedded PostgreSQL) running on their ports.
const { execFileSync } = require('node:child_process');
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'src', 'main.js');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const srcTime = Math.max(newest(join(root, 'src')), newest(join(root, 'migrations')), newest(join(root, 'scripts')));
if (!existsSync(entry) || statSync(entry).mtimeMs < srcTime) {
  process.stderr.write('building (nest build)…\n');
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
}
require(entry);
