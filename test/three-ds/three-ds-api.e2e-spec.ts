import { http } from '../support/test-app';
import { onboardTenant } from '../support/tenant-auth';
import { api, CardsApp, startCardsApp, tokenize, UNKNOWN_MERCHANT } from '../cards/support';
import { authenticate, authenticateBody, authenticateCard, initialize, setup } from './support';

/** 3DS over real HTTP: the service calls the sandbox 3DS server over HTTP; outcomes by the Cardinal test cards. */
describe('3DS API', () => {
  let c: CardsApp;
  beforeAll(async () => {
    c = await startCardsApp();
  });
  afterAll(() => c.close());

  it('frictionless success: cavv, eci 05 and dsTransactionId, then the payment with threeDsData is ACCEPTED once', async () => {
    const stored = await tokenize(c, { cardNumber: '4000000000002701' });
    const { auth, setup: s } = await authenticateCard(c, { storedCardSlug: stored.slugStoredCard });
    expect(s.deviceDataCollectionUrl).toBe(`${c.t.sandboxUrl}/sandbox/three-ds/ddc?referenceId=${s.referenceId}`);
    expect(s.accessToken.split('.')).toHaveLength(3);
    expect(auth.status).toBe(200);
    expect(auth.body).toMatchObject({
      status: 'FRICTIONLESS',
      transStatus: 'Y',
      eci: '05',
      liabilityShift: true,
      cavv: expect.stringMatching(/^[A-Za-z0-9+/]{27}=$/),
    });
    const threeDsData = { cavv: auth.body.cavv, eci: auth.body.eci, dsTransactionId: auth.body.dsTransactionId };
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 150.75,
      tokenData: { slugStoredCard: stored.slugStoredCard },
      threeDsData,
    });
    expect(pay.body).toMatchObject({ status: 'ACCEPTED', threeDs: { transStatus: 'Y', eci: '05' } });
    const twice = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 150.75,
      tokenData: { slugStoredCard: stored.slugStoredCard },
      threeDsData,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('three_ds_already_used');
  });

  it('a 3DS result only pays for its own card, amount and cavv', async () => {
    const stored = await tokenize(c, { cardNumber: '4000000000002701' });
    const other = await tokenize(c, { cardNumber: '4111111111111111' });
    const { auth } = await authenticateCard(c, { cardNumber: '4000000000002701' });
    const count = () => c.t.sql(`SELECT count(*)::int AS n FROM card_payments WHERE stored_card_id = $1`, [stored.slugStoredCard]);
    const before = await count();
    const data = { cavv: auth.body.cavv, eci: auth.body.eci, dsTransactionId: auth.body.dsTransactionId };
    const pay = (body: Record<string, unknown>) =>
      api(c, 'POST', '/v1/acquiring/payments', {
        amount: 150.75,
        tokenData: { slugStoredCard: stored.slugStoredCard },
        threeDsData: data,
        ...body,
      });
    expect((await pay({ tokenData: { slugStoredCard: other.slugStoredCard } })).body.error).toBe('three_ds_mismatch');
    expect((await pay({ amount: 150.76 })).body.error).toBe('three_ds_mismatch');
    expect((await pay({ threeDsData: { ...data, cavv: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' } })).body.error).toBe('three_ds_mismatch');
    expect((await pay({ threeDsData: { ...data, dsTransactionId: 'nope' } })).status).toBe(404);
    expect(await count()).toEqual(before);
    expect((await pay({})).body.status).toBe('ACCEPTED');
  });

  it('frictionless failure (…2925): REJECTED with eci 07; a payment with it ends SETUP_REJECTED without reaching the acquirer', async () => {
    const stored = await tokenize(c, { cardNumber: '4000000000002925' });
    const { auth } = await authenticateCard(c, { storedCardSlug: stored.slugStoredCard });
    expect(auth.body).toMatchObject({ status: 'REJECTED', transStatus: 'N', eci: '07', liabilityShift: false });
    expect(auth.body.cavv).toBeUndefined();
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 150.75,
      tokenData: { slugStoredCard: stored.slugStoredCard },
      threeDsData: { eci: '07', dsTransactionId: auth.body.dsTransactionId },
    });
    expect(pay.body).toMatchObject({ status: 'SETUP_REJECTED', reason: 'three_ds_not_authenticated' });
    const acquirer = await c.t.sql(`SELECT count(*)::int AS n FROM sandbox_acquirer_card_transactions WHERE transaction_id = $1`, [
      pay.body.paymentId,
    ]);
    expect(acquirer).toEqual([{ n: 0 }]);
  });

  it('unenrolled (…2420): UNAVAILABLE, the payment may proceed with eci 07', async () => {
    const stored = await tokenize(c, { cardNumber: '4000000000002420' });
    const { auth } = await authenticateCard(c, { storedCardSlug: stored.slugStoredCard });
    expect(auth.body).toMatchObject({ status: 'UNAVAILABLE', transStatus: 'U', eci: '07', liabilityShift: false });
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 150.75,
      tokenData: { slugStoredCard: stored.slugStoredCard },
      threeDsData: { eci: '07', dsTransactionId: auth.body.dsTransactionId },
    });
    expect(pay.body).toMatchObject({ status: 'ACCEPTED', threeDs: { transStatus: 'U', eci: '07' } });
  });

  it('challenge (…2503): challengeUrl; the JSON challenge-result says pending until the cardholder answers', async () => {
    const { auth, token, referenceId } = await authenticateCard(c, { cardNumber: '4000000000002503' });
    expect(auth.body).toMatchObject({
      status: 'CHALLENGE',
      transStatus: 'C',
      challengeUrl: expect.stringMatching(new RegExp(`^${c.t.sandboxUrl}/sandbox/three-ds/challenge/`)),
    });
    const pending = await api(c, 'POST', '/v1/acquiring/payments/3ds/challenge-result', { token, referenceId });
    expect(pending.status).toBe(409);
    expect(pending.body.error).toBe('challenge_pending');
    // the cardholder's answer on the ACS page is a form post (scriptable)
    const acs = auth.body.challengeUrl.replace(c.publicUrl, c.t.url);
    const wrong = await fetch(acs, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'otp=0000&action=submit',
    });
    expect(await wrong.text()).toContain('Código errado. 2 tentativa(s) restante(s).');
    await fetch(acs, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'otp=1234&action=submit' });
    const done = await api(c, 'POST', '/v1/acquiring/payments/3ds/challenge-result', { token, referenceId });
    expect(done.body).toMatchObject({
      status: 'AUTHENTICATED',
      transStatus: 'Y',
      eci: '05',
      cavv: expect.any(String),
      liabilityShift: true,
    });
    expect((await http(c.t.url, 'POST', '/v1/acquiring/payments/3ds/challenge-result', { token, referenceId })).status).toBe(401);
  });

  it('errors of the spec table: 401 bad token, 403 merchant not found, 500 acquirer communication', async () => {
    const bad = await api(c, 'POST', '/v1/acquiring/payments/3ds/authenticate', authenticateBody('x'.repeat(43), 'r'));
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid_payment_token');
    const noBearer = await http(c.t.url, 'POST', '/v1/acquiring/payments/3ds/authenticate', authenticateBody('x'.repeat(43), 'r'));
    expect(noBearer.status).toBe(401);
    const foreignToken = await initialize(c);
    const other = await onboardTenant(c.t);
    const cross = await http(
      c.t.url,
      'POST',
      '/v1/acquiring/payments/3ds/setup',
      { token: foreignToken, cardNumber: '4000000000002701' },
      other.auth,
    );
    expect(cross.status).toBe(401);

    const unknownMerchant = await initialize(c, 150.75, UNKNOWN_MERCHANT);
    const m = await setup(c, { token: unknownMerchant, cardNumber: '4000000000002701' });
    expect(m.status).toBe(403);
    expect(m.body.error).toBe('merchant_not_found');

    const { auth, token, referenceId } = await authenticateCard(c, { cardNumber: '4000000000002644' });
    expect(auth.status).toBe(500);
    expect(auth.body.error).toBe('acquirer_unavailable');
    expect((await c.t.sql(`SELECT status FROM three_ds_authentications WHERE reference_id = $1`, [referenceId]))[0].status).toBe(
      'SETUP_COMPLETE',
    );
    expect(token).toBeTruthy();
  });

  it('enforces the required fields and the order of the calls', async () => {
    const token = await initialize(c);
    const early = await authenticate(c, authenticateBody(token, 'ref', { cardNumber: '4000000000002701' }));
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('setup_required');
    const s = await setup(c, { token, cardNumber: '4000000000002701' });
    const missing = await authenticate(c, { token, referenceId: s.body.referenceId, cardNumber: '4000000000002701' });
    expect(missing.status).toBe(400);
    expect([...new Set(missing.body.details.map((d: any) => d.field))].sort()).toEqual(
      ['deviceChannel', 'deviceInformation', 'documentId', 'orderInformation', 'requestId', 'returnUrl', 'transactionType'].sort(),
    );
    const body = authenticateBody(token, s.body.referenceId, { cardNumber: '4000000000002701' });
    expect((await authenticate(c, { ...body, deviceInformation: {} })).body.details).toEqual([
      expect.objectContaining({ field: 'deviceInformation.userAgentBrowserValue' }),
    ]);
    expect((await authenticate(c, { ...body, returnUrl: 'http://shop.example.com/x' })).body.details).toEqual([
      expect.objectContaining({ field: 'returnUrl' }),
    ]);
    expect((await authenticate(c, { ...body, transactionType: 'SHOPPING' })).status).toBe(400);
    expect(
      (await authenticate(c, { ...body, orderInformation: { amountDetails: { totalAmount: '10.00', currency: 'BRL' } } })).body.error,
    ).toBe('amount_mismatch');
    expect((await authenticate(c, { ...body, cardNumber: '4111111111111111' })).body.error).toBe('card_mismatch');
    expect((await authenticate(c, { ...body, referenceId: 'other' })).body.error).toBe('reference_mismatch');
    expect((await authenticate(c, { ...body, documentId: UNKNOWN_MERCHANT })).body.error).toBe('document_mismatch');
    const both = await authenticate(c, { ...body, storedCardSlug: 'sc_xxxxxxxxxxxxxxxxxxxxxx' });
    expect(both.body.details).toEqual([expect.objectContaining({ code: 'exactlyOne' })]);
    const first = await authenticate(c, body);
    expect(first.body.status).toBe('FRICTIONLESS');
    const replay = await authenticate(c, body);
    expect(replay.body).toEqual(first.body);
    const another = await authenticate(c, { ...body, requestId: 'another-request' });
    expect(another.status).toBe(409);
    expect(another.body.error).toBe('already_authenticated');
  });

  it('accepts the slugToken of a tokenization without consuming it', async () => {
    const tok = await tokenize(c, { cardNumber: '4000000000002701' });
    const { auth } = await authenticateCard(c, { transactionTokenSlug: tok.slugToken });
    expect(auth.body.status).toBe('FRICTIONLESS');
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 150.75,
      tokenData: { slugToken: tok.slugToken },
      threeDsData: { cavv: auth.body.cavv, eci: auth.body.eci, dsTransactionId: auth.body.dsTransactionId },
    });
    expect(pay.body).toMatchObject({ status: 'ACCEPTED', securityCodePresented: true });
  });

  it('the sandbox 3DS server does not answer outside sandbox mode', async () => {
    const off = await startCardsApp({ SANDBOX_ENABLED: 'false', PROVIDER_URL: 'http://127.0.0.1:9/bank' });
    try {
      expect((await http(off.t.sandboxUrl, 'POST', '/sandbox/three-ds/setup', {})).status).toBe(404);
      const token = await initialize(off);
      const s = await setup(off, { token, cardNumber: '4000000000002701' });
      expect(s.status).toBe(500);
      expect(s.body.error).toBe('acquirer_unavailable');
    } finally {
      await off.close();
    }
  });
});
