import { existsSync } from 'node:fs';
import { Browser, Frame, Page } from 'playwright-core';
import { api, CardsApp, createSession, startCardsApp } from '../cards/support';
import { HostSite, startHostSite } from '../cards/browser';
import { authenticateCard } from '../three-ds/support';
import { Audit, check, CHROMIUM, context, LANGS, launch, newAudit, tabTo, typeInto, WIDTHS, writeReport } from './audit';

const suite = existsSync(CHROMIUM) ? describe : describe.skip;

const W = {
  'pt-BR': {
    title: 'Dados do cartão',
    number: 'O número do cartão não é válido.',
    saved: 'Cartão salvo.',
    expired: 'Este formulário expirou ou já foi usado.',
    tds: 'Confirme sua compra',
    amount: 'R$ 1.250,90',
    wrong: 'Código errado. 2 tentativa(s) restante(s).',
    complete: 'Autenticação concluída.',
  },
  en: {
    title: 'Card details',
    number: 'The card number is not valid.',
    saved: 'Card saved.',
    expired: 'This card form has expired or was already used.',
    tds: 'Verify your purchase',
    amount: 'R$1,250.90',
    wrong: 'Wrong code. 2 attempt(s) left.',
    complete: 'Authentication complete.',
  },
};

/**
 * The hosted card page and the 3DS challenge with its framed completion, in pt-BR and English,
 * at 375 px and 1280 px, keyboard only, axe on every state.
 */
suite('hosted card page and 3DS pages: languages, widths, keyboard, axe', () => {
  jest.setTimeout(240_000);
  let c: CardsApp;
  let browser: Browser;
  let host: HostSite;
  const audit: Audit = newAudit();

  beforeAll(async () => {
    [c, browser, host] = await Promise.all([startCardsApp(), launch(), startHostSite()]);
    await api(c, 'PUT', '/v1/acquiring/card-settings', { frameAncestors: [host.origin] });
  });
  afterAll(async () => {
    writeReport(audit, 'card-pages.txt');
    await browser?.close();
    await host?.close();
    await c?.close();
  });

  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const tag = `${lang}-${width}`;

      it(`hosted card page, ${tag}: errors on the field, cleared when corrected, saved with the keyboard; a second load is expired`, async () => {
        const ctx = await context(browser, audit, lang, width, [c.publicUrl, c.t.url, c.t.sandboxUrl]);
        const s = await createSession(c);
        const page: Page = await ctx.newPage();
        await page.goto(s.hostedCardUrl);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        expect(await page.textContent('h1')).toBe(W[lang].title);
        expect(await page.getAttribute('#card-number', 'autocomplete')).toBe('cc-number');
        expect(await page.getAttribute('#card-expiry', 'autocomplete')).toBe('cc-exp');
        expect(await page.getAttribute('#card-cvv', 'autocomplete')).toBe('cc-csc');
        await check(page, audit, `card-page-initial-${tag}`);
        await typeInto(page, '#card-number', '4111111111111112');
        await typeInto(page, '#card-expiry', '1230');
        expect(await page.inputValue('#card-expiry')).toBe('12/30');
        await typeInto(page, '#card-cvv', '123');
        await page.keyboard.press('Enter');
        expect(await page.textContent('#card-number-error')).toBe(W[lang].number);
        expect(await page.getAttribute('#card-number', 'aria-invalid')).toBe('true');
        await check(page, audit, `card-page-errors-${tag}`);
        await page.focus('#card-number');
        await page.keyboard.press('Backspace');
        await page.keyboard.type('1');
        expect(await page.inputValue('#card-number')).toBe('4111 1111 1111 1111');
        expect(await page.textContent('#card-number-error')).toBe('');
        expect(await page.getAttribute('#card-number', 'aria-invalid')).toBeNull();
        await tabTo(page, '#card-submit');
        await page.keyboard.press('Enter');
        await page.waitForSelector('#done:not([hidden])');
        expect(await page.textContent('#done strong')).toBe(W[lang].saved);
        await check(page, audit, `card-page-saved-${tag}`);
        const again = await ctx.newPage();
        await again.goto(s.hostedCardUrl);
        await again.waitForSelector('#expired:not([hidden])');
        expect(await again.textContent('#expired strong')).toBe(W[lang].expired);
        await check(again, audit, `card-page-expired-${tag}`);
        await ctx.close();
      });

      it(`3DS challenge, ${tag}: the amount as the checkout writes it, a wrong code marked, then the framed completion`, async () => {
        const ctx = await context(browser, audit, lang, width, [c.publicUrl, c.t.url, c.t.sandboxUrl, host.origin]);
        const { auth } = await authenticateCard(c, { cardNumber: '4000000000002503' }, { returnUrl: `${host.origin}/3ds-done` }, 1250.9);
        expect(auth.body).toMatchObject({ status: 'CHALLENGE', challengeUrl: expect.any(String) });
        const page = await ctx.newPage();
        await page.goto(`${host.origin}/host?src=${encodeURIComponent(auth.body.challengeUrl)}`);
        const frame = async (): Promise<Frame> => {
          const el = await page.waitForSelector('#frame');
          const f = (await el.contentFrame())!;
          await f.waitForLoadState('load');
          return f;
        };
        let acs = await frame();
        await acs.waitForSelector('#otp');
        expect(await acs.getAttribute('html', 'lang')).toBe(lang);
        expect(await acs.textContent('h1')).toBe(W[lang].tds);
        expect(await acs.textContent('#amount')).toBe(W[lang].amount);
        // what the code is for, before the payer types it: the merchant and the card (brand and last four only)
        expect(await acs.textContent('#merchant')).toBe('Loja Principal (sandbox) · CNPJ 11.222.333/0001-81');
        expect(await acs.textContent('#card')).toBe('Visa •••• 2503');
        expect(await acs.content()).not.toContain('4000000000002503');
        expect(await acs.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await check(page, audit, `three-ds-challenge-${tag}`, acs);
        // keyboard only, from the merchant's page into the bank's frame
        await tabTo(page, '#otp', 40, acs);
        await page.keyboard.type('9999');
        await page.keyboard.press('Enter');
        await acs.waitForSelector('#otp-error');
        acs = await frame();
        expect(await acs.textContent('#otp-error')).toBe(W[lang].wrong);
        expect(await acs.getAttribute('#otp', 'aria-invalid')).toBe('true');
        await check(page, audit, `three-ds-challenge-wrong-${tag}`, acs);
        await tabTo(page, '#otp', 40, acs);
        await page.keyboard.type('1234');
        await page.keyboard.press('Enter');
        await page.waitForFunction(
          () => (window as any).messages.some((m: any) => m.data && m.data.type === '3DS_CHALLENGE_COMPLETE'),
          null,
          { timeout: 10000 },
        );
        const done = await frame();
        await done.waitForSelector('main p[role=status]');
        expect(await done.textContent('main p[role=status]')).toBe(W[lang].complete);
        await check(page, audit, `three-ds-complete-${tag}`, done);
        await ctx.close();
      });
    }
  }

  it('no page weighs over 100 KB, none loads another origin, no CSP report, axe finds nothing', () => {
    expect(Object.entries(audit.weights).filter(([, w]) => w > 100 * 1024)).toEqual([]);
    expect(Object.keys(audit.weights).length).toBeGreaterThan(20);
    expect(audit.foreign).toEqual([]);
    expect(audit.csp).toEqual([]);
    expect(audit.violations).toEqual([]);
  });
});
