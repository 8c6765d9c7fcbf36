import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { createLink } from '../links/support';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPED: the Adyen boleto browser test needs Chromium at ${CHROMIUM} (apt-get install chromium)`);

/** The hosted checkout paying by boleto on Adyen, in a real headless Chromium: the voucher's download link beside the printable boleto. */
(haveChromium ? describe : describe.skip)('boleto on Adyen in the hosted checkout (Chromium)', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let a: OnboardedTenant;
  let ctx: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_PROVIDER: 'adyen', ACQUIRER_RETRY_DELAYS_MS: '10' } });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
    profile = mkdtempSync(join(tmpdir(), 'pp-chromium-'));
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      locale: 'pt-BR',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(profile, { recursive: true, force: true });
    await t?.close();
  });

  it('shows the line, the barcode, the printable boleto and Adyen’s download link, no Pix QR; paid at the bank, it says so', async () => {
    const l = await createLink(t, a.auth, { name: 'Mensalidade', amount: 120, paymentMethods: ['BOLETO'] });
    const page = await ctx.newPage();
    await page.goto(`${t.url}/checkout/${l.slug}`);
    expect(await page.isVisible('#boleto-download')).toBe(false);
    await page.fill('#payer-name', 'Ana Souza');
    await page.fill('#payer-email', 'ana@example.com');
    await page.fill('#payer-taxid', '529.982.247-25');
    await page.click('#pay-boleto');
    await page.waitForSelector('#boleto-result:not([hidden])');
    expect((await page.textContent('#boleto-line'))!).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    expect(await page.isVisible('#boleto-download')).toBe(true);
    const download = (await page.getAttribute('#boleto-download', 'href'))!;
    expect(download).toMatch(new RegExp(`^${t.sandboxUrl.replace(/[.]/g, '\\.')}/sandbox/boletos/bol_[0-9a-f]+$`));
    expect(await page.textContent('#boleto-download')).toBe('Baixar o boleto (PDF)');

    const print = await ctx.newPage();
    await print.goto(t.url + (await page.getAttribute('#boleto-print', 'href')));
    expect(await print.$$eval('svg.barcode rect', (r) => r.length)).toBeGreaterThan(100);
    expect(await print.$('.pixbox')).toBeNull();
    await print.close();

    const [item] = await t.sql(`SELECT acquirer_id FROM links_payments WHERE link_id = $1`, [l.linkId]);
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${item.acquirer_id}/pay`, {})).body.status).toBe('PAID');
    await page.waitForSelector('#done:not([hidden])', { timeout: 20000 });
    expect(await page.textContent('#done-text')).toBe('R$ 120,00 · Pago com boleto');
    await page.close();
  });
});
