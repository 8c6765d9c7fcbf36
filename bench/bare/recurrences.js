// Bare baseline for POST /v1/banking/pix/automatic/recurrences: node:http + pg doing the same
// insert into pix_recurrences (no gateway, no validation, no provider call), prepared as the
// service's is. Less work than the service by design (the reference is the required-work floor).
const { randomUUID, randomBytes } = require('node:crypto');
const { createServer } = require('node:http');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const tenantId = process.env.TENANT_ID;

createServer((req, res) => {
  if (req.url === '/__ready') return void res.end('ok');
  if (req.method !== 'POST' || req.url !== '/v1/banking/pix/automatic/recurrences') return void res.writeHead(404).end();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const b = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = randomUUID();
      const url = `http://127.0.0.1/authorize/${id}`;
      await pool.query({
        name: 'bare.insert',
        text: `INSERT INTO pix_recurrences (id, tenant_id, id_tx, amount_cents, currency, periodicity, first_due_date, expiration_date, day_adjustment,
           payer_name, payer_tax_id, description, authorization_url, next_send_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        values: [id, tenantId, `RR${randomBytes(15).toString('hex').toUpperCase()}`, Math.round(b.amount * 100), b.currency, b.periodicity, b.firstDueDate, b.expirationDate ?? null, b.dayAdjustment, b.payerName, b.payerTaxId, b.description ?? null, url, b.firstDueDate],
      });
      const body = JSON.stringify({ recurrenceId: id, status: 'PENDING', authorizationUrl: url });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    } catch (e) {
      res.writeHead(500).end(String(e.message));
    }
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
