import { Page } from 'playwright-core';
import { Browser, browserAvailable, HostSite, launchBrowser, messages, startHostSite, typeCard, waitForMessage } from '../cards/browser';
import { api, CardsApp, createSession, dumpDatabase, findsCode, forms, startCardsApp } from '../cards/support';
import { authenticate, authenticateBody, initialize, setup } from './support';

const suite = browserAvailable() ? describe : describe.skip;

/**
 * 3DS end to end in headless Chromium: the card is saved on the hosted card page, the device
 * data collection and the ACS challenge run in frames of the merchant page, then the backend
 * pays with threeDsData. The same stories on both card edges: the `service` protocol (the 3DS
 * server of its own) and Adyen Checkout v72 (native 3DS2, authentication only, then `/payments`
 * with the result as mpiData), each against its sandbox face.
 */
suite.each(['generic', 'adyen'])('3DS in a browser (ACQUIRER_PROVIDER=%s)', (provider) => {
  let c: CardsApp;
  let browser: Browser;
  let host: HostSite;
  const pans: string[] = [];

  beforeAll(async () => {
    [c, browser, host] = await Promise.all([startCardsApp({ ACQUIRER_PROVIDER: provider }), launchBrowser(), startHostSite()]);
    await api(c, 'PUT', '/v1/acquiring/card-settings', { frameAncestors: [host.origin] });
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await c?.close();
  });

  /** Saves a card on the hosted page framed by the merchant page; answers the page and the slugs. */
  async function saveCard(pan: string): Promise<{ page: Page; slugStoredCard: string }> {
    pans.push(pan);
    const s = await createSession(c);
    const page = await browser.context.newPage();
    await page.goto(`${host.origin}/host?src=${encodeURIComponent(s.hostedCardUrl)}`);
    await waitForMessage(page, "data.type === 'ready'");
    await typeCard(page, { number: pan, expiry: '10/32', cvv: '517' });
    const ok = await waitForMessage(page, "data.type === 'success'");
    return { page, slugStoredCard: ok.data.result.slugStoredCard };
  }

  /** initialize, setup, then the device data collection in the page's hidden frame, then authenticate. */
  async function authenticateInBrowser(page: Page, slugStoredCard: string, amount: number) {
    const token = await initialize(c, amount);
    const s = await setup(c, { token, storedCardSlug: slugStoredCard });
    expect(s.status).toBe(200);
    await page.evaluate((url) => (window as any).frameUrl('ddc', url), s.body.deviceDataCollectionUrl);
    const ddc = await waitForMessage(page, "typeof data === 'string' && data.indexOf('profile.completed') > 0");
    expect(ddc.origin).toBe(c.t.sandboxUrl); // the device-data page is the sandbox 3DS server's
    expect(JSON.parse(ddc.data)).toEqual({ MessageType: 'profile.completed', SessionId: s.body.referenceId, Status: true });
    const device = await c.t.sql(`SELECT device_data FROM sandbox_three_ds_transactions WHERE reference_id = $1`, [s.body.referenceId]);
    expect(device[0].device_data).toMatchObject({ screenWidth: expect.any(Number), language: expect.any(String) });
    const auth = await authenticate(
      c,
      authenticateBody(token, s.body.referenceId, {
        storedCardSlug: slugStoredCard,
        returnUrl: `${host.origin}/3ds-done`,
        orderInformation: { amountDetails: { totalAmount: amount.toFixed(2), currency: 'BRL' } },
      }),
    );
    expect(auth.status).toBe(200);
    return { token, referenceId: s.body.referenceId as string, auth: auth.body };
  }

  /** The cardholder answers the ACS challenge framed in the merchant page. */
  async function answerChallenge(page: Page, challengeUrl: string, otp: string) {
    await page.evaluate((url) => (window as any).frameUrl('frame', url), challengeUrl);
    const acs = page.frameLocator('#frame');
    await acs.locator('#otp').fill(otp);
    await acs.locator('button[value=submit]').click();
  }

  it('frictionless (…2701): authenticated without a challenge, then the payment with threeDsData is ACCEPTED', async () => {
    const { page, slugStoredCard } = await saveCard('4000 0000 0000 2701');
    const { auth } = await authenticateInBrowser(page, slugStoredCard, 89.9);
    expect(auth).toMatchObject({
      status: 'FRICTIONLESS',
      transStatus: 'Y',
      eci: '05',
      cavv: expect.any(String),
      dsTransactionId: expect.any(String),
    });
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 89.9,
      tokenData: { slugStoredCard },
      threeDsData: { cavv: auth.cavv, eci: auth.eci, dsTransactionId: auth.dsTransactionId },
    });
    expect(pay.body).toMatchObject({ status: 'ACCEPTED', threeDs: { transStatus: 'Y', eci: '05' } });
    if (provider === 'adyen') {
      // the authentication ran at Adyen's face, and the payment went to its /payments
      expect(await c.t.sql(`SELECT count(*)::int AS n FROM sandbox_adyen_three_ds WHERE reference_id = $1`, [auth.referenceId])).toEqual([
        { n: 1 },
      ]);
      expect(await c.t.sql(`SELECT result_code FROM adyen_payment_attempts WHERE reference = $1`, [pay.body.paymentId])).toEqual([
        { result_code: 'Authorised' },
      ]);
    }
    await page.close();
  });

  it('challenge (…2503): the ACS asks the code, the parent hears 3DS_CHALLENGE_COMPLETE, the payment is ACCEPTED', async () => {
    const { page, slugStoredCard } = await saveCard('4000000000002503');
    const { auth, token, referenceId } = await authenticateInBrowser(page, slugStoredCard, 250);
    expect(auth).toMatchObject({ status: 'CHALLENGE', transStatus: 'C', challengeUrl: expect.any(String) });
    await answerChallenge(page, auth.challengeUrl, '9999');
    await page.frameLocator('#frame').getByText('Código errado. 2 tentativa(s) restante(s).').waitFor({ timeout: 5000 });
    await page.frameLocator('#frame').locator('#otp').fill('1234');
    await page.frameLocator('#frame').locator('button[value=submit]').click();
    const done = await waitForMessage(page, "data && data.type && data.type.indexOf('3DS_CHALLENGE') === 0");
    expect(done).toEqual({ origin: c.publicUrl, data: { type: '3DS_CHALLENGE_COMPLETE', referenceId, transStatus: 'Y' } });
    const result = await api(c, 'POST', '/v1/acquiring/payments/3ds/challenge-result', { token, referenceId });
    expect(result.body).toMatchObject({
      status: 'AUTHENTICATED',
      transStatus: 'Y',
      eci: '05',
      cavv: expect.any(String),
      liabilityShift: true,
    });
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 250,
      captureMode: 'PREAUTH',
      tokenData: { slugStoredCard },
      threeDsData: { cavv: result.body.cavv, eci: result.body.eci, dsTransactionId: result.body.dsTransactionId },
    });
    expect(pay.body).toMatchObject({ status: 'PREAUTH', threeDs: { transStatus: 'Y' } });
    expect((await api(c, 'POST', `/v1/acquiring/payments/${pay.body.paymentId}/capture`, {})).body.status).toBe('CAPTURED');
    await page.close();
  });

  it('challenge failure (…2370): the parent hears 3DS_CHALLENGE_FAILED and the payment ends CHALLENGE_REJECTED', async () => {
    const { page, slugStoredCard } = await saveCard('4000000000002370');
    const { auth, token, referenceId } = await authenticateInBrowser(page, slugStoredCard, 75.5);
    await answerChallenge(page, auth.challengeUrl, '1234');
    const done = await waitForMessage(page, "data && data.type && data.type.indexOf('3DS_CHALLENGE') === 0");
    expect(done.data).toEqual({ type: '3DS_CHALLENGE_FAILED', referenceId, transStatus: 'N' });
    const result = await api(c, 'POST', '/v1/acquiring/payments/3ds/challenge-result', { token, referenceId });
    expect(result.body).toMatchObject({ status: 'CHALLENGE_FAILED', transStatus: 'N', eci: '07', liabilityShift: false });
    expect(result.body.cavv).toBeUndefined();
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 75.5,
      tokenData: { slugStoredCard },
      threeDsData: { eci: result.body.eci, dsTransactionId: result.body.dsTransactionId },
    });
    expect(pay.body).toMatchObject({ status: 'CHALLENGE_REJECTED', reason: 'three_ds_not_authenticated' });
    await page.close();
  });

  it('cancelling the challenge fails it; the challenge-result page posts only to the returnUrl origin', async () => {
    const { page, slugStoredCard } = await saveCard('4000000000002503');
    const { auth, referenceId } = await authenticateInBrowser(page, slugStoredCard, 10);
    await page.evaluate((url) => (window as any).frameUrl('frame', url), auth.challengeUrl);
    await page.frameLocator('#frame').locator('button[value=cancel]').click();
    const done = await waitForMessage(page, "data && data.type === '3DS_CHALLENGE_FAILED'");
    expect(done.data.referenceId).toBe(referenceId);
    const types = (await messages(page)).map((m) => (typeof m.data === 'string' ? 'ddc' : m.data.type));
    expect(types.filter((t) => t.startsWith('3DS'))).toEqual(['3DS_CHALLENGE_FAILED']);
    await page.close();
  });

  it('opened top level (no frame), the challenge ends on the returnUrl with the result', async () => {
    pans.push('4000000000002503');
    const token = await initialize(c, 12.34);
    const s = await setup(c, { token, cardNumber: '4000000000002503' });
    const auth = await authenticate(
      c,
      authenticateBody(token, s.body.referenceId, {
        cardNumber: '4000000000002503',
        returnUrl: `${host.origin}/3ds-done?order=42`,
        orderInformation: { amountDetails: { totalAmount: '12.34', currency: 'BRL' } },
      }),
    );
    const page = await browser.context.newPage();
    await page.goto(auth.body.challengeUrl);
    await page.locator('#otp').fill('1234');
    await page.locator('button[value=submit]').click();
    await page.waitForURL(/\/3ds-done\?/, { timeout: 10000 });
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      order: '42',
      referenceId: s.body.referenceId,
      result: '3DS_CHALLENGE_COMPLETE',
    });
    await page.close();
  });

  it('leaves no card number or security code in the logs or in any database column', async () => {
    const logs = c.t.logs();
    const db = await dumpDatabase(c.t);
    for (const pan of pans) {
      for (const secret of forms(pan.replace(/\s/g, ''))) {
        expect(logs).not.toContain(secret);
        expect(db).not.toContain(secret);
      }
    }
    expect(findsCode(logs, '517')).toBe(false);
    expect(findsCode(db, '517')).toBe(false);
  });
});
