import { createHmac } from 'node:crypto';
import { parseServiceCardMessage } from '../../packages/react-native-card/src/protocol';
import { Receiver, waitFor } from '../webhooks/support';
import { Browser, browserAvailable, HostSite, launchBrowser, messages, startHostSite, typeCard, waitForMessage } from './browser';
import {
  advanceClock,
  api,
  CardsApp,
  createSession as newSession,
  dumpDatabase,
  findsCode,
  forms,
  openPage,
  startCardsApp,
} from './support';

const AMEX = { number: '3782 822463 10005', pan: '378282246310005', expiry: '12/31', cvv: '8264' };
const VISA = { number: '4242424242424242', expiry: '11/30', cvv: '731' };

const suite = browserAvailable() ? describe : describe.skip;

/** The hosted card page in headless Chromium, framed by a merchant page on another origin. */
suite('hosted card page in a browser', () => {
  let c: CardsApp;
  let browser: Browser;
  let host: HostSite;
  let receiver: Receiver;
  let secret: string;

  beforeAll(async () => {
    [c, browser, host, receiver] = await Promise.all([startCardsApp(), launchBrowser(), startHostSite(), new Receiver().start()]);
    const put = await api(c, 'PUT', '/v1/acquiring/card-settings', { frameAncestors: [host.origin] });
    expect(put.status).toBe(200);
    const hook = await api(c, 'PUT', '/v1/banking/webhooks/acquiring', { url: receiver.url });
    expect(hook.status).toBe(200);
    secret = hook.body.secret;
  });
  afterAll(async () => {
    await receiver?.stop();
    await browser?.close();
    await host?.close();
    await c?.close();
  });

  const urlKeys: string[] = [];
  async function createSession(app: CardsApp) {
    const s = await newSession(app);
    urlKeys.push(new URL(s.hostedCardUrl).searchParams.get('key')!);
    return s;
  }

  async function hostPage(url: string, origin = host.origin) {
    const page = await browser.context.newPage();
    await page.goto(`${origin}/host?src=${encodeURIComponent(url)}`);
    return page;
  }

  it('a framed page posts ready, then success with the slugs; the backend charges the stored card and the token', async () => {
    const s = await createSession(c);
    const page = await hostPage(s.hostedCardUrl);
    const ready = await waitForMessage(page, "data.type === 'ready'");
    expect(ready).toEqual({ origin: c.publicUrl, data: { v: 1, type: 'ready', requestId: expect.any(String) } });
    await typeCard(page, { ...AMEX, nickname: 'Company card' });
    const success = await waitForMessage(page, "data.type === 'success'");
    expect(success.origin).toBe(c.publicUrl);
    expect(success.data.result).toEqual({
      slugStoredCard: expect.stringMatching(/^sc_/),
      slugToken: expect.stringMatching(/^tk_/),
      tokenExpirationDate: expect.stringMatching(/Z$/),
      brand: 'AMEX',
      first4: '3782',
      last4: '0005',
      expirationMonth: '12',
      expirationYear: '2031',
      nickname: 'Company card',
      requestId: expect.any(String),
    });
    // the React Native component accepts exactly this message
    expect(parseServiceCardMessage(JSON.stringify(success.data))).toEqual({ ok: true, message: success.data });
    await page.frameLocator('#frame').locator('#done').waitFor({ state: 'visible', timeout: 5000 });
    expect(await page.frameLocator('#frame').locator('#card-number').inputValue()).toBe('');

    const { slugStoredCard, slugToken } = success.data.result;
    const byToken = await api(c, 'POST', '/v1/acquiring/payments', { amount: 99.9, tokenData: { slugToken } });
    expect(byToken.body).toMatchObject({ status: 'ACCEPTED', securityCodePresented: true, brand: 'AMEX', last4: '0005' });
    const stored = await api(c, 'POST', '/v1/acquiring/payments', { amount: 42, installments: 2, tokenData: { slugStoredCard } });
    expect(stored.body).toMatchObject({ status: 'ACCEPTED', securityCodePresented: false, slugStoredCard });

    // the result reaches the merchant's backend by the signed acquiring webhook
    const bodyOf = (paymentId: string) => receiver.received.find((r) => r.body.includes(paymentId));
    await waitFor('the acquiring webhooks', () => !!bodyOf(byToken.body.paymentId) && !!bodyOf(stored.body.paymentId));
    const delivery = bodyOf(stored.body.paymentId)!;
    expect(delivery.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`);
    expect(delivery.body).toContain('acquiring.financial_transaction');
    expect(JSON.stringify(JSON.parse(delivery.body))).toContain(`"status":"ACCEPTED"`);
    await page.close();
  });

  it('posts validation_error for a bad card, then succeeds once corrected', async () => {
    const s = await createSession(c);
    const page = await hostPage(s.hostedCardUrl);
    await waitForMessage(page, "data.type === 'ready'");
    await typeCard(page, { number: '4242424242424241', expiry: '01/20', cvv: '12' });
    const bad = await waitForMessage(page, "data.type === 'error'");
    expect(bad.data).toEqual({
      v: 1,
      type: 'error',
      error: { code: 'validation_error', message: expect.stringContaining('number'), requestId: expect.any(String), retryable: true },
    });
    expect(bad.data.error.message).toMatch(/number, expiry, cvv/);
    const f = page.frameLocator('#frame');
    expect(await f.locator('#card-number-error').textContent()).toBe('O número do cartão não é válido.');
    expect(await f.locator('#card-expiry-error').textContent()).toBe('O cartão está vencido.');
    await typeCard(page, VISA);
    const ok = await waitForMessage(page, "data.type === 'success'");
    expect(ok.data.result).toMatchObject({ brand: 'VISA', last4: '4242' });
    expect((await messages(page)).map((m) => m.data.type)).toEqual(['ready', 'error', 'success']);
    await page.close();
  });

  it('an expired session (test clock) and a reused URL post token_expired', async () => {
    const used = await createSession(c);
    expect((await openPage(used.hostedCardUrl)).status).toBe(200);
    const reused = await hostPage(used.hostedCardUrl);
    const e1 = await waitForMessage(reused, "data.type === 'error'");
    expect(e1.data.error).toMatchObject({ code: 'token_expired', retryable: true });
    await reused.frameLocator('#frame').locator('#expired').waitFor({ state: 'visible', timeout: 5000 });

    const late = await createSession(c);
    await advanceClock(c, 15 * 60_000 + 1000);
    const expired = await hostPage(late.hostedCardUrl);
    const e2 = await waitForMessage(expired, "data.type === 'error'");
    expect(e2).toMatchObject({ origin: c.publicUrl, data: { type: 'error', error: { code: 'token_expired' } } });
    expect((await messages(expired)).map((m) => m.data.type)).toEqual(['error']);
    await reused.close();
    await expired.close();
  });

  it('a foreign origin cannot frame the page (frame-ancestors) and gets no message', async () => {
    const s = await createSession(c);
    const page = await hostPage(s.hostedCardUrl, host.foreignOrigin);
    await page.waitForTimeout(1500);
    expect(await messages(page)).toEqual([]);
    expect(await page.frameLocator('#frame').locator('#card-number').count()).toBe(0);
    // the page was served (the URL is spent): the browser refused to show it in the foreign frame
    expect(await c.t.sql(`SELECT status FROM hosted_card_sessions WHERE id = $1`, [s.hostedCardSessionId])).toEqual([{ status: 'OPENED' }]);
    await page.close();
  });

  it('in a React Native web view (top level) posts JSON strings the component parses', async () => {
    const s = await createSession(c);
    const page = await browser.context.newPage();
    await page.addInitScript(() => {
      (window as any).rnMessages = [];
      (window as any).ReactNativeWebView = { postMessage: (m: string) => (window as any).rnMessages.push(m) };
    });
    await page.goto(s.hostedCardUrl);
    await page.locator('#card-number').fill(VISA.number);
    await page.locator('#card-expiry').fill(VISA.expiry);
    await page.locator('#card-cvv').fill(VISA.cvv);
    await page.locator('#card-submit').click();
    await page.waitForFunction(() => (window as any).rnMessages.length >= 2);
    const raw = (await page.evaluate(() => (window as any).rnMessages)) as string[];
    const parsed = raw.map((m) => parseServiceCardMessage(m));
    expect(parsed.map((p) => p.ok && p.message.type)).toEqual(['ready', 'success']);
    await page.close();
  });

  it('leaves no card number or security code in the logs or in any database column', async () => {
    const logs = c.t.logs();
    const db = await dumpDatabase(c.t);
    expect(db).toContain('sc_'); // the dump did read the tables
    for (const secret of [...forms(AMEX.pan), ...forms('4242424242424242'), ...forms('4242424242424241')]) {
      expect(logs).not.toContain(secret);
      expect(db).not.toContain(secret);
    }
    for (const code of [AMEX.cvv, VISA.cvv]) {
      expect(findsCode(logs, code)).toBe(false);
      expect(findsCode(db, code)).toBe(false);
    }
    expect(findsCode(`x ${VISA.cvv} y`, VISA.cvv)).toBe(true); // the scan does find a code
    // nor the session URL keys (bearer secrets of the hosted page)
    expect(urlKeys.length).toBeGreaterThan(4);
    for (const key of urlKeys) {
      expect(logs).not.toContain(key);
      expect(db).not.toContain(key);
    }
    expect(logs.length).toBeGreaterThan(1000);
  });
});
