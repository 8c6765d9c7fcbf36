import { CardPaymentRecovery } from '../../src/cards/payments/card-payment-recovery';
import { AcquirerPort } from '../../src/provider/acquirer.port';
import { http } from '../support/test-app';
import { onboardTenant } from '../support/tenant-auth';
import { advanceClock, api, CARD, CardsApp, createSession, MERCHANT, openPage, paymentEvents, startCardsApp, tokenize } from './support';

/** Card sessions, settings, tokenization and card payments over real HTTP against the sandbox acquirer. */
describe('cards API', () => {
  let c: CardsApp;
  beforeAll(async () => {
    c = await startCardsApp();
  });
  afterAll(() => c.close());

  describe('card sessions', () => {
    it('creates a single-use hosted URL that lives exactly 15 minutes', async () => {
      const before = Date.now();
      const s = await createSession(c);
      expect(s.hostedCardSessionId).toMatch(/^hcs_[A-Za-z0-9_-]{22}$/);
      expect(s.hostedCardUrl).toMatch(new RegExp(`^${c.publicUrl}/hosted-card/${s.hostedCardSessionId}\\?key=[A-Za-z0-9_-]{43}$`));
      expect(s.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const rows = await c.t.sql(`SELECT expires_at - created_at AS life, created_at FROM hosted_card_sessions WHERE id = $1`, [
        s.hostedCardSessionId,
      ]);
      expect(rows[0].life).toEqual({ minutes: 15 });
      expect(new Date(s.expiresAt).getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 15 * 60_000 - 1000);
      const again = await createSession(c);
      expect(again.hostedCardUrl).not.toBe(s.hostedCardUrl);
    });

    it('refuses a CPF/CNPJ with wrong check digits, and callers without a token or outside the allow-list', async () => {
      const bad = await api(c, 'POST', '/v1/acquiring/card-sessions', { documentId: '11222333000182' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'validation_error', details: [{ field: 'documentId', code: 'isTaxId' }] });
      expect((await http(c.t.url, 'POST', '/v1/acquiring/card-sessions', { documentId: MERCHANT })).status).toBe(401);
      const far = await onboardTenant(c.t);
      await http(c.t.url, 'PATCH', `/admin/tenants/${far.tenantId}`, { allowedCidrs: ['203.0.113.0/24'] }, { 'X-Admin-Key': c.t.adminKey });
      const outside = await http(c.t.url, 'POST', '/v1/acquiring/card-sessions', { documentId: MERCHANT }, far.auth);
      expect(outside.status).toBe(403);
      expect(outside.body).toMatchObject({ error: 'ip_not_allowed', ip: '127.0.0.1' });
      expect(await c.t.sql(`SELECT count(*)::int AS n FROM hosted_card_sessions WHERE document_id = '11222333000182'`)).toEqual([{ n: 0 }]);
    });

    it('answers the page once; a second load of the URL is 410 with token_expired', async () => {
      const s = await createSession(c);
      const first = await openPage(s.hostedCardUrl);
      expect(first.status).toBe(200);
      expect(first.pageKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect(first.headers.get('content-security-policy')).toContain("script-src 'self'");
      const second = await openPage(s.hostedCardUrl);
      expect(second.status).toBe(410);
      expect(second.html).toContain('"state":"expired"');
      expect(second.pageKey).toBeNull();
      const unknown = await openPage(s.hostedCardUrl.replace(/key=.*/, 'key=' + 'x'.repeat(43)));
      expect(unknown.status).toBe(404);
    });

    it('expires after 15 minutes by the service clock', async () => {
      const s = await createSession(c);
      const opened = await createSession(c);
      const page = await openPage(opened.hostedCardUrl);
      await advanceClock(c, 15 * 60_000 + 1000);
      expect((await openPage(s.hostedCardUrl)).status).toBe(410);
      const late = await http(c.t.url, 'POST', `/hosted-card/${opened.hostedCardSessionId}/tokenize`, CARD, {
        'x-card-page-key': page.pageKey!,
      });
      expect(late.status).toBe(410);
      expect(late.body.error).toBe('session_expired');
    });
  });

  describe('hosted page tokenize call', () => {
    it('tokenizes once per session, checks the card again on the server and refuses other origins', async () => {
      const s = await createSession(c);
      const page = await openPage(s.hostedCardUrl);
      const call = (body: unknown, headers: Record<string, string> = {}) =>
        http(c.t.url, 'POST', `/hosted-card/${s.hostedCardSessionId}/tokenize`, body, { 'x-card-page-key': page.pageKey!, ...headers });
      const foreign = await call(CARD, { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error).toBe('origin_not_allowed');
      expect((await call(CARD, { 'x-card-page-key': 'y'.repeat(43) })).status).toBe(410);
      const expired = await call({ ...CARD, expirationYear: '2020' });
      expect(expired.status).toBe(400);
      expect(expired.body).toMatchObject({ error: 'validation_error', details: [{ field: 'expirationYear', code: 'card_expired' }] });
      const luhn = await call({ ...CARD, cardNumber: '4111111111111112' });
      expect(luhn.body.details).toEqual([
        { field: 'cardNumber', code: 'card_number_check_digit', message: 'card number is not valid (check digit)' },
      ]);
      const ok = await call({ ...CARD, nickname: 'Mine' }, { origin: c.publicUrl });
      expect(ok.status).toBe(201);
      expect(ok.headers.get('cache-control')).toBe('no-store');
      expect(ok.body).toMatchObject({
        brand: 'VISA',
        first4: '4111',
        last4: '1111',
        expirationMonth: '12',
        expirationYear: '2031',
        nickname: 'Mine',
      });
      expect((await call(CARD)).status).toBe(410);
      const row = await c.t.sql(`SELECT status, stored_card_id, failed_attempts FROM hosted_card_sessions WHERE id = $1`, [
        s.hostedCardSessionId,
      ]);
      expect(row[0]).toEqual({ status: 'USED', stored_card_id: ok.body.slugStoredCard, failed_attempts: 2 });
    });

    it('burns a session after too many refused attempts', async () => {
      const s = await createSession(c);
      const page = await openPage(s.hostedCardUrl);
      const call = (body: unknown) =>
        http(c.t.url, 'POST', `/hosted-card/${s.hostedCardSessionId}/tokenize`, body, { 'x-card-page-key': page.pageKey! });
      for (let i = 0; i < 10; i++) expect((await call({ ...CARD, securityCode: '1' })).status).toBe(400);
      expect((await call(CARD)).status).toBe(410);
    });
  });

  describe('card settings (frame ancestors)', () => {
    it('stores exact origins and refuses anything else', async () => {
      const bad = await api(c, 'PUT', '/v1/acquiring/card-settings', {
        frameAncestors: ['https://ok.example', 'http://shop.example', 'https://*.example', 'https://x.example/path'],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.details.map((d: any) => d.field)).toEqual(['frameAncestors[1]', 'frameAncestors[2]', 'frameAncestors[3]']);
      const put = await api(c, 'PUT', '/v1/acquiring/card-settings', {
        frameAncestors: ['https://Shop.Example.com/', 'http://localhost:5173', 'https://shop.example.com'],
      });
      expect(put.body.frameAncestors).toEqual(['https://shop.example.com', 'http://localhost:5173']);
      expect((await api(c, 'GET', '/v1/acquiring/card-settings')).body.frameAncestors).toEqual([
        'https://shop.example.com',
        'http://localhost:5173',
      ]);
      const refused = await api(c, 'POST', '/v1/acquiring/card-sessions', { documentId: MERCHANT, parentOrigin: 'https://other.example' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('parent_origin_not_allowed');
      const s = await createSession(c, { parentOrigin: 'https://shop.example.com' });
      const page = await openPage(s.hostedCardUrl);
      expect(page.headers.get('content-security-policy')).toContain('frame-ancestors https://shop.example.com http://localhost:5173');
      expect(page.html).toContain('"parentOrigin":"https://shop.example.com"');
      await api(c, 'PUT', '/v1/acquiring/card-settings', { frameAncestors: [] });
    });
  });

  describe('server-to-server tokenization', () => {
    it('answers the tokenization result; the same card is the same stored card for the tenant, not for another', async () => {
      const a = await tokenize(c, { nickname: '  Personal  ' });
      expect(a).toEqual({
        slugStoredCard: expect.stringMatching(/^sc_/),
        slugToken: expect.stringMatching(/^tk_/),
        tokenExpirationDate: expect.stringMatching(/Z$/),
        brand: 'VISA',
        first4: '4111',
        last4: '1111',
        expirationMonth: '12',
        expirationYear: '2031',
        nickname: 'Personal',
        requestId: expect.any(String),
      });
      const b = await tokenize(c, { cardNumber: '4111 1111 1111 1111', expirationMonth: 1, expirationYear: 2032 });
      expect(b.slugStoredCard).toBe(a.slugStoredCard);
      expect(b.slugToken).not.toBe(a.slugToken);
      expect(b.nickname).toBeUndefined();
      expect((await c.t.sql(`SELECT exp_month, exp_year, nickname FROM stored_cards WHERE id = $1`, [a.slugStoredCard]))[0]).toEqual({
        exp_month: 1,
        exp_year: 2032,
        nickname: 'Personal',
      });
      const other = await onboardTenant(c.t);
      const o = await http(c.t.url, 'POST', '/v1/acquiring/tokenize-card', CARD, other.auth);
      expect(o.body.slugStoredCard).not.toBe(a.slugStoredCard);
      const listed = await api(c, 'GET', '/v1/acquiring/stored-cards?limit=100');
      expect(listed.body.items.filter((x: any) => x.slugStoredCard === a.slugStoredCard)).toEqual([
        {
          slugStoredCard: a.slugStoredCard,
          brand: 'VISA',
          first4: '4111',
          last4: '1111',
          expirationMonth: '01',
          expirationYear: '2032',
          nickname: 'Personal',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ]);
      expect(
        (await http(c.t.url, 'GET', '/v1/acquiring/stored-cards', undefined, other.auth)).body.items.map((x: any) => x.slugStoredCard),
      ).toEqual([o.body.slugStoredCard]);
      // fingerprints are keyed per tenant: the two rows cannot be linked by reading the table
      const fps = await c.t.sql(`SELECT fingerprint FROM stored_cards WHERE id = ANY($1)`, [[a.slugStoredCard, o.body.slugStoredCard]]);
      expect(new Set(fps.map((r) => r.fingerprint)).size).toBe(2);
    });

    it('keeps no idempotency record (a hash of the card data) for tokenize-card, while payments honour Idempotency-Key', async () => {
      const r = await api(c, 'POST', '/v1/acquiring/tokenize-card', CARD, { 'Idempotency-Key': 'tok-1' });
      expect(r.status).toBe(201);
      expect(await c.t.sql(`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'tok-1'`)).toEqual([{ n: 0 }]);
      const body = { amount: 3, tokenData: { slugStoredCard: r.body.slugStoredCard } };
      const p1 = await api(c, 'POST', '/v1/acquiring/payments', body, { 'Idempotency-Key': 'pay-1' });
      const p2 = await api(c, 'POST', '/v1/acquiring/payments', body, { 'Idempotency-Key': 'pay-1' });
      expect(p2.headers.get('idempotent-replayed')).toBe('true');
      expect(p2.body.paymentId).toBe(p1.body.paymentId);
    });

    it('refuses bad card data with details and stores nothing', async () => {
      const before = await c.t.sql(`SELECT count(*)::int AS n FROM stored_cards`);
      const r = await api(c, 'POST', '/v1/acquiring/tokenize-card', {
        cardNumber: '1234',
        expirationMonth: '13',
        expirationYear: '2031',
        securityCode: 'abc',
        extra: 1,
      });
      expect(r.status).toBe(400);
      expect(r.body.details).toEqual([{ field: 'extra', code: 'whitelistValidation', message: 'extra is not a known field' }]);
      const r2 = await api(c, 'POST', '/v1/acquiring/tokenize-card', {
        cardNumber: '1234',
        expirationMonth: '13',
        expirationYear: '2031',
        securityCode: 'abc',
      });
      expect(r2.body.details.map((d: any) => d.code)).toEqual(['card_number_format', 'expiration_month', 'security_code']);
      expect(r2.text).not.toContain('1234');
      expect(await c.t.sql(`SELECT count(*)::int AS n FROM stored_cards`)).toEqual(before);
    });
  });

  describe('card payments', () => {
    it('charges a single-use token with its security code, then refuses the token again', async () => {
      const tok = await tokenize(c, { cardNumber: '5555555555554444' });
      const pay = await api(c, 'POST', '/v1/acquiring/payments', {
        amount: 150.75,
        installments: 3,
        tokenData: { slugToken: tok.slugToken },
        documentId: MERCHANT,
      });
      expect(pay.status).toBe(201);
      expect(pay.body).toMatchObject({
        paymentId: expect.stringMatching(/^pay_/),
        accepted: true,
        status: 'ACCEPTED',
        transactionMethod: 'CARD',
        amount: 150.75,
        installments: 3,
        captureMode: 'SALE',
        slugStoredCard: tok.slugStoredCard,
        brand: 'MASTERCARD',
        last4: '4444',
        securityCodePresented: true,
        authorizationCode: expect.stringMatching(/^\d{6}$/),
      });
      const again = await api(c, 'POST', '/v1/acquiring/payments', { amount: 1, tokenData: { slugToken: tok.slugToken } });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('token_already_used');
      expect((await api(c, 'GET', `/v1/acquiring/payments/${pay.body.paymentId}`)).body.status).toBe('ACCEPTED');
    });

    it('charges a stored card without the security code; refused and failing cards give AUTH_REJECTED and FAILED', async () => {
      const stored = await tokenize(c, { cardNumber: '4242424242424242' });
      const ok = await api(c, 'POST', '/v1/acquiring/payments', { amount: 10, tokenData: { slugStoredCard: stored.slugStoredCard } });
      expect(ok.body).toMatchObject({ status: 'ACCEPTED', securityCodePresented: false, installments: 1 });
      const refused = await tokenize(c, { cardNumber: '4000000000009995' });
      const r = await api(c, 'POST', '/v1/acquiring/payments', { amount: 10, tokenData: { slugStoredCard: refused.slugStoredCard } });
      expect(r.body).toMatchObject({ status: 'AUTH_REJECTED', reason: 'insufficient_funds' });
      const failing = await tokenize(c, { cardNumber: '4000000000000119' });
      const f = await api(c, 'POST', '/v1/acquiring/payments', { amount: 10, tokenData: { slugStoredCard: failing.slugStoredCard } });
      expect(f.body).toMatchObject({ status: 'FAILED', reason: 'processing_error' });
    });

    it('validates the request and scopes everything by tenant', async () => {
      const stored = await tokenize(c);
      const v = await api(c, 'POST', '/v1/acquiring/payments', {
        amount: 10.123,
        installments: 13,
        tokenData: { slugStoredCard: stored.slugStoredCard, slugToken: stored.slugToken },
      });
      expect(v.status).toBe(400);
      expect(v.body.details.map((d: any) => d.field).sort()).toEqual(['amount', 'installments']);
      const both = await api(c, 'POST', '/v1/acquiring/payments', {
        amount: 10,
        tokenData: { slugStoredCard: stored.slugStoredCard, slugToken: stored.slugToken },
      });
      expect(both.body.details).toEqual([expect.objectContaining({ field: 'tokenData', code: 'exactlyOne' })]);
      const other = await onboardTenant(c.t);
      const foreign = await http(
        c.t.url,
        'POST',
        '/v1/acquiring/payments',
        { amount: 10, tokenData: { slugStoredCard: stored.slugStoredCard } },
        other.auth,
      );
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('stored_card_not_found');
      const token = await http(
        c.t.url,
        'POST',
        '/v1/acquiring/payments',
        { amount: 10, tokenData: { slugToken: stored.slugToken } },
        other.auth,
      );
      expect(token.body.error).toBe('card_token_not_found');
      const mine = await api(c, 'POST', '/v1/acquiring/payments', { amount: 10, tokenData: { slugStoredCard: stored.slugStoredCard } });
      expect((await http(c.t.url, 'GET', `/v1/acquiring/payments/${mine.body.paymentId}`, undefined, other.auth)).status).toBe(404);
      expect((await http(c.t.url, 'POST', `/v1/acquiring/payments/${mine.body.paymentId}/void`, {}, other.auth)).status).toBe(404);
    });

    it('pre-authorizes, captures partly once, and refuses capture of a sale', async () => {
      const stored = await tokenize(c);
      const pre = await api(c, 'POST', '/v1/acquiring/payments', {
        amount: 200,
        captureMode: 'PREAUTH',
        tokenData: { slugStoredCard: stored.slugStoredCard },
      });
      expect(pre.body.status).toBe('PREAUTH');
      const over = await api(c, 'POST', `/v1/acquiring/payments/${pre.body.paymentId}/capture`, { amount: 200.01 });
      expect(over.status).toBe(400);
      const [a, b] = await Promise.all([
        api(c, 'POST', `/v1/acquiring/payments/${pre.body.paymentId}/capture`, { amount: 150 }),
        api(c, 'POST', `/v1/acquiring/payments/${pre.body.paymentId}/capture`, { amount: 150 }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const won = a.status === 200 ? a : b;
      expect(won.body).toMatchObject({ status: 'CAPTURED', amount: 200, capturedAmount: 150, capturedAt: expect.any(String) });
      const events = await paymentEvents(c.t, pre.body.paymentId);
      expect(events.map((e) => [e.type, e.status])).toEqual([
        ['acquiring.financial_transaction', 'PREAUTH'],
        ['acquiring.financial_transaction', 'CAPTURED'],
      ]);
      expect(events[1]).toMatchObject({
        paymentId: pre.body.paymentId,
        transactionMethod: 'CARD',
        amount: 200,
        capturedAmount: 150,
        last4: '1111',
      });
      const sale = await api(c, 'POST', '/v1/acquiring/payments', { amount: 5, tokenData: { slugStoredCard: stored.slugStoredCard } });
      const cap = await api(c, 'POST', `/v1/acquiring/payments/${sale.body.paymentId}/capture`, {});
      expect(cap.status).toBe(409);
      expect(cap.body.error).toBe('invalid_payment_status');
    });

    it('voids on day 0 only (the service clock decides the day)', async () => {
      const stored = await tokenize(c);
      const pre = await api(c, 'POST', '/v1/acquiring/payments', {
        amount: 30,
        captureMode: 'PREAUTH',
        tokenData: { slugStoredCard: stored.slugStoredCard },
      });
      const v = await api(c, 'POST', `/v1/acquiring/payments/${pre.body.paymentId}/void`, {});
      expect(v.status).toBe(200);
      expect(v.body).toMatchObject({ status: 'VOIDED', voidedAt: expect.any(String) });
      expect((await api(c, 'POST', `/v1/acquiring/payments/${pre.body.paymentId}/void`, {})).status).toBe(409);
      const sale = await api(c, 'POST', '/v1/acquiring/payments', { amount: 30, tokenData: { slugStoredCard: stored.slugStoredCard } });
      await advanceClock(c, 24 * 60 * 60_000);
      const late = await api(c, 'POST', `/v1/acquiring/payments/${sale.body.paymentId}/void`, {});
      expect(late.status).toBe(409);
      expect(late.body.error).toBe('void_window_closed');
      expect((await api(c, 'GET', `/v1/acquiring/payments/${sale.body.paymentId}`)).body.status).toBe('ACCEPTED');
      // a refused void changes nothing and writes no event
      expect((await paymentEvents(c.t, sale.body.paymentId)).map((e) => e.status)).toEqual(['ACCEPTED']);
      expect((await paymentEvents(c.t, pre.body.paymentId)).map((e) => e.status)).toEqual(['PREAUTH', 'VOIDED']);
    });

    it('refuses an expired slugToken', async () => {
      const tok = await tokenize(c);
      await advanceClock(c, 15 * 60_000 + 1000);
      const r = await api(c, 'POST', '/v1/acquiring/payments', { amount: 10, tokenData: { slugToken: tok.slugToken } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('token_expired');
    });

    it("reconciles a payment left PROCESSING by a crash: the acquirer's answer when it has one, else FAILED; with the webhook", async () => {
      const stored = await tokenize(c, { cardNumber: '5555555555554444' });
      const id = `pay_${'r'.repeat(22)}`;
      const now = (await c.t.sql(`SELECT now() AS now`))[0].now;
      // the state a crash leaves: the attempt is stored, the acquirer authorized it, the answer was never recorded
      await c.t.sql(
        `INSERT INTO card_payments (id, tenant_id, stored_card_id, amount_cents, installments, capture_mode, status, security_code_presented, request_id, created_at, updated_at)
         VALUES ($1, $2, $3, 4200, 1, 'SALE', 'PROCESSING', false, 'crash', $4::timestamptz - interval '1 day', $4::timestamptz - interval '1 day')`,
        [id, c.tenant.tenantId, stored.slugStoredCard, now],
      );
      const first = await c.t.app.get(AcquirerPort).authorizeCard({
        transactionId: id,
        merchantId: c.tenant.tenantId,
        amountCents: 4200,
        installments: 1,
        capture: 'SALE',
        card: { pan: '5555555555554444', expMonth: 12, expYear: 2031 },
      });
      const recovery = c.t.app.get(CardPaymentRecovery);
      expect(await recovery.runOnce()).toBe(1);
      const p = await api(c, 'GET', `/v1/acquiring/payments/${id}`);
      expect(p.body).toMatchObject({ status: 'ACCEPTED', authorizationCode: first.authorizationCode });
      expect((await c.t.sql(`SELECT acquirer_transaction_id FROM card_payments WHERE id = $1`, [id]))[0].acquirer_transaction_id).toBe(
        first.acquirerTransactionId,
      );
      expect((await paymentEvents(c.t, id)).map((e) => e.status)).toEqual(['ACCEPTED']);
      expect(await recovery.runOnce()).toBe(0);
      // an attempt the acquirer never received is not charged late: it fails
      const lost = `pay_${'l'.repeat(22)}`;
      await c.t.sql(
        `INSERT INTO card_payments (id, tenant_id, stored_card_id, amount_cents, installments, capture_mode, status, security_code_presented, request_id, created_at, updated_at)
         VALUES ($1, $2, $3, 4300, 1, 'SALE', 'PROCESSING', false, 'crash', $4::timestamptz - interval '1 day', $4::timestamptz - interval '1 day')`,
        [lost, c.tenant.tenantId, stored.slugStoredCard, now],
      );
      expect(await recovery.runOnce()).toBe(1);
      expect((await api(c, 'GET', `/v1/acquiring/payments/${lost}`)).body).toMatchObject({
        status: 'FAILED',
        reason: 'acquirer_no_answer',
      });
      expect(await c.t.sql(`SELECT count(*)::int AS n FROM sandbox_acquirer_card_transactions WHERE transaction_id = $1`, [lost])).toEqual([
        { n: 0 },
      ]);
      expect((await paymentEvents(c.t, lost)).map((e) => e.status)).toEqual(['FAILED']);
    });

    it("lists the tenant's payments, newest first", async () => {
      const list = await api(c, 'GET', '/v1/acquiring/payments?limit=2');
      expect(list.body).toMatchObject({ limit: 2, offset: 0, total: expect.any(Number) });
      expect(list.body.items).toHaveLength(2);
      expect(list.body.total).toBeGreaterThanOrEqual(8);
      const metrics = await http(c.t.url, 'GET', '/metrics');
      expect(metrics.text).toMatch(/card_payment_transitions_total\{status="CAPTURED"\} 1/);
      expect(metrics.text).toMatch(/card_security_codes_held \d+/);
    });
  });
});
