// GET /v1/acquiring/links/{linkId} of a link with 200 payments through the whole service
// (gateway: allow-list, JWT, rate limit; Nest; one SQL round trip) vs a bare node:http + pg
// server answering the same JSON from the same tables. Goal: service >= 50 % of bare req/s.
const { isDeepStrictEqual } = require('node:util');
const { join } = require('node:path');
const { freshDatabase, startService, startBare, compare, pair, firstDifference } = require('./lib');
const { onboard, JWT_SIGNING_KEYS } = require('./auth-limits');

async function call(base, method, path, body, headers = {}) {
  const r = await fetch(`${base}${path}`, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const PAYMENTS = 200;

async function seed(url, t, sandboxUrl) {
  const link = await call(url, 'POST', '/v1/acquiring/links', { name: 'Bench link', amount: 99.9, paymentMethods: ['CARD', 'PIX', 'BOLETO'], maxInstallments: 6 }, t.auth);
  const card = (number) => ({ number, expMonth: 12, expYear: 2035, cvv: '123', holderName: 'BENCH PAYER' });
  for (let i = 0; i < PAYMENTS; i++) {
    const payer = { name: `Payer ${i}`, email: `payer${i}@example.com`, taxId: '52998224725' };
    const kind = i % 5;
    const body =
      kind === 0 ? { method: 'PIX', payer }
        : kind === 1 ? { method: 'BOLETO', payer }
          : kind === 2 ? { method: 'CARD', payer, card: card('4000000000000002') }
            : { method: 'CARD', payer, installments: 1 + (i % 6), card: card('4111111111111111') };
    const p = await call(url, 'POST', `/checkout/${link.slug}/payments`, body);
    if (kind === 0 && i % 2 === 0) await call(sandboxUrl, 'POST', `/sandbox/pix/${p.pix.txid}/pay`);
  }
  return link;
}

/**
 * What went back, so the detail's refund fields are more than zeros: a partial and a full refund of
 * two card sales through the service (refund_balances, which both sides read).
 */
async function refundSome(url, t, link, payments) {
  const sales = payments.filter((p) => p.transactionMethod === 'CARD' && p.status === 'ACCEPTED');
  if (sales.length < 2) throw new Error(`expected two card sales to refund, got ${sales.length}`);
  await call(url, 'POST', `/v1/acquiring/links/${link.linkId}/payments/${sales[0].id}/refunds`, { amount: 10.5, reason: 'requested_by_customer' }, t.auth);
  await call(url, 'POST', `/v1/acquiring/links/${link.linkId}/payments/${sales[1].id}/refunds`, { reason: 'requested_by_customer' }, t.auth);
}

async function main() {
  const db = await freshDatabase();
  // the seed pays 200 times from one IP through the public checkout: past the per-IP card-testing brake
  const svc = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, SANDBOX_PIX_SETTLE_AFTER_SECONDS: '3600', CHECKOUT_RATE_LIMIT_PER_MINUTE: '100000' });
  const publicUrl = `http://localhost:${svc.port}`;
  const o = await onboard(svc.url, db.url);
  const t = { tenantId: o.tenantId, auth: { authorization: `Bearer ${o.token}` } };
  const link = await seed(svc.url, t, svc.sandboxUrl);
  const path = `/v1/acquiring/links/${link.linkId}`;
  await refundSome(svc.url, t, link, (await call(svc.url, 'GET', path, undefined, t.auth)).payments);
  const mine = await call(svc.url, 'GET', path, undefined, t.auth);
  if (!(mine.totalRefunded > 0)) throw new Error(`the refunds did not show: totalRefunded ${mine.totalRefunded}`);
  if (mine.payments.length !== PAYMENTS) throw new Error(`expected ${PAYMENTS} payments, got ${mine.payments.length}`);
  const bare = await startBare(join(__dirname, 'bare/links.js'), { DATABASE_URL: db.url, TENANT_ID: t.tenantId, PUBLIC_URL: publicUrl, JWT_SIGNING_KEYS });
  try {
    const theirs = await (await fetch(`${bare.url}${path}`, { headers: t.auth })).json();
    if (!isDeepStrictEqual(mine, theirs)) throw new Error(`the bare server does not answer the same JSON as the service: ${firstDifference(mine, theirs)}`);
    const r = await compare({ url: `${bare.url}${path}`, headers: t.auth }, { url: `${svc.url}${path}`, headers: t.auth });
    pair('links.detail.200payments', r.bare, r.service, { goal: '>= 0.50', bytes: Buffer.byteLength(JSON.stringify(mine)) });
  } finally {
    await bare.stop();
    await svc.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
