#!/usr/bin/env node
'use strict';
/**
 * Outbox benchmark: 20 000 acquiring events published through the EventPublisher into a fresh
 * database, then delivered by the worker with its DEFAULT settings to a local receiver (a
 * separate process) that answers 200 at once. Prints one JSON line:
 *   {"name":"outbox","deliveriesPerSecond":…,"lagMsAtEnd":…, …}
 * deliveriesPerSecond = deliveries recorded as DELIVERED / seconds from worker start until the
 * outbox holds no PENDING row; lagMsAtEnd = the outbox lag (age of the oldest due row, what
 * /health/ready reports) at that moment; workerCpuUsPerDelivery = the CPU (user + system) this
 * process, the worker's, spent over the same window per delivery: on a shared machine the rate
 * moves with what else runs, this much less. receiverCpuUsPerDelivery is the receiver's own;
 * machine (Linux) is the whole machine over the window: busyShare of all its CPU time,
 * stealShare taken by the hypervisor, cpuUsPerDelivery of busy time per delivery.
 *
 * Runs against the BUILT app (`npm run build` first): DATABASE_URL=postgres://… node bench/outbox.js
 * Optional: BENCH_EVENTS (default 20000; 1000 in a smoke run, BENCH_SMOKE=1: bench/lib.js); OUTBOX_PROFILE=file.cpuprofile writes a CPU profile of
 * this process (the worker's) over the delivery window only, for bench/tools/profile-top.js
 * (OUTBOX_PROFILE_INTERVAL_US sets its sampling interval, default 1000).
 */
const { fork } = require('node:child_process');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Writable } = require('node:stream');

if (process.argv[2] === '--receiver') {
  // The receiver process: 200 at once, keep-alive, counts what it got.
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
      res.end('{}');
    });
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (m) => {
    if (m === 'count') process.send({ count });
    if (m === 'cpu') {
      const u = process.cpuUsage();
      process.send({ cpu: u.user + u.system });
    }
    if (m === 'exit') server.close(() => process.exit(0));
  });
  return;
}

const { knob, report } = require('./lib');

const root = join(__dirname, '..');
const dist = (p) => join(root, 'dist', p);

async function main() {
  const events = knob('BENCH_EVENTS', 20000);
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set (a PostgreSQL server; the bench makes and drops its own database)');
  if (!existsSync(dist('src/app.factory.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  const { Client } = require('pg');
  const { createApp } = require(dist('src/app.factory.js'));
  const { CONFIG_SECTIONS } = require(dist('src/config.sections.js'));
  const { loadConfig } = require(dist('kernel/platform/config/config.js'));
  const { DatabaseLifecycle } = require(dist('kernel/platform/database/database.lifecycle.js'));
  const { Clock } = require(dist('kernel/platform/clock/clock.js'));
  const { TenantsService } = require(dist('src/tenants/tenants.service.js'));
  const { EventPublisher } = require(dist('src/webhooks/event-publisher.js'));
  const { WebhookEndpointsService } = require(dist('src/webhooks/endpoints/endpoints.service.js'));
  const { DeliveryWorker } = require(dist('src/webhooks/delivery/delivery-worker.js'));
  const { OutboxStore } = require(dist('src/webhooks/outbox/outbox.store.js'));
  const { DataSource } = require('typeorm');
  const { transaction } = require(dist('kernel/platform/database/sql.js'));

  const dbName = `bench_outbox_${Date.now().toString(36)}`;
  const withDb = (db) => {
    const u = new URL(serverUrl);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin = new Client({ connectionString: withDb('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);

  const receiver = fork(__filename, ['--receiver'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ask = (msg, key) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m && key in m) {
          receiver.off('message', on);
          resolve(m[key]);
        }
      };
      receiver.on('message', on);
      if (msg) receiver.send(msg);
    });
  const port = await ask(null, 'port');

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-outbox-'));
  const devNull = new Writable({ write: (_c, _e, cb) => cb() });
  let app;
  try {
    // Default webhook settings; the worker is started by hand once the events are in.
    const config = loadConfig(CONFIG_SECTIONS, {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: withDb(dbName),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEBHOOK_WORKER_ENABLED: 'false',
    });
    app = await createApp(config, { logDestination: devNull });
    await app.init();
    await app.get(DatabaseLifecycle).whenReady();

    const tenant = await app.get(TenantsService).create({ name: 'Bench', allowedCidrs: [] });
    await app.get(WebhookEndpointsService).registerAcquiring(tenant.tenantId, { url: `http://127.0.0.1:${port}/webhooks` });

    const ds = app.get(DataSource);
    const publisher = app.get(EventPublisher);
    const p0 = Date.now();
    const perTx = 500;
    for (let i = 0; i < events; i += perTx) {
      await transaction(ds, async (m) => {
        for (let j = i; j < Math.min(events, i + perTx); j++) {
          await publisher.publish(m, {
            tenantId: tenant.tenantId,
            domain: 'acquiring',
            type: 'acquiring.financial_transaction',
            data: { paymentId: `pay_${j}`, amount: 1000 + j, method: 'PIX', status: 'AUTHORIZED' },
          });
        }
      });
    }
    const publishMs = Date.now() - p0;

    const worker = app.get(DeliveryWorker);
    const store = app.get(OutboxStore);
    const clock = app.get(Clock);
    const profiler = process.env.OUTBOX_PROFILE ? await startProfile(Number(process.env.OUTBOX_PROFILE_INTERVAL_US || 1000)) : null;
    const receiverCpu0 = await ask('cpu', 'cpu');
    const machine0 = machineTicks();
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    worker.start();
    const deadline = t0 + 10 * 60 * 1000;
    // The end: no PENDING row left. Counting them costs PostgreSQL ~4 ms at 20 000 rows, so
    // asked every 20 ms it took a sixth of a core from the run it measures; the receiver's own
    // count (a message to it) says when the end is near, and the database is asked every 20 ms
    // only from then on (and every 500 ms before, in case some attempts fail and are retried).
    let lastCount = 0;
    for (;;) {
      const near = (await ask('count', 'count')) >= events;
      if (near || Date.now() - lastCount >= 500) {
        lastCount = Date.now();
        const r = await ds.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'PENDING'`);
        if (r[0].n === 0) break;
        if (Date.now() > deadline) throw new Error(`${r[0].n} deliveries still pending after 10 minutes`);
      }
      await new Promise((res) => setTimeout(res, 20));
    }
    const elapsedMs = Date.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const machine1 = machineTicks();
    const receiverCpu = (await ask('cpu', 'cpu')) - receiverCpu0;
    if (profiler) await profiler.stop(process.env.OUTBOX_PROFILE);
    const lagMsAtEnd = await store.lagMs(clock.now());
    const delivered = (await ds.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`))[0].n;
    const attempts = (await ds.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts`))[0].n;
    const received = await ask('count', 'count');
    await worker.stop();
    // every event delivered, or the rate is of some other run (and a smoke run must fail)
    if (delivered !== events) {
      process.stderr.write(`bench/outbox: ${delivered} of ${events} events delivered\n`);
      process.exitCode = 1;
    }
    report({
      name: 'outbox',
      deliveriesPerSecond: Math.round((delivered / elapsedMs) * 1000),
      lagMsAtEnd,
      events,
      delivered,
      attempts,
      received,
      seconds: Number((elapsedMs / 1000).toFixed(2)),
      workerCpuUsPerDelivery: Math.round((cpu.user + cpu.system) / Math.max(1, delivered)),
      receiverCpuUsPerDelivery: Math.round(receiverCpu / Math.max(1, delivered)),
      machine: machineShare(machine0, machine1, delivered),
      publishedPerSecond: Math.round((events / publishMs) * 1000),
    });
  } finally {
    if (app) await app.close().catch(() => undefined);
    receiver.send('exit');
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The machine's CPU time counters (Linux `/proc/stat`, in clock ticks), or null elsewhere. */
function machineTicks() {
  try {
    const f = require('node:fs').readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = f;
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
  } catch {
    return null;
  }
}

/**
 * What the whole machine did over the window: the share of its CPU time that was busy (every
 * process: worker, receiver, PostgreSQL, anything else), the share the hypervisor gave to other
 * guests (steal), and the busy CPU per delivery. A rate with busy near 1 is the machine's
 * ceiling, not the worker's.
 */
function machineShare(a, b, delivered) {
  if (!a || !b) return null;
  const busy = b.busy - a.busy;
  const idle = b.idle - a.idle;
  const steal = b.steal - a.steal;
  const all = busy + idle + steal || 1;
  const tickUs = 1e6 / 100; // USER_HZ is 100 on Linux
  return {
    busyShare: Number((busy / all).toFixed(3)),
    stealShare: Number((steal / all).toFixed(3)),
    cpuUsPerDelivery: Math.round((busy * tickUs) / Math.max(1, delivered)),
  };
}

/** The inspector's CPU profiler on this process; `stop(file)` writes the .cpuprofile. */
async function startProfile(intervalUs) {
  const { Session } = require('node:inspector');
  const { writeFileSync } = require('node:fs');
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((res, rej) => session.post(method, params, (e, r) => (e ? rej(e) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: intervalUs });
  await post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await post('Profiler.stop');
      session.disconnect();
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}

main().catch((e) => {
  process.stderr.write(`bench/outbox failed: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
