// The required-work floor for POST /v1/banking/pix/automatic/recurrences on BANK_PROVIDER=pix-api:
// node:http + pg doing what a create over API Pix needs and nothing else. A PSP in the same
// process (node:https, mutual TLS with certificates made by openssl, a bearer token checked)
// answers POST /locrec (a location row) and POST /rec (the bank's recurrence row, linked to
// its location); the front calls both over keep-alive mutual TLS with a token taken once, then
// inserts ours. No framework, no validation, no retries, no circuit breaker, no logs.
// Equal work where the service saves some: the gateway's checks (./gateway-check: the bearer by the
// service's own codec and its store of verified tokens, allow-list, rate count), and our insert is a prepared statement, as the
// service's is; the PSP's statements are not prepared, as the sandbox PSP's are not.
const { randomBytes } = require('node:crypto');
const https = require('node:https');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Pool } = require('pg');
const { ensureDevCertificates } = require('../../dist/kernel/platform/tls/dev-certificates');
const { readJson, answer, serveCreates } = require('./recurrence-front');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const tenantId = process.env.TENANT_ID;
const pki = ensureDevCertificates(join(mkdtempSync(join(tmpdir(), 'pp-bench-pki-')), 'psp-certs'));
const agent = new https.Agent({ keepAlive: true, maxSockets: 50, cert: pki.clientCert, key: pki.clientKey, ca: pki.ca, minVersion: 'TLSv1.2' });
const TOKEN = randomBytes(32).toString('base64url');

const PER = { SEMANAL: 'WEEKLY', MENSAL: 'MONTHLY', TRIMESTRAL: 'QUARTERLY', SEMESTRAL: 'BIANNUAL', ANUAL: 'ANNUAL' };

const psp = https.createServer({ key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' }, async (req, res) => {
  try {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(res, 401, {});
    const b = await readJson(req);
    if (req.url === '/locrec') {
      const token = randomBytes(16).toString('base64url');
      const { rows } = await pool.query(`INSERT INTO sandbox.sandbox_psp_locrec (token) VALUES ($1) RETURNING id, created_at`, [token]);
      return answer(res, 201, { id: Number(rows[0].id), location: `http://127.0.0.1/sandbox/bank/locrec/${token}`, criacao: rows[0].created_at });
    }
    const idRec = `RR99999008${new Date().toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(8).toString('base64url').slice(0, 11)}`;
    const dev = b.vinculo.devedor;
    await pool.query(
      `INSERT INTO sandbox.sandbox_bank_recurrences (recurrence_id, id_tx, receiver_id, receiver_name, status, amount_cents, periodicity, first_due_date,
         expiration_date, day_adjustment, payer_name, payer_tax_id, description, authorization_deadline, id_rec, contrato, politica_retentativa, loc_id)
       VALUES ($1, $1, 'bench', 'Bench', 'PENDING', $2, $3, $4, $5, 'MOVE_FORWARD_NEXT_BUSINESS_DAY', $6, $7, $8, $4, $1, $9, $10, $11)`,
      [idRec, Math.round(Number(b.valor.valorRec) * 100), PER[b.calendario.periodicidade], b.calendario.dataInicial, b.calendario.dataFinal ?? null, dev.nome, dev.cpf ?? dev.cnpj, b.vinculo.objeto ?? null, b.vinculo.contrato, b.politicaRetentativa, b.loc],
    );
    await pool.query(`UPDATE sandbox.sandbox_psp_locrec SET id_rec = $1 WHERE id = $2`, [idRec, b.loc]);
    answer(res, 201, { idRec, status: 'CRIADA', loc: { id: b.loc } });
  } catch (e) {
    answer(res, 500, { error: String(e.message) });
  }
});

function call(port, path, payload) {
  return new Promise((resolve, reject) => {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const req = https.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => readJson(res).then((j) => (res.statusCode === 201 ? resolve(j) : reject(new Error(JSON.stringify(j)))), reject),
    );
    req.on('error', reject);
    req.end(body);
  });
}

const PERIODICIDADE = { WEEKLY: 'SEMANAL', MONTHLY: 'MENSAL', QUARTERLY: 'TRIMESTRAL', BIANNUAL: 'SEMESTRAL', ANNUAL: 'ANUAL' };

psp.listen(0, '127.0.0.1', () => {
  const port = psp.address().port;
  serveCreates(async ({ body: b, id, idTx, amountCents }) => {
    const loc = await call(port, '/locrec');
    const rec = await call(port, '/rec', {
      vinculo: { contrato: id.replace(/-/g, ''), devedor: { cpf: b.payerTaxId, nome: b.payerName }, objeto: b.description },
      calendario: { dataInicial: b.firstDueDate, dataFinal: b.expirationDate, periodicidade: PERIODICIDADE[b.periodicity] },
      valor: { valorRec: (amountCents / 100).toFixed(2) },
      politicaRetentativa: 'PERMITE_3R_7D',
      loc: loc.id,
    });
    await pool.query({
      name: 'floor.insert',
      text: `INSERT INTO pix_recurrences (id, tenant_id, id_tx, amount_cents, currency, periodicity, first_due_date, expiration_date, day_adjustment,
         payer_name, payer_tax_id, description, authorization_url, next_send_date, id_rec)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      values: [id, tenantId, idTx, amountCents, b.currency, b.periodicity, b.firstDueDate, b.expirationDate ?? null, b.dayAdjustment, b.payerName, b.payerTaxId, b.description ?? null, loc.location, b.firstDueDate, rec.idRec],
    });
    return { recurrenceId: id, status: 'PENDING', authorizationUrl: loc.location };
  });
});
