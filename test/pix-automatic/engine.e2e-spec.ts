import { BillingEngine } from '../../src/pix-automatic/engine/billing-engine';
import { http, TestApp } from '../support/test-app';
import { ProviderProxy } from '../support/provider-proxy';
import { advance, billingsOf, createRecurrence, day, newTenant, startPixApp, statusOf, today } from './support';

const DAY_MS = 86_400_000;

describe('billing engine: missed cycles, retries that run out, expiry', () => {
  let t: TestApp;
  const proxy = new ProviderProxy();
  beforeAll(async () => {
    const origin = await proxy.start();
    t = await startPixApp({ env: { PROVIDER_URL: `${origin}/sandbox/bank` } });
    proxy.target = t.sandboxUrl;
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it('records a cycle missed while the service was down as skipped, with an event, and never sends it late', async () => {
    const ctx = await newTenant(t, 'Skip SA');
    const r = await createRecurrence(t, ctx, { periodicity: 'WEEKLY', firstDueDate: day(t, 5) });
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`);
    const rec = (await t.sql('SELECT id_tx FROM pix_recurrences WHERE id = $1', [r.recurrenceId]))[0];
    // The service is "down" for 5 days: time passes, nothing runs.
    await t.advanceClock(5 * DAY_MS);
    await t.app.get(BillingEngine).runDay(today(t), { wait: true });
    const skipped = await t.sql('SELECT cycle, due_date::text AS due, reason FROM pix_skipped_cycles WHERE recurrence_id = $1', [
      r.recurrenceId,
    ]);
    expect(skipped).toEqual([{ cycle: 0, due: today(t), reason: 'MISSED_SEND_WINDOW' }]);
    // Cycle 1 (due in 7 days) has its send date in 4 days; nothing is sent now.
    expect(await billingsOf(t, r.recurrenceId)).toEqual([]);
    expect(await statusOf(t, r.recurrenceId)).toBe('ACCEPTED');
    await advance(t, 4);
    const billings = await billingsOf(t, r.recurrenceId);
    expect(billings.map((b) => [b.cycle, b.status])).toEqual([[1, 'ACTIVE']]);
    expect(await statusOf(t, r.recurrenceId)).toBe('ACTIVE');
    expect(rec.id_tx).toMatch(/^RR/);
  });

  it('stops retrying a SEND_FAILED billing once its due date has passed', async () => {
    const ctx = await newTenant(t, 'Retry Out SA');
    const r = await createRecurrence(t, ctx, { firstDueDate: day(t, 6) });
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`);
    proxy.mode = 'down';
    try {
      await advance(t, 3);
      let [b] = await billingsOf(t, r.recurrenceId);
      expect(b).toMatchObject({ status: 'SEND_FAILED', send_attempts: 1 });
      await advance(t, 5); // a few more attempts, then the due date passes
      [b] = await billingsOf(t, r.recurrenceId);
      const row = (await t.sql('SELECT next_attempt_at, last_error FROM pix_billings WHERE id = $1', [b.id]))[0];
      expect(b.status).toBe('SEND_FAILED');
      expect(b.send_attempts).toBeGreaterThan(1);
      expect(row).toEqual({ next_attempt_at: null, last_error: expect.stringMatching(/due date passed|provider unavailable/) });
      const attempts = b.send_attempts;
      await advance(t, 2);
      expect((await billingsOf(t, r.recurrenceId))[0].send_attempts).toBe(attempts);
    } finally {
      proxy.mode = 'up';
    }
  });
});

describe('billing engine timer', () => {
  it('runs by itself every BILLING_ENGINE_INTERVAL_MS, without the test clock', async () => {
    const t = await startPixApp({ env: { BILLING_ENGINE_INTERVAL_MS: '100' } });
    try {
      const ctx = await newTenant(t, 'Timer SA');
      // Due in 3 days: its send date is today.
      const r = await createRecurrence(t, ctx, { firstDueDate: day(t, 3) });
      await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`);
      let billings: Awaited<ReturnType<typeof billingsOf>> = [];
      for (let i = 0; i < 50 && billings[0]?.status !== 'SENT'; i++) {
        await new Promise((res) => setTimeout(res, 100));
        billings = await billingsOf(t, r.recurrenceId);
      }
      expect(billings.map((b) => [b.cycle, b.status])).toEqual([[0, 'SENT']]);
      expect(await statusOf(t, r.recurrenceId)).toBe('ACTIVE');
    } finally {
      await t.close();
    }
  });
});
