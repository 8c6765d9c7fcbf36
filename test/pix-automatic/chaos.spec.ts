import { CreateAdHocBilling } from '../../src/pix-automatic/use-cases/create-ad-hoc-billing';
import { CancelRecurrence } from '../../src/pix-automatic/use-cases/cancel-recurrence';
import { SandboxBankEvents } from '../../sandbox/src/bank/sandbox-bank.events';
import { http, TestApp } from '../support/test-app';
import { advance, createRecurrence, day, newTenant, startPixApp } from './support';

const SCENARIO = [
  { label: 'ok', periodicity: 'MONTHLY', amount: 10 },
  { label: 'noBalance', periodicity: 'MONTHLY', amount: 10.51 },
  { label: 'unpaid', periodicity: 'MONTHLY', amount: 10.52 },
  { label: 'payerCancelsBilling', periodicity: 'MONTHLY', amount: 10.53 },
  { label: 'weekly', periodicity: 'WEEKLY', amount: 5 },
  { label: 'dailyShortTerm', periodicity: 'DAILY', amount: 1, expiresIn: 20 },
  { label: 'payerCancels', periodicity: 'MONTHLY', amount: 20 },
  { label: 'receiverCancels', periodicity: 'WEEKLY', amount: 7 },
  { label: 'refused', periodicity: 'MONTHLY', amount: 30, decision: 'reject' },
  { label: 'ignored', periodicity: 'MONTHLY', amount: 40, decision: 'none' },
] as const;

type Final = Record<string, string>;

/** The same story, day by day through the test clock; answers every final status by label. */
async function runScenario(t: TestApp): Promise<{ final: Final; events: { outcome: string; replayed: boolean }[] }> {
  const ctx = await newTenant(t, 'Chaos Comparação');
  const ids = new Map<string, string>();
  for (const s of SCENARIO) {
    const r = await createRecurrence(t, ctx, {
      periodicity: s.periodicity,
      amount: s.amount,
      firstDueDate: day(t, 8),
      ...('expiresIn' in s ? { expirationDate: day(t, s.expiresIn) } : {}),
    } as never);
    ids.set(s.label, r.recurrenceId);
    const decision = 'decision' in s ? s.decision : 'approve';
    if (decision !== 'none')
      expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/${decision}`)).status).toBe(200);
  }
  const adHoc = await t.app
    .get(CreateAdHocBilling)
    .execute(ctx, { recurrenceId: ids.get('ok')!, dueDate: day(t, 4), amount: 3, currency: 'BRL' });
  expect(adHoc.status).toBe('SENT');
  for (let d = 1; d <= 60; d++) {
    await advance(t, 1);
    if (d === 20) await t.app.get(CancelRecurrence).execute(ctx, ids.get('receiverCancels')!);
    if (d === 45) expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${ids.get('payerCancels')}/cancel`)).status).toBe(200);
  }
  // Chaos holds some events back for a few deliveries: let the bank send what it still owes.
  for (let i = 0; i < 6; i++) await t.sandbox.get(SandboxBankEvents).flush();
  expect(await t.sql('SELECT count(*)::int AS n FROM sandbox_bank_events WHERE delivered_at IS NULL')).toEqual([{ n: 0 }]);
  const final: Final = {};
  for (const [label, id] of ids) {
    final[label] = (await t.sql('SELECT status FROM pix_recurrences WHERE id = $1', [id]))[0].status;
    const billings = await t.sql(`SELECT coalesce(cycle::text, 'adhoc') AS k, status FROM pix_billings WHERE recurrence_id = $1`, [id]);
    for (const b of billings) final[`${label}/${b.k}`] = b.status;
  }
  const events = await t.sql(`SELECT outcome, replayed FROM pix_provider_events`);
  return { final, events };
}

describe('chaos: duplicated and reordered provider events end in the same states', () => {
  it('matches the run without chaos', async () => {
    const plain = await startPixApp();
    let calm;
    try {
      calm = await runScenario(plain);
    } finally {
      await plain.close();
    }
    const wild = await startPixApp({ env: { SANDBOX_CHAOS: 'true', SANDBOX_CHAOS_SEED: '1234' } });
    let chaotic;
    try {
      chaotic = await runScenario(wild);
    } finally {
      await wild.close();
    }
    expect(chaotic.final).toEqual(calm.final);
    // The story covers every ending.
    expect(calm.final).toMatchObject({
      ok: 'ACTIVE',
      'ok/0': 'COMPLETED',
      'ok/adhoc': 'COMPLETED',
      'noBalance/0': 'REJECTED',
      'unpaid/0': 'EXPIRED',
      'payerCancelsBilling/0': 'CANCELLED_PAYER',
      dailyShortTerm: 'EXPIRED',
      payerCancels: 'CANCELLED_PAYER',
      receiverCancels: 'CANCELLED_RECEIVER',
      refused: 'REJECTED',
      ignored: 'EXPIRED',
    });
    // And chaos did happen: more duplicates, and events that overtook their predecessor.
    const count = (e: { outcome: string; replayed: boolean }[], f: (x: { outcome: string; replayed: boolean }) => boolean) =>
      e.filter(f).length;
    expect(count(chaotic.events, (e) => e.outcome === 'DUPLICATE')).toBeGreaterThan(count(calm.events, (e) => e.outcome === 'DUPLICATE'));
    expect(count(chaotic.events, (e) => e.replayed || e.outcome === 'LATE')).toBeGreaterThan(0);
    expect(count(calm.events, (e) => e.replayed || e.outcome === 'LATE' || e.outcome === 'PARKED')).toBe(0);
    expect(count(chaotic.events, (e) => e.outcome === 'PARKED')).toBe(0);
  }, 120_000);
});
