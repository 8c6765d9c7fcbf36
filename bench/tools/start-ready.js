// How long `npm start` takes until both apps answer /health/ready (and to stop on Ctrl-C), three runs on
// one DATA_DIR: the first migrates two new embedded PostgreSQL (and builds, without dist/).
// Usage: node bench/tools/start-ready.js [DATA_DIR]; ports 3000-3002, 54329 and 54330 must be free.
const { spawn } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { waitHealthReady } = require('../../test/support/health-ready');
const dir = process.argv[2] ?? mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'pp-start-'));
async function once() {
  const t0 = Date.now();
  const p = spawn('npm', ['start', '--silent'], { cwd: require('node:path').join(__dirname, '..', '..'), env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'ignore'] });
  const ready = async (base) => (await waitHealthReady(base, { timeoutMs: Infinity, intervalMs: 100 }), Date.now() - t0);
  const [a, b] = await Promise.all([ready('http://127.0.0.1:3000'), ready('http://127.0.0.1:3001')]);
  const t1 = Date.now();
  p.kill('SIGINT');
  await new Promise((r) => p.on('exit', r));
  return { serviceReadyMs: a, sandboxReadyMs: b, bothMs: Math.max(a, b), stopMs: Date.now() - t1 };
}
(async () => { for (let i = 0; i < 3; i++) console.log(JSON.stringify({ run: i + 1, ...(await once()) })); })();
