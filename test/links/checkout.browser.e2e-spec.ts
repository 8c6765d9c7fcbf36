import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { parsePix, hasError } from 'pix-utils';
import { parseBrCode } from '../../kernel/common/formats/brcode';
import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { CARD, createLink, detail, pay, PAYER } from './support';

const boletoUtils: {
  validarBoleto(code: string): { sucesso: boolean; valor?: number; vencimentoComNovoFator2025?: Date; codigoBarras?: string };
} = require('@mrmgomes/boleto-utils');

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPED: the checkout browser tests need Chromium at ${CHROMIUM} (apt-get install chromium)`);

/**
 * The hosted checkout and the SDK in a real headless Chromium. The card and boleto stories run on
 * both card edges (the `generic` acquirer protocol and Adyen Checkout v72, each against its sandbox face);
 * Pix stays on the bank edge, and the SDK and exhausted-link stories on the default edge.
 */
const suite = haveChromium ? describe : describe.skip;
suite.each(['generic', 'adyen'])('hosted checkout in Chromium (ACQUIRER_PROVIDER=%s)', (provider) => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let a: OnboardedTenant;
  let ctx: BrowserContext;
  let profile: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      env: { ACQUIRER_PROVIDER: provider, ACQUIRER_RETRY_DELAYS_MS: '10', SANDBOX_PIX_SETTLE_AFTER_SECONDS: '3600' },
    });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
    profile = mkdtempSync(join(tmpdir(), 'pp-chromium-'));
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      locale: 'pt-BR',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    ctx.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(profile, { recursive: true, force: true });
    await t?.close();
  });

  async function open(slug: string): Promise<Page> {
    const page = await ctx.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
    await page.goto(`${t.url}/checkout/${slug}`);
    return page;
  }

  /** How each of the link's payments reached the card edge: its Adyen attempt (kind, result), or none on `service`. */
  async function adyenAttempts(linkId: string) {
    return t.sql(
      `SELECT a.kind, a.result_code, a.psp_reference = p.acquirer_id AS same_id
         FROM links_payments p LEFT JOIN adyen_payment_attempts a ON a.reference = p.id::text
        WHERE p.link_id = $1 ORDER BY p.created_at`,
      [linkId],
    );
  }
  const attempt = (kind: string, result_code: string) =>
    provider === 'adyen' ? { kind, result_code, same_id: true } : { kind: null, result_code: null, same_id: null };

  async function fillPayer(page: Page, taxId = '') {
    await page.fill('#payer-name', 'Ana Souza');
    await page.fill('#payer-email', 'ana@example.com');
    if (taxId) await page.fill('#payer-taxid', taxId);
  }

  it('pays by card: checks the card in the page, shows refusals, then confirms', async () => {
    const l = await createLink(t, a.auth, { name: 'Camiseta', amount: 89.9, maxInstallments: 3 });
    const page = await open(l.slug);
    await expect(page.textContent('h1')).resolves.toBe('Camiseta');
    expect(await page.$$eval('#installments option', (o) => o.map((x) => x.textContent))).toEqual([
      '1x de R$ 89,90 sem juros',
      '2x de R$ 44,95 sem juros',
      '3x de R$ 29,96 sem juros',
    ]);
    await fillPayer(page);
    // Luhn, expiry and CVV are checked in the page, before any request
    await page.fill('#card-number', '4111 1111 1111 1112');
    await page.fill('#card-expiry', '12/35');
    await page.fill('#card-cvv', '123');
    await page.fill('#card-name', 'ANA SOUZA');
    await page.click('#pay-card');
    await expect(page.textContent('#card-number-error')).resolves.toBe('O número do cartão não é válido.');
    expect(await page.getAttribute('#card-number', 'aria-invalid')).toBe('true');
    await page.fill('#card-number', '4111 1111 1111 1111');
    expect(await page.textContent('#card-brand')).toBe('visa');
    // corrected: the error and the mark go at once
    expect(await page.textContent('#card-number-error')).toBe('');
    expect(await page.getAttribute('#card-number', 'aria-invalid')).toBeNull();
    await page.fill('#card-expiry', '01/20');
    await page.click('#pay-card');
    await expect(page.textContent('#card-expiry-error')).resolves.toBe('O cartão está vencido.');
    await page.fill('#card-expiry', '12/35');
    await page.fill('#card-cvv', '12');
    await page.click('#pay-card');
    await expect(page.textContent('#card-cvv-error')).resolves.toBe('O código de segurança tem 3 dígitos.');
    expect((await detail(t, a.auth, l.linkId)).payments).toBeNull();

    // refused by the issuer: recorded, the payer may try another card
    await page.fill('#card-cvv', '123');
    await page.fill('#card-number', '4000 0000 0000 0002');
    await page.click('#pay-card');
    await page.waitForFunction(() => (document.getElementById('card-error')!.textContent || '').startsWith('Pagamento recusado'));
    await page.fill('#card-number', '5555 5555 5555 4444');
    await page.selectOption('#installments', '3');
    await page.click('#pay-card');
    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-text')).toBe('R$ 89,90 · Pago com cartão');
    const d = await detail(t, a.auth, l.linkId);
    expect(d.payments.map((p: any) => [p.status, p.installments, p.method.brand])).toEqual([
      ['AUTH_REJECTED', 1, 'visa'],
      ['ACCEPTED', 3, 'mastercard'],
    ]);
    expect(d).toMatchObject({ viewCount: 1, attemptCount: 2, paidCount: 1 });
    // the refusal and the approval came from the configured card edge
    expect(await adyenAttempts(l.linkId)).toEqual([attempt('card', 'Refused'), attempt('card', 'Authorised')]);
    await page.close();
  });

  it('pays by boleto: a valid 47-digit line (boleto-utils), a barcode, a printable page; updates when paid', async () => {
    const l = await createLink(t, a.auth, { name: 'Mensalidade', amount: 250, paymentMethods: ['BOLETO'] });
    const page = await open(l.slug);
    await fillPayer(page);
    await page.click('#pay-boleto');
    await expect(page.textContent('#payer-taxid-error')).resolves.toBe('O boleto precisa do seu CPF ou CNPJ.');
    await page.fill('#payer-taxid', '529.982.247-25');
    await page.click('#pay-boleto');
    await page.waitForSelector('#boleto-result:not([hidden])');
    const line = (await page.textContent('#boleto-line'))!;
    expect(line).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    const due = (await page.getAttribute('#boleto-due', 'data-date'))!;
    expect(await page.textContent('#boleto-due')).toBe(`Vencimento: ${due.slice(8, 10)}/${due.slice(5, 7)}/${due.slice(0, 4)}`);
    const lib = boletoUtils.validarBoleto(line.replace(/\D/g, ''));
    expect(lib.sucesso).toBe(true);
    expect(lib.valor).toBe(250);
    expect(lib.vencimentoComNovoFator2025!.toISOString().slice(0, 10)).toBe(due);
    expect(await page.$eval('#boleto-barcode', (img: HTMLImageElement) => img.complete && img.naturalWidth > 100)).toBe(true);

    const print = await ctx.newPage();
    await print.goto(t.url + (await page.getAttribute('#boleto-print', 'href')));
    expect((await print.textContent('#line'))!.trim()).toBe(line);
    expect(await print.$$eval('svg.barcode rect', (r) => r.length)).toBeGreaterThan(100);
    await print.close();

    const item = (await detail(t, a.auth, l.linkId)).payments[0];
    await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${item.method.boletoId}/pay`, { via: 'BANK' });
    await page.waitForSelector('#done:not([hidden])', { timeout: 15000 });
    expect(await page.textContent('#done-text')).toBe('R$ 250,00 · Pago com boleto');
    // issued by the configured card edge (on adyen, the boleto's id is Adyen's pspReference)
    expect(await adyenAttempts(l.linkId)).toEqual([attempt('boleto', 'PresentToShopper')]);
    await page.close();
  });

  // Pix is the bank edge's; the SDK and an exhausted link do not depend on the card edge
  if (provider === 'generic') {
    it('pays by Pix: the BR Code it shows parses with pix-utils; the page updates when the bank app pays', async () => {
      const l = await createLink(t, a.auth, { name: 'Doação', amount: 50, passFee: true, paymentMethods: ['PIX', 'CARD'] });
      const page = await open(l.slug);
      await fillPayer(page);
      await page.click('#tab-PIX');
      expect(await page.textContent('#figure-PIX')).toBe('R$ 50,50'); // 50.50 - ceil(0.49995) = 50.00 net
      await page.click('#pay-pix');
      await page.waitForSelector('#pix-result:not([hidden])');
      const shown = await page.inputValue('#pix-code');
      const lib = parsePix(shown) as any;
      expect(hasError(lib)).toBe(false);
      expect(lib).toMatchObject({
        type: 'STATIC',
        transactionAmount: 50.5,
        merchantName: 'Loja Principal (sandbox)',
        merchantCity: 'Sao Paulo',
      }); // the seller, not the platform
      const ours = parseBrCode(shown);
      expect(ours).toMatchObject({ amountCents: 5050, singleUse: true, txid: lib.txid });
      expect(await page.$eval('#pix-qr', (img: HTMLImageElement) => img.complete && img.naturalWidth > 100)).toBe(true);

      const bank = await ctx.newPage();
      await bank.goto((await page.getAttribute('#pix-bank', 'href'))!); // the sandbox app's bank page
      expect(await bank.textContent('#amount')).toBe('R$ 50,50');
      await bank.click('#pay');
      await bank.waitForSelector('#status[data-status="AUTHORIZED"]');
      await page.waitForSelector('#done:not([hidden])', { timeout: 15000 });
      expect(await page.textContent('#done-text')).toBe('R$ 50,50 · Pago com Pix');
      expect((await detail(t, a.auth, l.linkId)).payments.map((p: any) => p.status)).toEqual(['AUTHORIZED']);
      await bank.close();
      await page.close();
    });

    it('the SDK on another origin opens the checkout in an overlay and calls onSuccess once; foreign messages are ignored', async () => {
      const l = await createLink(t, a.auth, { name: 'Ingresso', amount: 30 });
      const host = await hostPage(`<!doctype html><html><body><button id="buy">Buy</button>
<script src="${t.url}/sdk/checkout.js"></script>
<script>
window.results = []; window.closes = 0;
document.getElementById('buy').onclick = function () {
  ServiceCheckout.open({ slug: '${l.slug}', closeOnSuccess: false, onSuccess: function (r) { window.results.push(r); }, onClose: function () { window.closes++; } });
};
</script></body></html>`);
      try {
        const page = await ctx.newPage();
        await page.goto(host.url);
        await page.click('#buy');
        // a message from the wrong origin (the host page itself) is ignored
        await page.evaluate(() =>
          window.postMessage({ type: 'service-checkout:success', status: 'ACCEPTED', amount: 1, method: 'CARD' }, '*'),
        );
        const frame = await (await page.waitForSelector('[data-service-checkout] iframe')).contentFrame();
        // the pay button is served disabled and enabled by the checkout's script once it runs
        await frame!.waitForSelector('#pay-card:enabled');
        await frame!.fill('#payer-name', 'Bruno Lima');
        await frame!.fill('#payer-email', 'bruno@example.com');
        await frame!.fill('#card-number', '4242424242424242');
        await frame!.fill('#card-expiry', '11/34');
        await frame!.fill('#card-cvv', '321');
        await frame!.fill('#card-name', 'BRUNO LIMA');
        await clickInFrame(page, frame!, '#pay-card');
        await page.waitForFunction(() => (window as any).results.length > 0);
        await clickInFrame(page, frame!, '#close');
        await page.waitForFunction(() => (window as any).closes === 1);
        expect(await page.evaluate(() => (window as any).results)).toEqual([{ status: 'ACCEPTED', amount: 30, method: 'CARD' }]);
        expect(await page.$('[data-service-checkout]')).toBeNull();
        await page.close();
      } finally {
        await host.close();
      }
    });

    it('before its script runs, the page sends nothing: the pay buttons are disabled and Enter in a card field submits no form', async () => {
      const l = await createLink(t, a.auth, { name: 'Sem script', amount: 12 });
      const requests: string[] = [];
      const page = await ctx.newPage();
      try {
        // the checkout's script never arrives (a slow or failed download looks the same to the payer)
        await page.route('**/assets/checkout/checkout.js', (r) => r.abort());
        page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
        await page.goto(`${t.url}/checkout/${l.slug}`);
        for (const id of ['pay-card', 'pay-pix', 'pay-boleto'])
          expect(await page.$eval(`#${id}`, (b: HTMLButtonElement) => b.disabled)).toBe(true);
        const before = requests.length;
        await page.fill('#card-number', '4242424242424242');
        await page.fill('#card-cvv', '321');
        await page.press('#card-cvv', 'Enter');
        await page.waitForTimeout(300);
        expect(requests.slice(before)).toEqual([]);
        expect(page.url()).toBe(`${t.url}/checkout/${l.slug}`);
        // and were the form ever submitted natively, it would be a POST carrying no card field
        expect(await page.$$eval('#card-form input[name]', (els) => els.map((e) => (e as HTMLInputElement).name))).toEqual(['ccname']);
        expect(await page.getAttribute('#card-form', 'method')).toBe('post');
      } finally {
        await page.close();
      }
    });

    it('an exhausted link’s page refuses, with no way to pay', async () => {
      const l = await createLink(t, a.auth, { name: 'Última vaga', amount: 10, maxUses: 1 });
      expect((await pay(t, l.slug, { method: 'CARD', payer: PAYER(), card: CARD() })).body.status).toBe('ACCEPTED');
      const page = await open(l.slug);
      await expect(page.textContent('#unavailable-title')).resolves.toBe('Este link de pagamento não está mais disponível');
      expect(await page.textContent('body')).toContain('número máximo de pagamentos');
      expect(await page.$('#card-form')).toBeNull();
      expect(await page.$('#pay-pix')).toBeNull();
      await page.close();
    });
  }

  it('ran every page without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });
});

/**
 * A real mouse click on an element of the cross-origin checkout iframe. Playwright cannot
 * compute boxes inside an out-of-process frame of this Chromium, so the point is computed here
 * (the frame's box in the page + the element's box in the frame, after the payer scrolls to it).
 */
async function clickInFrame(page: Page, frame: import('playwright-core').Frame, selector: string): Promise<void> {
  const inner = await frame.$eval(selector, (el) => {
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  const outer = await page.$eval('[data-service-checkout] iframe', (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y };
  });
  await page.mouse.click(outer.x + inner.x, outer.y + inner.y);
}

/** A merchant's page on another origin (localhost vs 127.0.0.1, another port). */
async function hostPage(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}/shop`,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
