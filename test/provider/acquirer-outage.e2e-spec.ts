import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';
import { api, CardsApp, startCardsApp, tokenize } from '../cards/support';
import { ProviderProxy } from '../support/provider-proxy';

/**
 * A caller never waits on a retry schedule: with the acquirer (Adyen) answering 503 to every
 * call, then not answering at all, a card payment through the tenant API holds its caller for one
 * call and one immediate re-ask with the same Idempotency-Key at most, never 1 + 3 + 9 s of
 * backoff; the breaker opens within a few payments, and from then on payments fail in under
 * 100 ms without reaching the acquirer; once it is back, they are accepted. The retry settings
 * are the defaults; only the breaker's reset and the timeout are short, for the test's time.
 */
describe('card payments while the acquirer is down', () => {
  jest.setTimeout(120_000);
  let c: CardsApp;
  const hop = new ProviderProxy();
  let card: string;

  beforeAll(async () => {
    const url = await hop.start();
    c = await startCardsApp({
      ACQUIRER_PROVIDER: 'adyen',
      ADYEN_CHECKOUT_URL: `${url}/sandbox/adyen/checkout/v72`,
      ACQUIRER_BREAKER_RESET_MS: '5000',
      ACQUIRER_TIMEOUT_MS: '800',
    });
    hop.target = c.t.sandboxUrl;
    card = (await tokenize(c)).slugStoredCard;
  });
  afterAll(async () => {
    hop.gate = null;
    await c?.close();
    await hop.close();
  });

  /** One sale through the API: its answer and how long the caller waited. */
  async function pay(): Promise<{ ms: number; status: number; payment: string | undefined; error: string | undefined }> {
    const t0 = Date.now();
    const r = await api(c, 'POST', '/v1/acquiring/payments', { amount: 10, tokenData: { slugStoredCard: card } });
    return { ms: Date.now() - t0, status: r.status, payment: r.body?.status, error: r.body?.error };
  }
  /**
   * Failed at once, never sent: the acquirer saw none of them, and each took under 100 ms more
   * than this machine takes for a plain authenticated read of a payment (measured beside them: on
   * an idle machine both are a few ms; a loaded CI machine slows both), and never a call's timeout.
   */
  const expectFast = async (ps: { ms: number }[], callsBefore: number) => {
    expect(hop.calls).toBe(callsBefore);
    const read: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      await api(c, 'GET', '/v1/acquiring/payments?limit=1');
      read.push(Date.now() - t0);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    expect(median(ps.map((p) => p.ms))).toBeLessThan(100 + median(read));
    for (const p of ps) expect(p.ms).toBeLessThan(700);
  };
  const breaker = () => c.t.app.get(BreakerRegistry).states()['acquirer.authorizeCard'];

  it('fails fast from the sixth payment on, through 503s and then silence, and accepts again once the acquirer is back', async () => {
    expect((await pay()).payment).toBe('ACCEPTED');

    // every call answered 503
    hop.mode = 'down';
    const down = [];
    let calls = 0;
    for (let i = 0; i < 8; i++) {
      if (i === 5) calls = hop.calls;
      down.push(await pay());
    }
    for (const p of down) expect(p.payment ?? p.error).not.toBe('ACCEPTED');
    // the first ones waited one call and one re-ask at most (the old schedule held each 13 s)
    for (const p of down.slice(0, 5)) expect(p.ms).toBeLessThan(2500);
    await expectFast(down.slice(5), calls);
    expect(breaker()).toBe('open');

    // the breaker's reset passes; now the acquirer does not answer at all
    hop.mode = 'up';
    hop.gate = new Promise(() => undefined);
    await new Promise((r) => setTimeout(r, 5100));
    const silent = [];
    for (let i = 0; i < 8; i++) {
      if (i === 5) calls = hop.calls;
      silent.push(await pay());
    }
    // a hung call ends at its timeout; the re-ask starts only inside the deadline
    for (const p of silent.slice(0, 5)) expect(p.ms).toBeLessThan(3500);
    await expectFast(silent.slice(5), calls);
    expect(breaker()).toBe('open');

    // back: accepted again once the breaker lets a trial through
    hop.gate = null;
    await new Promise((r) => setTimeout(r, 5100));
    const back = await pay();
    expect(back.payment).toBe('ACCEPTED');
    expect(breaker()).toBe('closed');
  });
});
