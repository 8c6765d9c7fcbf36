import { randomUUID } from 'node:crypto';
import { AcquirerPort, CardAuthorizationRequest } from '../../src/provider/acquirer.port';
import { ProviderCallError } from '../../kernel/platform/http/resilient-http';
import { http, startTestApp, TestApp } from '../support/test-app';

/** The acquirer card path end to end: AcquirerPort → real HTTP → sandbox acquirer → PostgreSQL. */
describe('acquirer card path over HTTP (sandbox acquirer)', () => {
  let t: TestApp;
  let acquirer: AcquirerPort;

  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10,10,10' } });
    acquirer = t.app.get(AcquirerPort);
  });
  afterAll(() => t.close());

  const req = (pan: string, over: Partial<CardAuthorizationRequest> = {}): CardAuthorizationRequest => ({
    transactionId: randomUUID(),
    merchantId: 'mer_test',
    amountCents: 12345,
    installments: 1,
    capture: 'SALE',
    card: { pan, expMonth: 12, expYear: 2099, cvv: '123', holderName: 'Ana Souza' },
    ...over,
  });

  it('approves a sale and a pre-authorization, captures and voids', async () => {
    const sale = await acquirer.authorizeCard(req('4111 1111 1111 1111'));
    expect(sale).toEqual({
      acquirerTransactionId: expect.stringMatching(/^ctx_/),
      status: 'ACCEPTED',
      authorizationCode: expect.stringMatching(/^\d{6}$/),
    });

    const pre = await acquirer.authorizeCard(req('5555555555554444', { capture: 'PREAUTH' }));
    expect(pre.status).toBe('PREAUTH');
    await expect(acquirer.capture(pre.acquirerTransactionId, 10000)).resolves.toMatchObject({ status: 'CAPTURED' });
    // capture is idempotent; a sale cannot be captured
    await expect(acquirer.capture(pre.acquirerTransactionId, 10000)).resolves.toMatchObject({ status: 'CAPTURED' });
    await expect(acquirer.capture(sale.acquirerTransactionId)).rejects.toMatchObject({ code: 'provider_rejected', status: 409 });
    await expect(acquirer.void(sale.acquirerTransactionId)).resolves.toEqual({ status: 'VOIDED' });
    await expect(acquirer.void(sale.acquirerTransactionId)).resolves.toEqual({ status: 'VOIDED' });
    const rows = await t.sql('SELECT status, captured_cents FROM sandbox_acquirer_card_transactions WHERE id = ANY($1) ORDER BY status', [
      [sale.acquirerTransactionId, pre.acquirerTransactionId],
    ]);
    expect(rows).toEqual([
      { status: 'CAPTURED', captured_cents: '10000' },
      { status: 'VOIDED', captured_cents: null },
    ]);
  });

  it('answers the test cards: issuer refusal, insufficient funds, technical failure', async () => {
    await expect(acquirer.authorizeCard(req('4000000000000002'))).resolves.toMatchObject({
      status: 'AUTH_REJECTED',
      reason: 'generic_decline',
    });
    await expect(acquirer.authorizeCard(req('4000000000009995'))).resolves.toMatchObject({
      status: 'AUTH_REJECTED',
      reason: 'insufficient_funds',
    });
    await expect(acquirer.authorizeCard(req('4000000000000119'))).resolves.toMatchObject({ status: 'FAILED', reason: 'processing_error' });
  });

  it('refuses cards failing Luhn or past expiry like an issuer would', async () => {
    await expect(acquirer.authorizeCard(req('4111111111111112'))).resolves.toMatchObject({
      status: 'AUTH_REJECTED',
      reason: 'invalid_card',
    });
    await expect(
      acquirer.authorizeCard(req('4111111111111111', { card: { pan: '4111111111111111', expMonth: 1, expYear: 2020 } })),
    ).resolves.toMatchObject({
      status: 'AUTH_REJECTED',
      reason: 'expired_card',
    });
  });

  it('treats a repeated transactionId as the same transaction, and another body with it as a conflict', async () => {
    const r = req('4242424242424242');
    const [a, b] = await Promise.all([acquirer.authorizeCard(r), acquirer.authorizeCard(r)]);
    expect(a).toEqual(b);
    expect(
      (await t.sql('SELECT count(*)::int AS n FROM sandbox_acquirer_card_transactions WHERE transaction_id = $1', [r.transactionId]))[0].n,
    ).toBe(1);
    const other = await acquirer.authorizeCard({ ...r, amountCents: 1 }).catch((e) => e);
    expect(other).toBeInstanceOf(ProviderCallError);
    expect(other).toMatchObject({ code: 'provider_rejected', status: 409, body: { error: 'transaction_id_reused' } });
  });

  it('looks an authorization up by our transaction id (reconciliation), null when there is none', async () => {
    const r = req('4111111111111111');
    const made = await acquirer.authorizeCard(r);
    await expect(acquirer.findCardAuthorization(r.transactionId)).resolves.toEqual(made);
    await expect(acquirer.findCardAuthorization(randomUUID())).resolves.toBeNull();
  });

  it('refuses calls without the acquirer key, and never stores or logs the card number', async () => {
    const r = await http(t.sandboxUrl, 'POST', '/sandbox/acquirer/v1/card-authorizations', req('4111111111111111'));
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('acquirer_unauthorized');
    const dump = JSON.stringify(await t.sql('SELECT * FROM sandbox_acquirer_card_transactions'));
    expect(dump).not.toMatch(/4111111111111111|5555555555554444/);
    expect(t.logs()).not.toMatch(/4111111111111111|5555555555554444/);
  });

  it('shows the acquirer breakers in readiness', async () => {
    const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(ready.body.details.circuitBreakers).toMatchObject({ 'acquirer.authorizeCard': 'closed', 'acquirer.capture': 'closed' });
  });
});
