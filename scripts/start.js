#!/usr/bin/env node
// `npm start`: compiles when the sources are newer than the build, then runs the apps.
// Outside production: the service and the sandbox app, each its own process (the sandbox at
// http://127.0.0.1:3001, where the service looks by default; BANK_PROVIDER=pix-api unless set), each with its embedded or
// configured PostgreSQL; Ctrl-C or SIGTERM stops both, and when one stops the other is stopped.
// With NODE_ENV=production: the service alone, in this process. `npm run sandbox`
// (`start.js --sandbox`): the sandbox alone, in this process.
// `--reset` (`npm start -- --reset`, `npm run sandbox -- --reset`) puts the test clock back at real
// time (scripts/clock-reset.js): when a sandbox already answers on SANDBOX_PORT, it resets that one
// (and its service) and exits; otherwise it starts the apps and resets once they answer.
// package.json runs it as `exec node scripts/start.js`: npm passes SIGTERM and SIGINT to its
// child, and without `exec` that child is a shell that dies and leaves the apps running.
const { execFileSync, spawn } = require('node:child_process');
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const clockReset = require('./clock-reset');

const root = join(__dirname, '..');
const entries = { service: join(root, 'dist', 'src', 'main.js'), sandbox: join(root, 'dist', 'sandbox', 'src', 'main.js') };

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function main() {
  const srcTime = Math.max(...['kernel', 'src', 'sandbox', 'migrations', 'scripts'].map((d) => newest(join(root, d))));
  const built = Object.values(entries).every((e) => existsSync(e) && statSync(e).mtimeMs >= srcTime);
  if (!built) {
    process.stderr.write('building (nest build)…\n');
    execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
  }

  const production = (process.env.NODE_ENV ?? '').trim() === 'production';
  if (process.argv.includes('--sandbox')) {
    // alone, its test clock has no service to move
    process.env.SANDBOX_CLOCK_DRIVES_SERVICE ??= 'false';
    require(entries.sandbox);
  }
  else if (production) require(entries.service);
  else {
    // The pair speaks the real protocol to the sandbox's bank: API Pix to its PSP, which can give a
    // Pix back (devolução); the home-made `service` protocol cannot. Every guide's walk runs on this.
    const env = { ...process.env, BANK_PROVIDER: process.env.BANK_PROVIDER || 'pix-api' };
    const children = ['service', 'sandbox'].map((name) => spawn(process.execPath, [entries[name]], { stdio: 'inherit', env }));
    let stopping = false;
    const stop = (signal) => {
      if (stopping) return;
      stopping = true;
      for (const c of children) if (c.exitCode === null) c.kill(signal);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    let exitCode = 0;
    let left = children.length;
    for (const c of children)
      c.on('exit', (code, signal) => {
        if (!stopping && (code || signal)) exitCode = code || 1;
        stop('SIGTERM'); // one gone: the other is stopped too
        if (--left === 0) process.exit(stopping && !exitCode ? 0 : exitCode);
      });
  }
}

const productionService = (process.env.NODE_ENV ?? '').trim() === 'production' && !process.argv.includes('--sandbox');
if (!process.argv.includes('--reset') || productionService) main();
else {
  const base = clockReset.sandboxBase();
  clockReset.resetOnce(base).then((first) => {
    if (first.state !== 'absent') {
      // a running sandbox: reset it (it tells its service) and start nothing
      const r = first.state === 'retry' ? { state: 'failed', why: first.why } : first;
      clockReset.report(r, base);
      process.exit(r.state === 'done' ? 0 : 1);
    }
    main();
    clockReset.resetWhenUp(base).then((r) => clockReset.report(r, base));
  });
}
