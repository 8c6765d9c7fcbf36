// What the two Adyen card floors share: the JSON answer, and one POST to the bare stub acquirer
// (ADYEN_CHECKOUT_URL) over keep-alive HTTPS trusting STUB_CA_FILE, as the service's client
// calls Adyen (x-api-key, idempotency-key); it resolves the answer's status and parsed body.
const https = require('node:https');
const { readFileSync } = require('node:fs');

const stub = new URL(process.env.ADYEN_CHECKOUT_URL);
const agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca: readFileSync(process.env.STUB_CA_FILE), minVersion: 'TLSv1.2' });

function send(res, status, body) {
  const s = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(s) }).end(s);
}

function postToAdyen(path, body, key) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: stub.hostname, port: stub.port, path: `${stub.pathname}${path}`, method: 'POST', agent,
        headers: { 'content-type': 'application/json', 'content-length': payload.length, 'x-api-key': 'bench', 'idempotency-key': key },
      },
      (r) => {
        const chunks = [];
        r.on('data', (c) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        r.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

module.exports = { send, postToAdyen };
