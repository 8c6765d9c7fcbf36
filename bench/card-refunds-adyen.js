// POST /v1/acquiring/payments/{paymentId}/refunds (a partial refund of R$ 0.01 of a captured sale)
// on ACQUIRER_PROVIDER=adyen, through the whole service (guard chain, validation, the payment and
// its balance read, the reserve + refund + webhook transaction, POST /payments/{psp}/refunds
// through the acquirer's breaker, the answer kept), vs its required-work floor in the same run:
// node:http + pg doing the same reads and writes and one refund call over keep-alive HTTPS to
// the same bare stub acquirer (bench/bare/card-refunds-adyen.js, bench/bare/adyen-stub.js).
// The setup makes BENCH_REFUND_PAYMENTS (default 100) sales of R$ 1 000 000 through the service;
// each side spreads its calls over them in turn, so 50 connections rarely wait on one balance row.
// 50 connections, alternating rounds, medians. Goal: the service reaches ≥ 0.5 of the floor.
const { alternate, pair, callJson, knob } = require('./lib');
const { startAdyenBench } = require('./support/adyen-setup');

const say = (m) => process.stderr.write(`card-refunds-adyen bench: ${m}\n`);
const PAYMENTS = knob('BENCH_REFUND_PAYMENTS', 100);

async function main() {
  const b = await startAdyenBench('adyen-refunds', say);
  const { svc, pg, auth, card } = b;
  const paymentIds = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const p = await callJson(svc.url, 'POST', '/v1/acquiring/payments', { amount: 1_000_000, tokenData: { slugStoredCard: card.slugStoredCard } }, auth);
    if (p.status !== 'ACCEPTED') throw new Error(`the service's card payment on adyen answered ${JSON.stringify(p)}`);
    paymentIds.push(p.paymentId);
  }
  say(`${PAYMENTS} payments of R$ 1 000 000 made`);
  const body = JSON.stringify({ amount: 0.01, reason: 'requested_by_customer' });
  const first = await callJson(svc.url, 'POST', `/v1/acquiring/payments/${paymentIds[0]}/refunds`, JSON.parse(body), auth);
  if (first.status !== 'PENDING' || !first.providerReference) throw new Error(`the service's refund on adyen answered ${JSON.stringify(first)}`);

  const floor = await b.floor('bare/card-refunds-adyen.js');
  const floorFirst = await callJson(floor.url, 'POST', `/v1/acquiring/payments/${paymentIds[1 % PAYMENTS]}/refunds`, JSON.parse(body), auth);
  if (floorFirst.status !== 'PENDING' || !floorFirst.providerReference) throw new Error(`the floor's refund answered ${JSON.stringify(floorFirst)}`);
  // every request takes the next payment in turn (per side), so the calls spread over all of them
  const opts = (url) => {
    let n = 0;
    return {
      url,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          body,
          setupRequest: (req) => ({ ...req, path: `/v1/acquiring/payments/${paymentIds[n++ % PAYMENTS]}/refunds` }),
        },
      ],
    };
  };
  const [f, s] = await alternate([opts(floor.url), opts(svc.url)]);
  await b.stopServers();
  const [{ refunds, taken, reserved }] = (
    await pg.query(
      `SELECT (SELECT count(*) FROM refunds)::int AS refunds, (SELECT count(*) FROM refunds WHERE status = 'PENDING' AND provider_reference IS NOT NULL)::int AS taken,
              (SELECT sum(refunded_cents) FROM refund_balances)::int AS reserved`,
    )
  ).rows;
  await b.done();
  const ratio = s.rps / f.rps;
  pair('card-refunds-adyen', f, s, { floor: 'required work', ofFloor: +ratio.toFixed(3), goal: 0.5, met: ratio >= 0.5 && s.non2xx === 0 && f.non2xx === 0, refunds, taken, reserved });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
