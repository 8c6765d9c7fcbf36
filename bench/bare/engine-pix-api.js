// The floor under the engine on BANK_PROVIDER=pix-api: the same SQL as the engine's SQL floor
// (bench/bare/engine-sql.js, the rows the service writes) and the same HTTP calls, one
// `PUT /cobr/{txid}` per billing over keep-alive mutual TLS with a bearer token, to a bare
// node:https PSP stub in the same process doing the PSP's one statement (the cobr inserted, its
// rec made ACTIVE). No framework, validation, retries, breaker or logs on either side.
const { randomBytes } = require('node:crypto');
const https = require('node:https');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client, Pool } = require('pg');
const { ensureDevCertificates } = require('../../dist/kernel/platform/tls/dev-certificates');
const { generateSql, ZERO_UUID } = require('./engine-sql');
const { saoPauloDay } = require('../lib');

const PUT_CONCURRENCY = 32;

function readBody(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

/** The bare PSP: PUT /cobr/{txid} → one statement, 201 with the cobr. */
async function startStub(url, pki, token) {
  const pool = new Pool({ connectionString: url, max: 20 }); // the service's DB_POOL_SIZE in the bench
  const server = https.createServer({ key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' }, async (req, res) => {
    try {
      if (req.headers.authorization !== `Bearer ${token}`) return res.writeHead(401).end();
      const b = JSON.parse(await readBody(req));
      const txid = req.url.slice('/cobr/'.length);
      const { rows } = await pool.query(
        `WITH rec AS (SELECT recurrence_id, status, receiver_name FROM sandbox.sandbox_bank_recurrences WHERE id_rec = $2),
         ins AS (
           INSERT INTO sandbox.sandbox_bank_billings (id_tx, recurrence_id, status, amount_cents, due_date, id_rec, ajuste_dia_util, receiver, psp_created_at, attempt_date, history)
           SELECT $1, rec.recurrence_id, 'RECEIVED', $3, $4, $2, $5, $6::jsonb || jsonb_build_object('nome', left(rec.receiver_name, 140)), now(), $4,
                  jsonb_build_array(jsonb_build_object('status', 'CRIADA', 'data', now()::text))
           FROM rec WHERE rec.status IN ('ACCEPTED','ACTIVE') ON CONFLICT (id_tx) DO NOTHING RETURNING id_tx, recurrence_id),
         act AS (UPDATE sandbox.sandbox_bank_recurrences SET status = 'ACTIVE', updated_at = now() WHERE recurrence_id IN (SELECT recurrence_id FROM ins) AND status = 'ACCEPTED')
         SELECT (SELECT id_tx FROM ins) AS id_tx`,
        [txid, b.idRec, Math.round(Number(b.valor.original) * 100), b.calendario.dataDeVencimento, b.ajusteDiaUtil, JSON.stringify(b.recebedor)],
      );
      const body = JSON.stringify({ ...b, txid, status: 'CRIADA', calendario: { ...b.calendario, criacao: saoPauloDay(0) } });
      res.writeHead(rows[0].id_tx ? 201 : 400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    } catch (e) {
      res.writeHead(500).end(String(e && e.message));
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${server.address().port}`, stop: async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); await pool.end(); } };
}

function put(agent, base, token, idTx, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = https.request(`${base}/cobr/${idTx}`, { method: 'PUT', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`PUT /cobr answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** Batches sent side by side across the workers while the next ones are generated (the engine's 4). */
const SEND_CONCURRENCY = 4;
const inflight = new Set();

async function worker(url, part, days, send) {
  const pg = new Client({ connectionString: url });
  const done = new Client({ connectionString: url });
  await pg.connect();
  await done.connect();
  try {
    let after = ZERO_UUID;
    for (;;) {
      await pg.query('BEGIN');
      const { rows: made } = await pg.query(generateSql('service', part), [days.today, days.due, days.next, days.today, after]);
      await pg.query('COMMIT');
      if (!made.length) break;
      after = made[0].last_id;
      const idRecs = new Map((await pg.query(`SELECT id::text, id_rec FROM pix_recurrences WHERE id = ANY($1::uuid[])`, [made.map((r) => r.recurrence_id)])).rows.map((r) => [r.id, r.id_rec]));
      const p = sendBatch(made, idRecs, send, done).finally(() => inflight.delete(p));
      inflight.add(p);
      while (inflight.size >= SEND_CONCURRENCY) await Promise.race(inflight);
    }
    while (inflight.size) await Promise.race(inflight);
  } finally {
    await pg.end();
    await done.end();
  }
}

/** One batch: its PUTs, PUT_CONCURRENCY at a time, then PENDING_SEND → SENT (on its own connection). */
async function sendBatch(made, idRecs, send, done) {
  let next = 0;
  await Promise.all(
    Array.from({ length: PUT_CONCURRENCY }, async () => {
      while (next < made.length) {
        const b = made[next++];
        await send(b.id_tx, {
          idRec: idRecs.get(b.recurrence_id),
          calendario: { dataDeVencimento: b.due_date },
          valor: { original: '49.90' },
          ajusteDiaUtil: false,
          recebedor: { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' },
        });
      }
    }),
  );
  await done.query(
    `UPDATE pix_billings SET status = 'SENT', send_attempts = send_attempts + 1, next_attempt_at = NULL, updated_at = now()
     WHERE id = ANY($1::uuid[]) AND status IN ('PENDING_SEND','SEND_FAILED')`,
    [made.map((r) => r.id)],
  );
}

/** Makes every seeded recurrence due, runs the floor to the end; the elapsed ms from that moment. */
async function pixApiFloor(url, { workers, n }) {
  const pki = ensureDevCertificates(join(mkdtempSync(join(tmpdir(), 'pp-bench-pki-')), 'psp-certs'));
  const token = randomBytes(32).toString('base64url');
  const stub = await startStub(url, pki, token);
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64, // as the service's client
    cert: pki.clientCert, key: pki.clientKey, ca: pki.ca, minVersion: 'TLSv1.2' });
  const days = { today: saoPauloDay(0), due: saoPauloDay(3), next: saoPauloDay(33) };
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    await pg.query('UPDATE pix_recurrences SET next_send_date = $1', [days.today]);
    const start = process.hrtime.bigint();
    const send = (idTx, body) => put(agent, stub.url, token, idTx, body);
    await Promise.all(Array.from({ length: workers }, (_, k) => worker(url, workers === 1 ? '' : `AND get_byte(uuid_send(id), 0) % ${workers} = ${k}`, days, send)));
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const sent = (await pg.query(`SELECT count(*)::int AS n FROM pix_billings WHERE status = 'SENT'`)).rows[0].n;
    const cobrs = (await pg.query(`SELECT count(*)::int AS n FROM sandbox.sandbox_bank_billings WHERE id_rec IS NOT NULL`)).rows[0].n;
    if (sent !== n || cobrs !== n) throw new Error(`pix-api floor: ${sent} billings SENT, ${cobrs} cobrs, ${n} expected`);
    return ms;
  } finally {
    agent.destroy();
    await pg.end();
    await stub.stop();
  }
}

module.exports = { pixApiFloor };
