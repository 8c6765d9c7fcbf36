// POST /v1/acquiring/payments (a stored card, a sale) on ACQUIRER_PROVIDER=adyen, through the
// whole service (guard chain, validation, vault, payment + attempt rows, the Adyen call through
// its breaker, the answer with its webhook), vs its required-work floor in the same run:
// node:http + pg doing the same reads and writes and one POST /payments over keep-alive HTTPS
// to the same bare stub acquirer (bench/bare/card-payments-adyen.js, bench/bare/adyen-stub.js).
// 50 connections, alternating rounds, medians. Goal: the service reaches ≥ 0.5 of the floor.
const { alternate, pair, callJson } = require('./lib');
const { startAdyenBench } = require('./support/adyen-setup');

const say = (m) => process.stderr.write(`card-payments-adyen bench: ${m}\n`);

async function main() {
  const b = await startAdyenBench('adyen', say);
  const { svc, pg, auth, card } = b;
  const body = JSON.stringify({ amount: 150.75, tokenData: { slugStoredCard: card.slugStoredCard } });
  const first = await callJson(svc.url, 'POST', '/v1/acquiring/payments', JSON.parse(body), auth);
  if (first.status !== 'ACCEPTED') throw new Error(`the service's card payment on adyen answered ${JSON.stringify(first)}`);

  const floor = await b.floor('bare/card-payments-adyen.js');
  const opts = (url) => ({ url, requests: [{ method: 'POST', path: '/v1/acquiring/payments', headers: { 'content-type': 'application/json', ...auth }, body }] });
  const [f, s] = await alternate([opts(floor.url), opts(svc.url)]);
  await b.stopServers();
  const [{ accepted, attempts }] = (
    await pg.query(`SELECT (SELECT count(*) FROM card_payments WHERE status = 'ACCEPTED')::int AS accepted, (SELECT count(*) FROM adyen_payment_attempts WHERE result_code = 'Authorised')::int AS attempts`)
  ).rows;
  await b.done();
  const ratio = s.rps / f.rps;
  pair('card-payments-adyen', f, s, { floor: 'required work', ofFloor: +ratio.toFixed(3), goal: 0.5, met: ratio >= 0.5 && s.non2xx === 0 && f.non2xx === 0, accepted, attempts });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
