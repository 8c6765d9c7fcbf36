// Bare baseline for GET /v1/banking/accounts/{id}/limits: node:http verifying the bearer with the
// service's own HS256 codec (./hs256-check: the same parse, HMAC and store of verified tokens, so
// a token's HMAC is computed once, as in the service) and answering the same JSON.
const { createServer } = require('node:http');
const { hs256Checker } = require('./hs256-check');

const verify = hs256Checker(process.env.JWT_SIGNING_KEYS);
const PATH = /^\/v1\/banking\/accounts\/([^/]+)\/limits$/;

createServer((req, res) => {
  if (req.url === '/__ready') return res.writeHead(200).end();
  const m = PATH.exec(req.url);
  if (!m) return res.writeHead(404).end();
  const c = verify(req.headers.authorization);
  if (!c) return res.writeHead(401).end();
  if (m[1] !== c.tenant) return res.writeHead(404).end();
  const body = JSON.stringify({
    accountId: m[1],
    tenantId: c.tenant,
    rateLimit: { limit: 1000000000, remaining: 999999999, resetSeconds: 30, windowSeconds: 60 },
    pix: { perTransaction: 1000000, daytime: 5000000, nighttime: 100000 },
  });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
