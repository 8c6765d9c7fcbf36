// The front both recurrence-create floors share (bare/recurrences-provider.js and
// bare/recurrences-pix-api.js): the HTTP server on PORT with the gateway's checks
// (./gateway-check), the request body read, and the ids a create makes. Each floor keeps only its
// provider's calls and its insert.
const http = require('node:http');
const { randomUUID, randomBytes } = require('node:crypto');
const { admitter } = require('./gateway-check');

const admit = admitter(process.env.JWT_SIGNING_KEYS);

function readJson(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      try {
        const t = Buffer.concat(chunks).toString('utf8');
        resolve(t ? JSON.parse(t) : null);
      } catch (e) {
        reject(e);
      }
    });
    stream.on('error', reject);
  });
}

function answer(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
}

/**
 * Serves POST /v1/banking/pix/automatic/recurrences on PORT for the tenant TENANT_ID: the gateway's
 * checks, then `create(input)` with the body, a new recurrence id, idTx and amount in cents, and
 * its answer sent as 200 (a throw answers 500 with its message).
 */
function serveCreates(create) {
  const tenantId = process.env.TENANT_ID;
  const created = async (req, res) => {
    try {
      const body = await readJson(req);
      const input = { body, id: randomUUID(), idTx: `RR${randomBytes(15).toString('hex').toUpperCase()}`, amountCents: Math.round(body.amount * 100) };
      answer(res, 200, await create(input));
    } catch (e) {
      answer(res, 500, { error: String(e.message) });
    }
  };
  http
    .createServer((req, res) => {
      if (req.url === '/__ready') return void res.end('ok');
      if (req.method !== 'POST' || req.url !== '/v1/banking/pix/automatic/recurrences') return void res.writeHead(404).end();
      admit(req, res, (claims) => (claims?.tenant === tenantId ? created(req, res) : res.writeHead(401).end()));
    })
    .listen(Number(process.env.PORT), '127.0.0.1');
}

module.exports = { readJson, answer, serveCreates };
