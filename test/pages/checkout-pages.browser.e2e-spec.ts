import { existsSync } from 'node:fs';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { createLink, detail } from '../links/support';
import { parseBrCode } from '../../kernel/common/formats/brcode';
import { createRecurrence, newTenant } from '../pix-automatic/support';
import { Audit, check, CHROMIUM, context, LANGS, launch, newAudit, tabTo, typeInto, WIDTHS, writeReport } from './audit';

const suite = existsSync(CHROMIUM) ? describe : describe.skip;

/** Words the tests look for, per language (the pages take theirs from kernel/common/i18n). */
const W = {
  'pt-BR': {
    paidCard: 'Pago com cartão',
    paidPix: 'Pago com Pix',
    paidBoleto: 'Pago com boleto',
    waiting: 'Aguardando pagamento…',
    copied: 'Copiado!',
    expired: 'Este código Pix expirou',
    receipt: 'Comprovante de pagamento',
    min: 'O valor mínimo é R$ 10,00.',
    price: 'R$ 1.234,56',
    inst3: '3x de R$ 29,96 sem juros',
    cvv: 'O código de segurança tem 3 dígitos.',
    name: 'Digite seu nome completo.',
    confirmed: 'Pagamento confirmado',
  },
  en: {
    paidCard: 'Paid by card',
    paidPix: 'Paid by Pix',
    paidBoleto: 'Paid by boleto',
    waiting: 'Waiting for payment…',
    copied: 'Copied!',
    expired: 'This Pix code has expired',
    receipt: 'Payment receipt',
    min: 'The least amount is R$10.00.',
    price: 'R$1,234.56',
    inst3: '3x R$29.96 interest-free',
    cvv: 'The security code has 3 digits.',
    name: 'Type your full name.',
    confirmed: 'Payment confirmed',
  },
};

/**
 * Every payer page of the link checkout, in pt-BR and English, at 375 px and 1280 px, taken to
 * the end with the keyboard only: screenshots in test-artifacts/screens, axe (WCAG 2.1 A/AA)
 * on every state, no other origin, no page over 100 KB, no CSP report.
 */
suite('payer pages of the checkout: languages, widths, keyboard, axe', () => {
  jest.setTimeout(240_000);
  let t: TestApp;
  let a: OnboardedTenant;
  let browser: Browser;
  const audit: Audit = newAudit();

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10', SANDBOX_PIX_SETTLE_AFTER_SECONDS: '3600' } }),
      launch(),
    ]);
    a = await onboardTenant(t, { rateLimitPerMinute: 100000 });
  });
  afterAll(async () => {
    writeReport(audit, 'checkout-pages.txt');
    await browser?.close();
    await t?.close();
  });

  const open = async (ctx: BrowserContext, path: string): Promise<Page> => {
    const page = await ctx.newPage();
    await page.goto(/^https?:/.test(path) ? path : t.url + path); // the bank app's links are the sandbox app's
    return page;
  };
  const fillPayer = async (page: Page, taxId?: string) => {
    await typeInto(page, '#payer-name', 'Ana Souza');
    await typeInto(page, '#payer-email', 'ana@example.com');
    if (taxId) await typeInto(page, '#payer-taxid', taxId);
  };
  /** Leaves the tab list on `method` with the arrow keys, as a keyboard user does. */
  const chooseTab = async (page: Page, method: string) => {
    await tabTo(page, '[role=tab][aria-selected=true]');
    for (let i = 0; i < 3 && !(await page.evaluate((m) => document.activeElement!.id === 'tab-' + m, method)); i++)
      await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute(`#tab-${method}`, 'aria-selected')).toBe('true');
  };

  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const tag = `${lang}-${width}`;

      it(`card, ${tag}: exact installments, errors on their fields, keyboard only to the receipt`, async () => {
        const ctx = await context(browser, audit, lang, width, [t.url, t.sandboxUrl]);
        const l = await createLink(t, a.auth, { name: 'Camiseta', amount: 89.9, maxInstallments: 3 });
        const page = await open(ctx, `/checkout/${l.slug}`);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        expect(await page.$$eval('#installments option', (o) => o.map((x) => x.textContent))).toContain(W[lang].inst3);
        await check(page, audit, `checkout-card-initial-${tag}`);

        // nothing typed: every error next to its field, marked and described
        await tabTo(page, '#pay-card');
        await page.keyboard.press('Enter');
        expect(await page.textContent('#payer-name-error')).toBe(W[lang].name);
        expect(await page.getAttribute('#payer-name', 'aria-invalid')).toBe('true');
        expect(await page.getAttribute('#payer-name', 'aria-describedby')).toBe('payer-name-error');
        expect(await page.evaluate(() => document.activeElement!.id)).toBe('payer-name'); // the first wrong field has the focus
        await check(page, audit, `checkout-card-errors-${tag}`);

        await page.keyboard.type('Ana Souza');
        expect(await page.getAttribute('#payer-name', 'aria-invalid')).toBeNull(); // corrected: cleared at once
        await typeInto(page, '#payer-email', 'ana@example.com');
        await typeInto(page, '#payer-taxid', '52998224725');
        expect(await page.inputValue('#payer-taxid')).toBe('529.982.247-25');
        await typeInto(page, '#card-number', '5555555555554444');
        expect(await page.inputValue('#card-number')).toBe('5555 5555 5555 4444');
        await typeInto(page, '#card-expiry', '1230'); // the numeric keypad has no "/"
        expect(await page.inputValue('#card-expiry')).toBe('12/30');
        await typeInto(page, '#card-cvv', '12');
        await typeInto(page, '#card-name', 'ANA SOUZA');
        await page.keyboard.press('Enter');
        expect(await page.textContent('#card-cvv-error')).toBe(W[lang].cvv);
        await page.keyboard.type('3');
        expect(await page.textContent('#card-cvv-error')).toBe('');
        await tabTo(page, '#installments');
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowDown');
        expect(await page.inputValue('#installments')).toBe('3');
        await tabTo(page, '#pay-card');
        await page.keyboard.press('Enter');
        await page.waitForSelector('#done:not([hidden])');
        expect(await page.textContent('#done-text')).toContain(W[lang].paidCard);
        expect(await page.isVisible('.tabs')).toBe(false);
        await check(page, audit, `checkout-card-paid-${tag}`);
        const d = await detail(t, a.auth, l.linkId);
        expect(d.payments.map((p: any) => [p.status, p.installments])).toEqual([['ACCEPTED', 3]]);

        const receipt = await open(ctx, (await page.getAttribute('#done-receipt', 'href'))!);
        expect(await receipt.textContent('h1')).toBe(W[lang].receipt);
        expect(await receipt.textContent('#r-status')).toBe(W[lang].paidCard);
        expect(await receipt.textContent('#r-date')).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
        await check(receipt, audit, `receipt-${tag}`);
        await ctx.close();
      });

      it(`Pix, ${tag}: countdown, copy feedback, expired state, paid in the bank app`, async () => {
        const ctx = await context(browser, audit, lang, width, [t.url, t.sandboxUrl]);
        const l = await createLink(t, a.auth, { name: 'Doação', amount: 1234.56, paymentMethods: ['PIX'] });
        const page = await ctx.newPage();
        await page.clock.install();
        await page.goto(`${t.url}/checkout/${l.slug}`);
        expect(await page.textContent('#price')).toBe(W[lang].price);
        await check(page, audit, `checkout-pix-initial-${tag}`);
        await fillPayer(page);
        await tabTo(page, '#pay-pix');
        await page.keyboard.press('Enter');
        await page.waitForSelector('#pix-result:not([hidden])');
        expect(Number(await page.getAttribute('#pix-countdown', 'data-seconds'))).toBeGreaterThan(60);
        expect(parseBrCode(await page.inputValue('#pix-code')).merchantName).toBe('Loja Principal (sandbox)'); // the seller's name
        await tabTo(page, '#pix-copy');
        await page.keyboard.press('Enter');
        await page.waitForFunction((w) => document.getElementById('pix-copied')!.textContent === w, W[lang].copied);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.inputValue('#pix-code'));
        expect(await page.getAttribute('#pix-copied', 'aria-live')).toBe('polite');
        await check(page, audit, `checkout-pix-pending-${tag}`);

        // the bank app pays it; the page notices
        const bank = await open(ctx, (await page.getAttribute('#pix-bank', 'href'))!);
        await check(bank, audit, `bank-app-pix-${tag}`);
        await tabTo(bank, '#pay');
        await bank.keyboard.press('Enter');
        await bank.waitForSelector('#status[data-status="AUTHORIZED"]');
        expect(await bank.textContent('#status')).toBe(W[lang].paidPix);
        await check(bank, audit, `bank-app-pix-paid-${tag}`);
        await page.waitForSelector('#done:not([hidden])', { timeout: 15000 });
        expect(await page.textContent('#done-text')).toContain(W[lang].paidPix);
        await check(page, audit, `checkout-pix-paid-${tag}`);

        // a second payer lets the code run out: the page says so and offers a new one
        const other = await ctx.newPage();
        await other.clock.install();
        await other.goto(`${t.url}/checkout/${l.slug}`);
        await other.fill('#payer-name', 'Bruno Lima');
        await other.fill('#payer-email', 'bruno@example.com');
        await other.click('#pay-pix');
        await other.waitForSelector('#pix-result:not([hidden])');
        const left = Number(await other.getAttribute('#pix-countdown', 'data-seconds'));
        await other.clock.fastForward((left + 2) * 1000);
        await other.waitForSelector('#pix-expired:not([hidden])');
        expect(await other.textContent('#pix-expired-text')).toContain(W[lang].expired);
        expect(await other.isVisible('#pix-code')).toBe(false);
        await check(other, audit, `checkout-pix-expired-${tag}`);
        await ctx.close();
      });

      it(`boleto, ${tag}: grouped line, copy, printable standard slip, paid in the bank app`, async () => {
        const ctx = await context(browser, audit, lang, width, [t.url, t.sandboxUrl]);
        const l = await createLink(t, a.auth, { name: 'Mensalidade', amount: 250, paymentMethods: ['BOLETO'] });
        const page = await open(ctx, `/checkout/${l.slug}`);
        await fillPayer(page);
        await tabTo(page, '#pay-boleto');
        await page.keyboard.press('Enter');
        expect(await page.getAttribute('#payer-taxid', 'aria-invalid')).toBe('true'); // a boleto needs the CPF
        await check(page, audit, `checkout-boleto-errors-${tag}`);
        await page.keyboard.type('52998224725');
        await tabTo(page, '#pay-boleto');
        await page.keyboard.press('Enter');
        await page.waitForSelector('#boleto-result:not([hidden])');
        const groups = await page.$$eval('#boleto-line .grp', (g) => g.map((x) => x.textContent));
        expect(groups).toHaveLength(5);
        expect(groups.join(' ')).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
        // no group breaks across lines, even at 375 px
        expect(await page.$$eval('#boleto-line .grp', (g) => g.every((x) => x.getClientRects().length === 1))).toBe(true);
        await tabTo(page, '#boleto-copy');
        await page.keyboard.press('Enter');
        await page.waitForFunction((w) => document.getElementById('boleto-copied')!.textContent === w, W[lang].copied);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(groups.join('').replace(/\D/g, ''));
        await check(page, audit, `checkout-boleto-pending-${tag}`);

        const print = await open(ctx, (await page.getAttribute('#boleto-print', 'href'))!);
        expect(await print.textContent('.bk-code')).toMatch(/^\d{3}-\d$/);
        expect(await print.textContent('#beneficiary')).toContain('CNPJ');
        expect(await print.textContent('#our-number')).toMatch(/^\d{2}\/\d{11}$/);
        expect(await print.textContent('#amount')).toBe(lang === 'en' ? 'R$250.00' : 'R$ 250,00');
        expect(await print.$$eval('svg.barcode rect', (r) => r.length)).toBeGreaterThan(100);
        await check(print, audit, `boleto-printable-${tag}`);

        const bank = await open(ctx, (await page.getAttribute('#boleto-bank', 'href'))!);
        await check(bank, audit, `bank-app-boleto-${tag}`);
        await tabTo(bank, '#pay-bank');
        await bank.keyboard.press('Enter');
        await bank.waitForSelector('#status[data-status="PAID"]');
        await page.waitForSelector('#done:not([hidden])', { timeout: 15000 });
        expect(await page.textContent('#done-text')).toContain(W[lang].paidBoleto);
        await check(page, audit, `checkout-boleto-paid-${tag}`);
        await ctx.close();
      });

      it(`automatic Pix at the sandbox bank, ${tag}: authorized with the keyboard, then cancelled by the payer`, async () => {
        const ctx = await context(browser, audit, lang, width, [t.url, t.sandboxUrl]);
        const r: any = await createRecurrence(t, await newTenant(t, 'ACME Academia'));
        const page = await open(ctx, r.authorizationUrl); // the sandbox bank's page
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        expect(await page.textContent('#periodicity')).toBe(lang === 'en' ? 'Monthly' : 'Mensal');
        expect(await page.textContent('#term')).toMatch(/^(a partir de|from) \d{2}\/\d{2}\/\d{4}/);
        await check(page, audit, `bank-pix-automatic-authorize-${tag}`);
        await tabTo(page, '#authorize');
        await page.keyboard.press('Enter');
        await page.waitForSelector('#status');
        expect(await page.textContent('#result')).toBe(lang === 'en' ? 'Automatic Pix authorized' : 'Pix Automático autorizado');
        await check(page, audit, `bank-pix-automatic-authorized-${tag}`);
        const payer = await open(ctx, `${t.sandboxUrl}/sandbox/bank/payer/recurrences/${r.recurrenceId}`);
        await tabTo(payer, '#cancel');
        await payer.keyboard.press('Enter');
        await payer.waitForSelector('#status[data-status="CANCELLED_PAYER"]');
        expect(await payer.textContent('#status')).toBe(lang === 'en' ? 'Cancelled by you' : 'Cancelado por você');
        await check(payer, audit, `bank-pix-automatic-cancelled-${tag}`);
        await ctx.close();
      });

      it(`open amount and unavailable pages, ${tag}: the minimum is refused on the field`, async () => {
        const ctx = await context(browser, audit, lang, width, [t.url, t.sandboxUrl]);
        const l = await createLink(t, a.auth, { name: 'Contribuição', minAmount: 10, maxAmount: 500 });
        const page = await open(ctx, `/checkout/${l.slug}`);
        await check(page, audit, `checkout-open-initial-${tag}`);
        await typeInto(page, '#amount', lang === 'en' ? '5.00' : '5,00');
        await page.waitForFunction(() => document.getElementById('amount')!.getAttribute('aria-invalid') === 'true');
        expect(await page.textContent('#amount-error')).toBe(W[lang].min);
        await check(page, audit, `checkout-open-below-min-${tag}`);
        await page.keyboard.press('Home');
        await page.keyboard.type('1'); // 15,00 / 15.00: within the range, the error goes
        await page.waitForFunction(() => !document.getElementById('amount')!.getAttribute('aria-invalid'));
        expect(await page.textContent('#amount-error')).toBe('');
        // the server refuses it too
        expect((await http(t.url, 'POST', `/checkout/${l.slug}/quote`, { amount: 5 })).status).toBe(400);
        const below = await http(t.url, 'POST', `/checkout/${l.slug}/payments`, {
          method: 'PIX',
          amount: 5,
          payer: { name: 'Ana Souza', email: 'ana@example.com' },
        });
        expect([below.status, below.body.error]).toEqual([400, 'invalid_amount']);

        expect((await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}/status`, { status: 'INACTIVE' }, a.auth)).status).toBe(200);
        const paused = await open(ctx, `/checkout/${l.slug}`);
        await check(paused, audit, `checkout-unavailable-${tag}`);
        const missing = await open(ctx, `/checkout/nosuchlink123`);
        await check(missing, audit, `checkout-not-found-${tag}`);
        await ctx.close();
      });
    }
  }

  it('?lang=en on the link wins over the browser; the receipt follows it', async () => {
    const ctx = await context(browser, audit, 'pt-BR', 375, [t.url]);
    const l = await createLink(t, a.auth, { name: 'Livro', amount: 20, paymentMethods: ['CARD', 'PIX'] });
    const page = await open(ctx, `/checkout/${l.slug}?lang=en`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.textContent('#pay-card')).toBe('Pay');
    // the method tabs answer the arrow keys
    await chooseTab(page, 'PIX');
    expect(await page.isVisible('#pay-pix')).toBe(true);
    expect(await page.isVisible('#card-form')).toBe(false);
    await ctx.close();
  });

  it('Pix status polling stops while the page is hidden and resumes when it shows again', async () => {
    const ctx = await context(browser, audit, 'pt-BR', 375, [t.url]);
    const l = await createLink(t, a.auth, { name: 'Rifa', amount: 5, paymentMethods: ['PIX'] });
    const page = await ctx.newPage();
    const polls: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && /\/payments\/[^/]+$/.test(new URL(r.url()).pathname)) polls.push(Date.now());
    });
    /** Waits (real time, 5 s at most) until `n` polls have been sent, and answers how many were. */
    const polled = async (n: number) => {
      for (let i = 0; i < 100 && polls.length < n; i++) await new Promise((r) => setTimeout(r, 50));
      return polls.length;
    };
    // the page's timers on Playwright's clock: its time moves only when the test moves it
    await page.clock.install();
    await page.goto(`${t.url}/checkout/${l.slug}`);
    await page.fill('#payer-name', 'Ana Souza');
    await page.fill('#payer-email', 'ana@example.com');
    await page.click('#pay-pix');
    await page.waitForSelector('#pix-result:not([hidden])');
    await page.clock.pauseAt(Date.now() + 2000); // past one 1.5 s interval, then stopped
    expect(await polled(1)).toBeGreaterThanOrEqual(1); // polls while shown
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    const before = polls.length; // a request already sent may still land
    await page.clock.runFor(30_000); // twenty intervals of the page's time while hidden
    await new Promise((r) => setTimeout(r, 500));
    expect(polls.length).toBe(before);
    await setHidden(false); // shown again: it asks at once, without waiting for an interval
    expect(await polled(before + 1)).toBeGreaterThan(before);
    await ctx.close();
  });

  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      it(`the SDK overlay, ${lang}-${width}: a modal dialog in the payer's language; Escape closes it and gives the focus back; it closes itself after success`, async () => {
        const l = await createLink(t, a.auth, { name: 'Ingresso', amount: 30 });
        const host =
          await hostPage(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><button id="buy">Buy</button></main>
<script src="${t.url}/sdk/checkout.js"></script>
<script>window.results = []; window.closes = 0;
document.getElementById('buy').onclick = function () { ServiceCheckout.open({ slug: '${l.slug}', closeOnSuccess: 300, onSuccess: function (r) { window.results.push(r); }, onClose: function () { window.closes++; } }); };
</script></body></html>`);
        const ctx = await context(browser, audit, lang, width, [t.url, new URL(host.url).origin]);
        try {
          const page = await ctx.newPage();
          await page.goto(host.url);
          await tabTo(page, '#buy');
          await page.keyboard.press('Enter');
          const overlay = await page.waitForSelector('[data-service-checkout]');
          expect(await overlay.getAttribute('role')).toBe('dialog');
          expect(await overlay.getAttribute('aria-modal')).toBe('true');
          expect(await page.$eval('main', (m) => m.hasAttribute('inert'))).toBe(true); // the focus cannot leave the dialog
          const frame = (await (await page.waitForSelector('[data-service-checkout] iframe')).contentFrame())!;
          await frame.waitForSelector('#card-form');
          expect(await frame.$eval('html', (h) => h.lang)).toBe(lang);
          await check(page, audit, `sdk-overlay-open-${lang}-${width}`);
          await page.keyboard.press('Escape');
          await page.waitForFunction(() => (window as any).closes === 1);
          expect(await page.$('[data-service-checkout]')).toBeNull();
          expect(await page.evaluate(() => document.activeElement!.id)).toBe('buy');
          expect(await page.$eval('main', (m) => m.hasAttribute('inert'))).toBe(false);

          await page.keyboard.press('Enter');
          const f2 = (await (await page.waitForSelector('[data-service-checkout] iframe')).contentFrame())!;
          await f2.waitForSelector('#pay-card:enabled');
          await f2.fill('#payer-name', 'Bruno Lima');
          await f2.fill('#payer-email', 'bruno@example.com');
          await f2.fill('#card-number', '4242424242424242');
          await f2.fill('#card-expiry', '1134');
          await f2.fill('#card-cvv', '321');
          await f2.fill('#card-name', 'BRUNO LIMA');
          await f2.$eval('#card-form', (f: HTMLFormElement) => f.requestSubmit());
          await page.waitForFunction(() => (window as any).closes === 2, null, { timeout: 10000 });
          expect(await page.evaluate(() => (window as any).results)).toEqual([{ status: 'ACCEPTED', amount: 30, method: 'CARD' }]);
          expect(await page.$('[data-service-checkout]')).toBeNull();
        } finally {
          await ctx.close();
          await host.close();
        }
      });
    }
  }

  it('axe is live: a page made with an unlabeled field and low contrast fails it', async () => {
    const ctx = await context(browser, newAudit(), 'en', 375, [t.url]);
    const page = await ctx.newPage();
    await page.setContent('<!doctype html><html><head><title>x</title></head><body><input><p style="color:#ccc">faint</p></body></html>');
    const probe = newAudit();
    await check(page, probe, 'axe-canary');
    expect(probe.violations.join('\n')).toMatch(/label/);
    expect(probe.violations.join('\n')).toMatch(/color-contrast/);
    await ctx.close();
  });

  it('no page weighs over 100 KB, none loads another origin, no CSP report, axe finds nothing', () => {
    const heavy = Object.entries(audit.weights).filter(([, w]) => w > 100 * 1024);
    expect(heavy).toEqual([]);
    expect(Object.keys(audit.weights).length).toBeGreaterThan(40);
    expect(audit.foreign).toEqual([]);
    expect(audit.csp).toEqual([]);
    expect(audit.violations).toEqual([]);
  });
});

async function hostPage(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    url: `http://localhost:${port}/shop`,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
