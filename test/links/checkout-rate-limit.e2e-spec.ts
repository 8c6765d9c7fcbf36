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
    t = await startTestApp({ env: { CHECKOUT_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '127.0.0.1', ACQUIRER_RETRY_DELAYS_MS: '10' } });
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
    const invalid = await http(t.url, 'POST', `/checkout/${one.slug}/payments`, { method: 'CARD', payer: PAYER(1), card: { number: '4111' } }, { 'X-Forwarded-For': ip });
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
});
