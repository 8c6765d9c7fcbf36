import { existsSync } from 'node:fs';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { startTestApp, TestApp } from '../support/test-app';
import { createLink } from '../links/support';
import { startPixApiLinksApp, PixApiLinksApp } from '../links/pix-api-app';
import { hasError, parsePix } from 'pix-utils';
import { Audit, check, CHROMIUM, context, launch, newAudit, writeReport } from './audit';

const suite = existsSync(CHROMIUM) ? describe : describe.skip;

/** Screenshot and axe (WCAG 2.1 A/AA) of a page in its state; fails on any violation. */
async function audited(page: Page, audit: Audit, name: string): Promise<void> {
  const before = audit.violations.length;
  await check(page, audit, name);
  expect(audit.violations.slice(before)).toEqual([]);
}

/** The closed select's text box: its width less its padding and the arrow Chromium draws (about 20 px). */
const ARROW_PX = 24;

/** For each option of `select`: its text, its accessible name, and whether the text fits the closed select at this width. */
export async function optionFits(page: Page, select: string): Promise<{ text: string; name: string; fits: boolean }[]> {
  return page.$eval(
    select,
    (el, arrow) => {
      const sel = el as HTMLSelectElement;
      const cs = getComputedStyle(sel);
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - arrow;
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      return Array.from(sel.options).map((o) => ({
        text: o.textContent || '',
        name: o.getAttribute('aria-label') || '',
        fits: ctx.measureText(o.textContent || '').width <= room,
      }));
    },
    ARROW_PX,
  );
}

/** Every word of the elements matching `selector` sits on one line (none is broken across two). */
export async function wordsWhole(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (els) => {
    const broken: string[] = [];
    for (const el of els) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent || '';
        const re = /\S+/g;
        for (let m = re.exec(text); m; m = re.exec(text)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          const lines = new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  });
}

/**
 * What a Brazilian payer checks before paying, on a 375 px phone in pt-BR: installments that
 * read whole and say whether they bear interest; who is paid, on every page that takes money; the
 * card and the authorization code on the receipt; the merchant and the card on the 3DS code page.
 */
suite('what a payer checks before paying (375 px, pt-BR)', () => {
  jest.setTimeout(180_000);
  let t: TestApp;
  let a: OnboardedTenant;
  let browser: Browser;
  let ctx: BrowserContext;
  const audit: Audit = newAudit();

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10', SANDBOX_PIX_SETTLE_AFTER_SECONDS: '3600' } }),
      launch(),
    ]);
    a = await onboardTenant(t, { rateLimitPerMinute: 100000 });
    ctx = await context(browser, audit, 'pt-BR', 375, [t.url, t.sandboxUrl]);
  });
  afterAll(async () => {
    writeReport(audit, 'payer-checks.txt');
    await ctx?.close();
    await browser?.close();
    await t?.close();
  });

  const open = async (path: string): Promise<Page> => {
    const page = await ctx.newPage();
    await page.goto(/^https?:/.test(path) ? path : t.url + path);
    return page;
  };

  it('installments: each option reads whole at 375 px and says "sem juros" when the seller bears the fee', async () => {
    const l = await createLink(t, a.auth, { name: 'Tênis', amount: 1234.56, maxInstallments: 12 });
    const page = await open(`/checkout/${l.slug}`);
    const options = await optionFits(page, '#installments');
    expect(options).toHaveLength(12);
    expect(options.filter((o) => !o.fits)).toEqual([]);
    expect(options[0].text).toBe('1x de R$ 1.234,56 sem juros');
    expect(options[2].text).toBe('3x de R$ 411,52 sem juros');
    expect(options[6].text).toBe('7x de R$ 176,36 sem juros'); // 1.234,56 / 7: the first one carries 4 cents more
    expect(options[6].name).toBe('7x de R$ 176,36 sem juros, 1ª parcela de R$ 176,40, total R$ 1.234,56.');
    expect(options.every((o) => o.text.endsWith('sem juros') && o.name.startsWith(o.text) && o.name.endsWith('total R$ 1.234,56.'))).toBe(
      true,
    );
    // the full detail of the chosen option is under the select too, and describes it
    expect(await page.getAttribute('#installments', 'aria-describedby')).toBe('installments-detail');
    await page.selectOption('#installments', '7');
    expect(await page.textContent('#installments-detail')).toBe(options[6].name);
    await audited(page, audit, 'payer-installments-free-375');
  });

  it('installments with the fee passed on: the total of each option, "com juros" in full; an open amount the same', async () => {
    const l = await createLink(t, a.auth, { name: 'Curso', amount: 155.43, maxInstallments: 12, passFee: true });
    const page = await open(`/checkout/${l.slug}`);
    const options = await optionFits(page, '#installments');
    expect(options.filter((o) => !o.fits)).toEqual([]);
    expect(options[0].text).toMatch(/^1x de R\$ \d+,\d{2}$/);
    for (const o of options.slice(1)) {
      const m = /^(\d+)x de R\$ (\d+,\d{2}) \(total R\$ (\d{3},\d{2})\)$/.exec(o.text);
      expect(m).not.toBeNull();
      expect(o.name.startsWith(`${o.text}, `) && o.name.endsWith(', com juros.')).toBe(true);
    }
    await audited(page, audit, 'payer-installments-fee-375');

    const open2 = await createLink(t, a.auth, { name: 'Doação', minAmount: 10, maxAmount: 5000, maxInstallments: 6 });
    const p2 = await open(`/checkout/${open2.slug}`);
    await p2.fill('#amount', '1.000,00');
    await p2.waitForFunction(() => (document.querySelector('#installments option') as HTMLOptionElement | null)?.value === '1');
    await p2.waitForFunction(() => document.querySelectorAll('#installments option').length === 6);
    const quoted = await optionFits(p2, '#installments');
    expect(quoted.filter((o) => !o.fits)).toEqual([]);
    expect(quoted.map((o) => o.text)).toContain('4x de R$ 250,00 sem juros');
    expect(quoted[2]).toMatchObject({
      text: '3x de R$ 333,33 sem juros',
      name: '3x de R$ 333,33 sem juros, 1ª parcela de R$ 333,34, total R$ 1.000,00.',
    });
    expect(await p2.textContent('#installments-detail')).toBe('1x de R$ 1.000,00 sem juros, total R$ 1.000,00.');
  });

  /** The payee block of a sandbox bank page: name, CNPJ, institution, and whether it comes before every pay button. */
  const payee = async (bank: Page) => ({
    name: await bank.textContent('#payee-name'),
    taxId: await bank.textContent('#payee-taxid'),
    institution: await bank.textContent('#payee-institution'),
    before: await bank.evaluate(() =>
      Array.from(document.querySelectorAll('button[data-pay]')).every(
        (b) => !!(document.querySelector('.payee')!.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING),
      ),
    ),
  });

  it('Pix and boleto in the bank app: who is paid (name, CNPJ, institution) before "Pagar", the same seller as the checkout', async () => {
    const l = await createLink(t, a.auth, { name: 'Mensalidade', amount: 250, paymentMethods: ['PIX', 'BOLETO'] });
    const page = await open(`/checkout/${l.slug}`);
    const seller = await page.textContent('#merchant-name');
    expect(seller).toBe('Loja Principal (sandbox)');
    expect(await page.textContent('#merchant-taxid')).toBe('CNPJ 11.222.333/0001-81');
    await page.fill('#payer-name', 'Ana Souza');
    await page.fill('#payer-email', 'ana@example.com');
    await page.fill('#payer-taxid', '52998224725');
    await page.click('#pay-pix');
    await page.waitForSelector('#pix-result:not([hidden])');
    const pix = await open((await page.getAttribute('#pix-bank', 'href'))!);
    expect(await payee(pix)).toEqual({ name: seller, taxId: '11.222.333/0001-81', institution: 'Banco Sandbox S.A.', before: true });
    await audited(pix, audit, 'payer-bank-pix-payee-375');

    await page.click('#tab-BOLETO');
    await page.click('#pay-boleto');
    await page.waitForSelector('#boleto-result:not([hidden])');
    const boleto = await open((await page.getAttribute('#boleto-bank', 'href'))!);
    expect(await payee(boleto)).toEqual({ name: seller, taxId: '11.222.333/0001-81', institution: 'Bradesco', before: true });
    expect(await boleto.textContent('#payee-title')).toBe('Beneficiário');
    await audited(boleto, audit, 'payer-bank-boleto-payee-375');
  });

  it('receipt of a card payment: brand and last four, the authorization code, "Identificador" whole at 375 px', async () => {
    const l = await createLink(t, a.auth, { name: 'Camiseta', amount: 89.9, maxInstallments: 3 });
    const page = await open(`/checkout/${l.slug}`);
    await page.fill('#payer-name', 'Ana Souza');
    await page.fill('#payer-email', 'ana@example.com');
    await page.fill('#card-number', '4111 1111 1111 1111');
    await page.fill('#card-expiry', '12/35');
    await page.fill('#card-cvv', '123');
    await page.fill('#card-name', 'ANA SOUZA');
    await page.selectOption('#installments', '3');
    await page.click('#pay-card');
    await page.waitForSelector('#done:not([hidden])');
    const receipt = await open((await page.getAttribute('#done-receipt', 'href'))!);
    expect(await receipt.textContent('#r-card')).toBe('Visa •••• 1111');
    expect(await receipt.textContent('#r-auth-code')).toMatch(/^[A-Z0-9]{6}$/);
    const html = await receipt.content();
    expect(html).not.toContain('4111111111111111');
    expect(html).not.toContain('4111 1111');
    expect(await wordsWhole(receipt, '.slip th')).toEqual([]); // "Identificador do pagamento", "Código de autorização"
    expect(await receipt.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375); // nothing wider than the phone
    await audited(receipt, audit, 'payer-receipt-card-375');
  });
});

/** On API Pix the PSP writes the BR Code: it names the seller the checkout shows, and the bank app shows the same. */
suite("the BR Code names the checkout's seller (BANK_PROVIDER=pix-api, 375 px, pt-BR)", () => {
  jest.setTimeout(180_000);
  let h: PixApiLinksApp;
  let browser: Browser;
  const audit: Audit = newAudit();

  beforeAll(async () => {
    [h, browser] = await Promise.all([startPixApiLinksApp(), launch()]);
  });
  afterAll(async () => {
    writeReport(audit, 'payer-checks-pix-api.txt');
    await browser?.close();
    await h?.close();
  });

  it("decoded, the BR Code's merchant name is the name on the checkout and in the bank app", async () => {
    const ctx = await context(browser, audit, 'pt-BR', 375, [h.t.url, h.t.sandboxUrl]);
    const l = await createLink(h.t, h.a.auth, { name: 'Doação', amount: 45.5, paymentMethods: ['PIX'] });
    const page = await ctx.newPage();
    await page.goto(`${h.t.url}/checkout/${l.slug}`);
    const seller = await page.textContent('#merchant-name');
    await page.fill('#payer-name', 'Ana Souza');
    await page.fill('#payer-email', 'ana@example.com');
    await page.click('#pay-pix');
    await page.waitForSelector('#pix-result:not([hidden])');
    const code = parsePix(await page.inputValue('#pix-code')) as any; // pix-utils, not our parser
    expect(hasError(code)).toBe(false);
    expect(code.type).toBe('DYNAMIC');
    expect(code.merchantName).toBe(seller);
    const bank = await ctx.newPage();
    await bank.goto((await page.getAttribute('#pix-bank', 'href'))!);
    expect(await bank.textContent('#payee-name')).toBe(seller);
    expect(await bank.textContent('#payee-taxid')).toBe('11.222.333/0001-81');
    await audited(bank, audit, 'payer-bank-pix-api-payee-375');
    await ctx.close();
  });
});
