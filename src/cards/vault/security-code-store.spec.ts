import { SystemClock } from '../../../kernel/platform/clock/clock';
import { MetricsService } from '../../../kernel/platform/metrics/metrics.service';
import { CardsConfig } from '../cards.config';
import { SecurityCodeStore } from './security-code-store';

describe('SecurityCodeStore (security codes in memory only)', () => {
  const clock = new SystemClock();
  const make = (max = 10) => new SecurityCodeStore(clock, { securityCodeStoreMax: max } as CardsConfig, new MetricsService());
  const inMinutes = (m: number) => new Date(clock.now().getTime() + m * 60_000);
  let store: SecurityCodeStore;
  afterEach(() => {
    store.onApplicationShutdown();
    clock.setOffset(0);
  });

  it('answers a code once', () => {
    store = make();
    store.put('tk_a', '123', inMinutes(15));
    expect(store.has('tk_a')).toBe(true);
    expect(store.take('tk_a')).toBe('123');
    expect(store.take('tk_a')).toBeUndefined();
    expect(store.has('tk_a')).toBe(false);
  });

  it('drops a code when the token expires by the business clock', () => {
    store = make();
    store.put('tk_b', '456', inMinutes(15));
    clock.setOffset(16 * 60_000);
    expect(store.has('tk_b')).toBe(false);
    expect(store.take('tk_b')).toBeUndefined();
    store.put('tk_c', '789', inMinutes(15));
    store.sweep();
    expect(store.size()).toBe(1);
  });

  it('refuses new codes when full, after sweeping expired ones', () => {
    store = make(2);
    expect(store.put('tk_1', '111', inMinutes(1))).toBe(true);
    expect(store.put('tk_2', '222', inMinutes(15))).toBe(true);
    expect(store.put('tk_3', '333', inMinutes(15))).toBe(false);
    clock.setOffset(2 * 60_000);
    expect(store.put('tk_3', '333', inMinutes(15))).toBe(true);
    expect(store.size()).toBe(2);
  });

  it('forgets a discarded code', () => {
    store = make();
    store.put('tk_d', '000', inMinutes(15));
    store.discard('tk_d');
    expect(store.take('tk_d')).toBeUndefined();
  });
});
