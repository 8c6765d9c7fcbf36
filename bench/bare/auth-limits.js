// Bare baseline for GET /v1/banking/accounts/{id}/limits: node:http doing the gateway's work
// (./gateway-check: the bearer check with the service's own codec and store of verified tokens,
// the tenant's allow-list, revocation, the per-tenant count and its RateLimit-* headers, the cached
// answers in the service's TTL cache) and
// answering the same JSON.
const { createServer } = require('node:http');
const { gatewayChecker, limitsOf } = require('./gateway-check');

const gate = gatewayChecker(process.env.JWT_SIGNING_KEYS);
const limits = limitsOf();
const PATH = /^\/v1\/banking\/accounts\/([^/]+)\/limits$/;

/** The answer once the gate has decided (a cached answer gone stale makes it a promise, as in the service). */
function gated(g, accountId, res) {
  if (g.status !== 200) return res.writeHead(g.status, g.headers).end();
  const doc = limits(g, accountId);
  if (doc instanceof Promise) doc.then((d) => answer(d, g, res));
  else answer(doc, g, res);
}

function answer(doc, g, res) {
  if (!doc) return res.writeHead(404, g.headers).end();
  const body = JSON.stringify(doc);
  res.writeHead(200, { ...g.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

createServer((req, res) => {
  if (req.url === '/__ready') return res.writeHead(200).end();
  const m = PATH.exec(req.url);
  if (!m) return res.writeHead(404).end();
  const g = gate(req.headers.authorization, req.socket.remoteAddress);
  if (g instanceof Promise) g.then((x) => gated(x, m[1], res));
  else gated(g, m[1], res);
}).listen(Number(process.env.PORT), '127.0.0.1');
