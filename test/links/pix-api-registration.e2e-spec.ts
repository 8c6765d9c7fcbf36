import { eventually, onboardTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { createLink, pay, PAYER } from './support';

/**
 * On BANK_PROVIDER=pix-api the service registers its callback URLs at the PSP (by default its own
 * address) as soon as its server listens. It used to try once before `listen`, fail, and try
 * again a second later: a Pix paid in that second had its callback dropped by the PSP, and the
 * payment waited for the received-Pix job's next pass (30 s by default) to be confirmed.
 */
describe('pix-api: callback URLs registered as soon as the server listens', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the job that would find a Pix without its callback runs once an hour here: only the callback can confirm it
    t = await startTestApp({ env: { BANK_PROVIDER: 'pix-api', PIX_API_CHARGES_CHECK_MS: '3600000' } });
  });
  afterAll(() => t?.close());

  it('a Pix paid at once after start is confirmed by its callback; no registration was tried before listening', async () => {
    const a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
    const l = await createLink(t, a.auth, { amount: 25 });
    const r = await pay(t, l.slug, { method: 'PIX', payer: PAYER(1) });
    expect(r.status).toBe(201);
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${r.body.pix.txid}/pay`)).status).toBe(200);
    const status = async () => (await t.sql(`SELECT status FROM links_payments WHERE id = $1`, [r.body.paymentId]))[0]?.status;
    await eventually(async () => (await status()) === 'SETTLED', 10_000);

    const [pix] = await t.sql(`SELECT webhook_url FROM sandbox_psp_pix_webhooks`);
    expect(pix.webhook_url).toBe(`${t.url}/provider/pix-api`);
    await eventually(async () => (await t.sql(`SELECT 1 FROM sandbox_psp_webhooks`)).length === 2, 10_000);
    expect(t.logs()).not.toContain('not listening yet');
  });
});
