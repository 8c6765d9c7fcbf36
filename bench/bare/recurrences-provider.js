// The required-work floor for POST /v1/banking/pix/automatic/recurrences: node:http + pg doing
// what the spec asks of a create and nothing else. The answer carries the bank's authorization
// URL, so the bank is called first, over HTTP (keep-alive), as the service calls its sandbox: a
// second node:http server in the same process that inserts the bank's recurrence and answers
// the URL; then our insert. No framework, no validation, no retries, no circuit breaker, no logs.
// Equal work where the service saves some: the gateway's checks (./gateway-check: the bearer by
// the service's own codec and its store of verified tokens, allow-list, rate count), and both inserts are prepared statements,
// as the service's two inserts are (`prepared()` in platform/database/sql.ts).
const http = require('node:http');
const { Pool } = require('pg');
const { readJson, answer, serveCreates } = require('./recurrence-front');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const tenantId = process.env.TENANT_ID;
const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });

const bank = http.createServer(async (req, res) => {
  try {
    const r = await readJson(req);
    await pool.query({
      name: 'floor.bank_insert',
      text: `INSERT INTO sandbox.sandbox_bank_recurrences (recurrence_id, id_tx, receiver_id, receiver_name, status, amount_cents, periodicity, first_due_date,
         expiration_date, day_adjustment, payer_name, payer_tax_id, description, authorization_deadline)
       VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      values: [r.recurrenceId, r.idTx, r.receiverId, r.receiverName, r.amountCents, r.periodicity, r.firstDueDate, r.expirationDate, r.dayAdjustment, r.payerName, r.payerTaxId, r.description, r.firstDueDate],
    });
    answer(res, 201, { recurrenceId: r.recurrenceId, status: 'PENDING', authorizationUrl: `http://127.0.0.1/sandbox/authorize/${r.recurrenceId}` });
  } catch (e) {
    answer(res, 500, { error: String(e.message) });
  }
});

function callBank(port, payload) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(payload);
    const req = http.request(
      { host: '127.0.0.1', port, path: '/recurrences', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => readJson(res).then((j) => (res.statusCode === 201 ? resolve(j) : reject(new Error(j.error))), reject),
    );
    req.on('error', reject);
    req.end(body);
  });
}

bank.listen(0, '127.0.0.1', () => {
  const bankPort = bank.address().port;
  serveCreates(async ({ body: b, id, idTx, amountCents }) => {
    const created = await callBank(bankPort, {
      recurrenceId: id, idTx, receiverId: tenantId, receiverName: 'Bench Pix', amountCents, periodicity: b.periodicity, firstDueDate: b.firstDueDate,
      expirationDate: b.expirationDate ?? null, dayAdjustment: b.dayAdjustment, payerName: b.payerName, payerTaxId: b.payerTaxId, description: b.description ?? null,
    });
    await pool.query({
      name: 'floor.insert',
      text: `INSERT INTO pix_recurrences (id, tenant_id, id_tx, amount_cents, currency, periodicity, first_due_date, expiration_date, day_adjustment,
         payer_name, payer_tax_id, description, authorization_url, next_send_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      values: [id, tenantId, idTx, amountCents, b.currency, b.periodicity, b.firstDueDate, b.expirationDate ?? null, b.dayAdjustment, b.payerName, b.payerTaxId, b.description ?? null, created.authorizationUrl, b.firstDueDate],
    });
    return { recurrenceId: id, status: 'PENDING', authorizationUrl: created.authorizationUrl };
  });
});
