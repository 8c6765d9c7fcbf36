import { existsSync } from 'node:fs';
import { Browser, Page } from 'playwright-core';
import { CHROMIUM, launch } from '../pages/audit';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { createLink } from './support';

const suite = existsSync(CHROMIUM) ? describe : describe.skip;
const LIFETIME_S = 1800; // LINKS_PIX_EXPIRES_SECONDS

/**
 * The Pix countdown counts from the service's clock, the one the code's expiry is on: after the
 * sandbox's test clock moved days ahead (or back), a new code still shows its real lifetime,
 * whether the page was loaded before or after the move.
 */
suite('the checkout countdown and the test clock, in Chromium', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let a: OnboardedTenant;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      startTestApp({ env: { SANDBOX_PIX_SETTLE_AFTER_SECONDS: '3600', LINKS_PIX_EXPIRES_SECONDS: String(LIFETIME_S) } }),
      launch(),
    ]);
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const openPix = async (slug: string): Promise<Page> => {
    const page = await browser.newPage({ locale: 'pt-BR' });
    await page.goto(`${t.url}/checkout/${slug}`);
    await page.fill('#payer-name', 'Ana Souza');
    await page.fill('#payer-email', 'ana@example.com');
    return page;
  };
  const newPixCountdown = async (page: Page) => {
    await page.click('#pay-pix');
    await page.waitForSelector('#pix-result:not([hidden])');
    return { seconds: Number(await page.getAttribute('#pix-countdown', 'data-seconds')), text: await page.textContent('#pix-countdown') };
  };

  it('shows minutes, not days, for a Pix made days after the page loaded, after it, and after a reset', async () => {
    const l = await createLink(t, a.auth, { name: 'Doação', amount: 25, paymentMethods: ['PIX'] });
    const before = await openPix(l.slug); // loaded on today's clock
    await t.advanceDays(5);
    const after = await openPix(l.slug); // loaded on the clock 5 days ahead
    for (const page of [before, after]) {
      const c = await newPixCountdown(page);
      expect(c.seconds).toBeLessThanOrEqual(LIFETIME_S);
      expect(c.seconds).toBeGreaterThan(LIFETIME_S - 60);
      expect(c.text).toMatch(/^O código expira em (30:00|29:\d\d)\.$/);
    }

    // loaded while the clock is ahead, then the clock goes back to real time
    const ahead = await openPix(l.slug);
    expect((await http(t.sandboxUrl, 'POST', '/sandbox/clock/reset')).status).toBe(200);
    const c = await newPixCountdown(ahead);
    expect(c.seconds).toBeLessThanOrEqual(LIFETIME_S);
    expect(c.seconds).toBeGreaterThan(LIFETIME_S - 60);
  });
});
