import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guideWalk, runWalk, walkFolder } from '../support/guide-walk';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * docs/guide/links.md: the curl walk runs as written against a fresh service, on both bank edges
 * and, with the `service` bank, on both card edges (the link's card and boleto then go through
 * Adyen Checkout v72).
 */
describe.each([
  ['service', 'generic'],
  ['pix-api', 'generic'],
  ['service', 'adyen'],
])('links guide walk-through (BANK_PROVIDER=%s, ACQUIRER_PROVIDER=%s)', (provider, acquirer) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10', BANK_PROVIDER: provider, ACQUIRER_PROVIDER: acquirer } });
  });
  afterAll(() => t.close());

  it('creates a link, pays it by card, Pix and boleto, and shows payments and metrics', async () => {
    const walk = guideWalk('links.md');
    // in a directory of this test's: the link.json the walk writes there is read below
    const dir = mkdtempSync(join(tmpdir(), 'pp-links-walk-'));
    try {
      // a failure names the step and shows what the walk printed by then (runWalk's error)
      // (its step 0 makes the walk's own tenant in this app's database)
      const stdout = await runWalk(walk, { BASE: t.url, SANDBOX_URL: t.sandboxUrl, DATABASE_URL: t.databaseUrl }, 60_000, dir);
      const lines = stdout.trim().split('\n');
      expect(JSON.parse(lines[0])).toMatchObject({
        grossAmount: 155.43,
        fee: 5.43,
        netAmount: 150,
        installmentAmounts: [51.81, 51.81, 51.81],
      });
      expect(JSON.parse(lines[2])).toEqual({ status: 'ACCEPTED', paid: true, amount: 155.43 });
      expect(lines[3]).toMatch(/^000201.*6304[0-9A-F]{4}$/);
      // on pix-api the BR Code is the PSP's dynamic one (its location inside), and the paid Pix
      // is confirmed by the PSP's webhook: AUTHORIZED at once on the acquirer, SETTLED on API Pix
      if (provider === 'pix-api') expect(lines[3]).toContain('/sandbox/qr/');
      expect(JSON.parse(lines[4])).toMatchObject({
        kind: 'PIX',
        status: provider === 'pix-api' ? expect.stringMatching(/^(AUTHORIZED|SETTLED)$/) : 'AUTHORIZED',
        amount: 151.5,
      });
      expect(lines[5]).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
      expect(JSON.parse(lines[6])).toMatchObject({ kind: 'BOLETO', status: 'PAID', amount: 153.49 });
      const final = JSON.parse(lines[7]);
      expect(final).toMatchObject({ status: 'ACTIVE', attemptCount: 3, paidCount: 3, totalPaid: 460.42 });
      expect(final.payments.map((p: any) => `${p.transactionMethod}:${p.status}`)).toEqual([
        'CARD:ACCEPTED',
        provider === 'pix-api' ? expect.stringMatching(/^PIX:(AUTHORIZED|SETTLED)$/) : 'PIX:AUTHORIZED',
        'BOLETO:PAID',
      ]);
      expect(final.payments[0].splits.map((s: any) => s.amount)).toEqual([120, 30]);
      // The card and the boleto really went through the configured card edge: on adyen each is an
      // attempt at Adyen's /payments whose pspReference is the item's acquirer id; Pix never is.
      const items = await t.sql(
        `SELECT p.method, p.acquirer_id, a.kind, a.psp_reference, a.result_code
           FROM links_payments p LEFT JOIN adyen_payment_attempts a ON a.reference = p.id::text
          WHERE p.link_id = (SELECT id FROM links WHERE slug = $1) ORDER BY p.created_at`,
        [JSON.parse(readFileSync(join(walkFolder(dir), 'link.json'), 'utf8')).slug],
      );
      const attempt = (kind: string, resultCode: string) =>
        acquirer === 'adyen'
          ? { kind, psp_reference: expect.stringMatching(/^[0-9A-F]{16}$/), result_code: resultCode }
          : { kind: null, psp_reference: null, result_code: null };
      expect(items).toEqual([
        { method: 'CARD', acquirer_id: expect.any(String), ...attempt('card', 'Authorised') },
        { method: 'PIX', acquirer_id: expect.any(String), kind: null, psp_reference: null, result_code: null },
        { method: 'BOLETO', acquirer_id: expect.any(String), ...attempt('boleto', 'PresentToShopper') },
      ]);
      if (acquirer === 'adyen') for (const i of [items[0], items[2]]) expect(i.acquirer_id).toBe(i.psp_reference);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
