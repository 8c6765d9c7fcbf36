import { expectedLines, guideWalk, runWalk } from '../support/guide-walk';
import { CardsApp, startCardsApp } from './support';

/** docs/guide/cards.md: the curl walk runs as written against a fresh service, on both card edges. */
describe.each(['generic', 'adyen'])('cards guide walk-through (ACQUIRER_PROVIDER=%s)', (provider) => {
  let c: CardsApp;
  beforeAll(async () => {
    c = await startCardsApp({ ACQUIRER_PROVIDER: provider });
  });
  afterAll(() => c.close());

  it('saves a card, charges it, captures, voids, and runs both 3DS flows', async () => {
    const walk = guideWalk('cards.md');
    // every "# → …" line of the guide is an output line of the script
    const expected = expectedLines(walk).map((l) => l.replace(/ \(single use\)$/, ''));
    const stdout = await runWalk(walk, { BASE: c.t.url, SANDBOX_URL: c.t.sandboxUrl, DATABASE_URL: c.t.databaseUrl });
    expect(stdout.trim().split('\n')).toEqual(expected);
    // The walk really went through the configured card edge: on adyen every payment was sent to
    // Adyen's /payments (an attempt answered Authorised, its pspReference the acquirer's id) and
    // both 3DS authentications ran at Adyen's face; on service none of it did.
    const payments = await c.t.sql(
      `SELECT p.status, p.acquirer_transaction_id AS acquirer, a.psp_reference AS psp, a.result_code
           FROM card_payments p LEFT JOIN adyen_payment_attempts a ON a.reference = p.id
          WHERE p.tenant_id = (SELECT id FROM tenants WHERE name = 'Guia de cartões') ORDER BY p.created_at`,
    );
    const acquirer = provider === 'adyen' ? /^[0-9A-F]{16}$/ : /^ctx_[0-9a-f]+$/;
    expect(payments).toEqual(
      ['ACCEPTED', 'CAPTURED', 'VOIDED', 'ACCEPTED', 'ACCEPTED'].map((status) => ({
        status,
        acquirer: expect.stringMatching(acquirer),
        psp: provider === 'adyen' ? expect.stringMatching(acquirer) : null,
        result_code: provider === 'adyen' ? 'Authorised' : null,
      })),
    );
    for (const p of payments) if (provider === 'adyen') expect(p.psp).toBe(p.acquirer);
    expect(await c.t.sql(`SELECT count(*)::int AS n FROM sandbox_adyen_three_ds`)).toEqual([{ n: provider === 'adyen' ? 2 : 0 }]);
  });
});
