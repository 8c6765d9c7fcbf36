import { CardsApp, startCardsApp } from '../cards/support';
import { expectedLines, guideWalk, runWalk } from '../support/guide-walk';

/** docs/guide/refunds.md: the curl walk runs as written against a fresh service on API Pix (BANK_PROVIDER=pix-api), on both card edges, with the same printed results. */
describe.each(['generic', 'adyen'])('refunds guide walk-through (ACQUIRER_PROVIDER=%s, BANK_PROVIDER=pix-api)', (provider) => {
  let c: CardsApp;
  beforeAll(async () => {
    c = await startCardsApp({ ACQUIRER_PROVIDER: provider, BANK_PROVIDER: 'pix-api', SANDBOX_ACQUIRER_TICK_MS: '100' });
  });
  afterAll(() => c.close());

  it('refunds cards in parts, releases a pre-authorization, shows a refused refund and a chargeback, gives back a Pix, pays a boleto out and gives back a Pix Automático billing', async () => {
    const walk = guideWalk('refunds.md');
    const stdout = await runWalk(walk, { BASE: c.t.url, SANDBOX_URL: c.t.sandboxUrl, DATABASE_URL: c.t.databaseUrl }, 120_000);
    expect(stdout.trim().split('\n')).toEqual(expectedLines(walk));
    // on adyen the refunds went through Adyen's /refunds; on service through the service protocol
    const refunds = await c.t.sql(
      `SELECT provider_reference FROM refunds WHERE method = 'refund' AND rail = 'card' AND tenant_id = (SELECT id FROM tenants WHERE name = 'Guia de reembolsos')`,
    );
    expect(refunds).toHaveLength(3);
    for (const r of refunds) expect(r.provider_reference).toMatch(provider === 'adyen' ? /^[0-9A-Z]{16}$/ : /./);
  });
});
