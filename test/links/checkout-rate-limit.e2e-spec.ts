import { freshRateWindow, onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { CARD, createLink, PAYER } from './support';

const LIMIT = 3;

/** The public checkout's payment route: a per-IP brake on card testing. */
describe('checkout payment attempts per payer IP', () => {
  let t: TestApp;
  let a: OnboardedTenant;

  beforeAll(async () => {
    // The test's own requests come from 127.0.0.1, a trusted proxy here, so X-Forwarded-For names the payer.
    t = await startTestApp({
      env: { CHECKOUT_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '127.0.0.1', ACQUIRER_RETRY_DELAYS_MS: '10' },
    });
    a = await onboardTenant(t, { name: 'Brake SA', rateLimitPerMinute: 10000 });
  });
  afterAll(() => t.close());

  const items = async (linkId: string) => (await t.sql('SELECT count(*)::int AS n FROM links_payments WHERE link_id = $1', [linkId]))[0].n;
  const attempt = (slug: string, ip: string, card = CARD('4000000000000002')) =>
    http(t.url, 'POST', `/checkout/${slug}/payments`, { method: 'CARD', payer: PAYER(1), card }, { 'X-Forwarded-For': ip });

  it('answers 429 rate_limited past the limit, refused cards and bad bodies counted, across links, and writes nothing', async () => {
    const one = await createLink(t, a.auth, { amount: 10 });
    const two = await createLink(t, a.auth, { amount: 20 });
    await freshRateWindow(20_000);
    const ip = '198.51.100.7';

    const refused = await attempt(one.slug, ip);
    expect(refused.status).toBe(201);
    expect(refused.body).toMatchObject({ status: 'AUTH_REJECTED', paid: false });
    expect(refused.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(refused.headers.get('ratelimit-remaining')).toBe('2');
    const invalid = await http(
      t.url,
      'POST',
      `/checkout/${one.slug}/payments`,
      { method: 'CARD', payer: PAYER(1), card: { number: '4111' } },
      { 'X-Forwarded-For': ip },
    );
    expect(invalid.status).toBe(400);
    expect((await attempt(two.slug, ip)).headers.get('ratelimit-remaining')).toBe('0');
    const before = [await items(one.linkId), await items(two.linkId)];

    const over = await attempt(two.slug, ip, CARD('5555555555554444'));
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'rate_limited' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(over.text).not.toContain('5555555555554444');
    expect([await items(one.linkId), await items(two.linkId)]).toEqual(before);

    // another payer is not held back by this one
    const other = await attempt(two.slug, '203.0.113.9', CARD('5555555555554444'));
    expect(other.status).toBe(201);
    expect(other.body).toMatchObject({ status: 'ACCEPTED', paid: true });
  });

  it('leaves the page, quotes and status polls outside the count', async () => {
    const l = await createLink(t, a.auth, { amount: 15 });
    await freshRateWindow(20_000);
    const ip = '198.51.100.8';
    for (let i = 0; i < LIMIT; i++) await attempt(l.slug, ip);
    expect((await attempt(l.slug, ip)).status).toBe(429);
    expect((await http(t.url, 'GET', `/checkout/${l.slug}`, undefined, { 'X-Forwarded-For': ip })).status).toBe(200);
    expect((await http(t.url, 'POST', `/checkout/${l.slug}/quote`, { amount: 15 }, { 'X-Forwarded-For': ip })).status).not.toBe(429);
  });

  describe('per link (checkoutAttemptsPerMinute, set by the tenant)', () => {
    it('stops attempts from many IPs at the link’s figure, writes nothing past it, and leaves other links alone', async () => {
      const guarded = await createLink(t, a.auth, { amount: 30, checkoutAttemptsPerMinute: 2 });
      expect(guarded.checkoutAttemptsPerMinute).toBe(2);
      const open = await createLink(t, a.auth, { amount: 31 });
      expect(open.checkoutAttemptsPerMinute).toBeNull();
      await freshRateWindow(20_000);

      const first = await attempt(guarded.slug, '192.0.2.1');
      expect(first.status).toBe(201);
      // the link's window (1 left) is tighter than this IP's (2 left): the headers describe it
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      expect(first.headers.get('ratelimit-remaining')).toBe('1');
      expect((await attempt(guarded.slug, '192.0.2.2', CARD('5555555555554444'))).body).toMatchObject({ status: 'ACCEPTED' });
      const before = await items(guarded.linkId);

      const over = await attempt(guarded.slug, '192.0.2.3', CARD('5555555555554444'));
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({
        error: 'rate_limited',
        message: expect.stringContaining('This link takes at most 2 payment attempts per minute'),
      });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(over.text).not.toContain('5555555555554444');
      expect(await items(guarded.linkId)).toBe(before);

      // the same IPs still pay a link without a brake
      expect((await attempt(open.slug, '192.0.2.3', CARD('5555555555554444'))).status).toBe(201);
    });

    it('the tenant sets it, changes it and removes it with PATCH; bad figures are 400 validation_error', async () => {
      const l = await createLink(t, a.auth, { amount: 32 });
      const set = await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}`, { checkoutAttemptsPerMinute: 1 }, a.auth);
      expect(set.status).toBe(200);
      expect(set.body.checkoutAttemptsPerMinute).toBe(1);
      await freshRateWindow(20_000);
      expect((await attempt(l.slug, '192.0.2.10')).status).toBe(201);
      expect((await attempt(l.slug, '192.0.2.11')).status).toBe(429);
      const cleared = await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}`, { checkoutAttemptsPerMinute: null }, a.auth);
      expect(cleared.body.checkoutAttemptsPerMinute).toBeNull();
      expect((await attempt(l.slug, '192.0.2.12')).status).toBe(201);
      for (const bad of [0, 100_001, 2.5, '10']) {
        const r = await http(
          t.url,
          'POST',
          '/v1/acquiring/links',
          { name: 'x', amount: 10, paymentMethods: ['CARD'], checkoutAttemptsPerMinute: bad },
          a.auth,
        );
        expect(r.status).toBe(400);
        expect(r.body.error).toBe('validation_error');
        expect(r.body.details[0].field).toBe('checkoutAttemptsPerMinute');
      }
    });
  });
});
