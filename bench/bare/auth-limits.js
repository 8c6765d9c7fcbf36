// Bare baseline for GET /v1/banking/accounts/{id}/limits: node:http verifying the same HS256
// JWT by hand (createHmac + timingSafeEqual, key decoded once) and answering the same JSON.
const { createServer } = require('node:http');
const { createHmac, createSecretKey, timingSafeEqual } = require('node:crypto');

const [kid, secret] = process.env.JWT_SIGNING_KEYS.split(',')[0].split(/:(.*)/s);
const key = createSecretKey(Buffer.from(secret, 'utf8'));
const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid })).toString('base64url');
const PATH = /^\/v1\/banking\/accounts\/([^/]+)\/limits$/;

function verify(auth) {
  if (!auth || !auth.startsWith('Bearer ')) return null;
  const token = auth.slice(7);
  const [h, p, s] = token.split('.');
  if (h !== header || !p || !s) return null;
  const sig = Buffer.from(s, 'base64url');
  const expected = createHmac('sha256', key).update(`${h}.${p}`).digest();
  if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null;
  const c = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  return c.exp > Date.now() / 1000 ? c : null;
}

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
