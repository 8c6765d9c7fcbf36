// A bare acquirer stub answering Adyen Checkout v72 over HTTPS (keep-alive, a certificate from
// the development PKI), nothing stored: POST /payments Authorised with a pspReference and an
// authCode; POST /payments/{pspReference}/refunds `received` (a PaymentRefundResponse). Both the service (ACQUIRER_PROVIDER=adyen) and its floor call it, so the
// acquirer costs both sides the same. /__ready answers on plain HTTP (PORT) for the harness.
const http = require('node:http');
const https = require('node:https');
const { randomBytes } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.STUB_CERT_DIR;
const key = readFileSync(join(dir, 'server.key'));
const cert = readFileSync(join(dir, 'server.crt'));

function answer(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

https
  .createServer({ key, cert, minVersion: 'TLSv1.2', keepAliveTimeout: 60000 }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const refund = /\/payments\/([^/]+)\/refunds$/.exec(req.url);
      if (req.method !== 'POST' || !(refund || req.url.endsWith('/payments')) || !req.headers['x-api-key']) return answer(res, 401, { status: 401, errorCode: '000', message: 'Unauthorized', errorType: 'security' });
      const b = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (refund)
        return answer(res, 201, {
          merchantAccount: b.merchantAccount,
          paymentPspReference: decodeURIComponent(refund[1]),
          pspReference: randomBytes(8).toString('hex').toUpperCase(),
          reference: b.reference,
          amount: b.amount,
          status: 'received',
        });
      answer(res, 200, {
        pspReference: randomBytes(8).toString('hex').toUpperCase(),
        resultCode: 'Authorised',
        merchantReference: b.reference,
        amount: b.amount,
        additionalData: { authCode: String(100000 + Math.floor(Math.random() * 900000)) },
      });
    });
  })
  .listen(Number(process.env.STUB_HTTPS_PORT), '127.0.0.1');

http.createServer((req, res) => answer(res, 200, { ok: true })).listen(Number(process.env.PORT), '127.0.0.1');
