import { existsSync } from 'node:fs';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { startTestApp, TestApp } from '../support/test-app';
import { createLink } from '../links/support';
import { Audit, check, CHROMIUM, context, launch, newAudit, writeReport } from './audit';

const suite = existsSync(CHROMIUM) ? describe : describe.skip;

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
    expect(options[6].name).toBe('1ª parcela de R$ 176,40 e 6x de R$ 176,36; total R$ 1.234,56, sem juros.');
    expect(options.every((o) => o.text.endsWith('sem juros') && o.name.includes('total R$ 1.234,56'))).toBe(true);
    // the full detail of the chosen option is under the select too, and describes it
    expect(await page.getAttribute('#installments', 'aria-describedby')).toBe('installments-detail');
    await page.selectOption('#installments', '7');
    expect(await page.textContent('#installments-detail')).toBe(options[6].name);
    await check(page, audit, 'payer-installments-free-375');
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
      expect(o.name).toContain('com juros');
      expect(o.name).toContain(`total R$ ${m![3]}`);
    }
    await check(page, audit, 'payer-installments-fee-375');

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
      name: '1ª parcela de R$ 333,34 e 2x de R$ 333,33; total R$ 1.000,00, sem juros.',
    });
    expect(await p2.textContent('#installments-detail')).toBe('1x de R$ 1.000,00; total R$ 1.000,00, sem juros.');
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
    await check(receipt, audit, 'payer-receipt-card-375');
  });
});
