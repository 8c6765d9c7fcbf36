import { ClockSync } from '../../kernel/platform/clock/clock-sync.service';
import { Clock } from '../../kernel/platform/clock/clock';
import { cyclesDueBy } from '../../src/pix-automatic/domain/calendar';
import { BillingEngine } from '../../src/pix-automatic/engine/billing-engine';
import { SandboxBankService } from '../../sandbox/src/bank/sandbox-bank.service';
import { http, TestApp } from '../support/test-app';
import { createRecurrence, day, newTenant, startPixApp } from './support';

const DAY_MS = 86_400_000;
const SHARED = {
  PROVIDER_API_KEY: 'multi-engine-provider-key-0123456789',
  PROVIDER_EVENTS_SECRET: 'multi-engine-events-secret-0123456789',
  BILLING_ENGINE_BATCH_SIZE: '2',
};

describe('three billing engines on one database over a simulated year', () => {
  let apps: TestApp[] = [];

  beforeAll(async () => {
    const a = await startPixApp({ env: SHARED });
    const others = [];
    for (let i = 0; i < 2; i++)
      others.push(await startPixApp({ databaseUrl: a.databaseUrl, env: { ...SHARED, PROVIDER_URL: `${a.sandboxUrl}/sandbox/bank` } }));
    apps = [a, ...others];
  });
  afterAll(async () => {
    for (const t of apps.slice(1)) await t.close();
    await apps[0]?.close();
  });

  it('creates exactly one billing per cycle, each sent once to the bank', async () => {
    const [a] = apps;
    const ctx = await newTenant(a, 'Three Engines SA');
    const plans = [
      { periodicity: 'DAILY', firstDueDate: day(a, 3), expirationDate: day(a, 200) },
      { periodicity: 'WEEKLY', firstDueDate: day(a, 5), dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY' },
      { periodicity: 'WEEKLY', firstDueDate: day(a, 4) },
      { periodicity: 'WEEKLY', firstDueDate: day(a, 9), dayAdjustment: 'MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY' },
      { periodicity: 'MONTHLY', firstDueDate: day(a, 6) },
      { periodicity: 'MONTHLY', firstDueDate: day(a, 20), dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY' },
      { periodicity: 'MONTHLY', firstDueDate: day(a, 12), expirationDate: day(a, 150) },
      { periodicity: 'BIMONTHLY', firstDueDate: day(a, 7) },
      { periodicity: 'QUARTERLY', firstDueDate: day(a, 8), dayAdjustment: 'MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY' },
      { periodicity: 'BIANNUAL', firstDueDate: day(a, 15) },
      { periodicity: 'ANNUAL', firstDueDate: day(a, 30) },
    ] as const;
    const ids: string[] = [];
    for (const p of plans) {
      const r = await createRecurrence(a, ctx, { dayAdjustment: 'KEEP_DUE_DATE', ...p } as never);
      expect((await http(a.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`)).status).toBe(200);
      ids.push(r.recurrenceId);
    }

    const engines = apps.map((t) => t.app.get(BillingEngine));
    const bank = a.sandbox.get(SandboxBankService);
    for (let i = 1; i <= 365; i++) {
      await a.app.get(ClockSync).advance(DAY_MS);
      for (const t of apps.slice(1)) await t.app.get(ClockSync).refresh();
      const d = a.app.get(Clock).today();
      if (i % 4 === 0) {
        // Whole runs: the advisory lock lets one through at a time.
        await Promise.all(engines.map((e) => e.runDay(d, { wait: false })));
      } else {
        // The claims themselves race: batches of 2 with SKIP LOCKED, leased sends.
        await Promise.all(engines.map((e) => e.generate(d)));
        await Promise.all(engines.map((e) => e.sendDue()));
        await Promise.all(engines.map((e) => e.expire(d)));
      }
      await bank.processDay(d);
    }

    const last = a.app.get(Clock).today();
    const dup = await a.sql(`SELECT recurrence_id, cycle, count(*)::int AS n FROM pix_billings GROUP BY 1, 2 HAVING count(*) > 1`);
    expect(dup).toEqual([]);
    expect(await a.sql('SELECT count(*)::int AS n FROM pix_skipped_cycles')).toEqual([{ n: 0 }]);
    let total = 0;
    for (const [k, p] of plans.entries()) {
      const expected = cyclesDueBy(
        p.firstDueDate,
        p.periodicity,
        'dayAdjustment' in p ? p.dayAdjustment : 'KEEP_DUE_DATE',
        'expirationDate' in p ? p.expirationDate : null,
        3,
        last,
        0,
        10_000,
      );
      const rows = await a.sql(`SELECT cycle, due_date::text AS due FROM pix_billings WHERE recurrence_id = $1 ORDER BY cycle`, [ids[k]]);
      expect(rows).toEqual(expected.map((c) => ({ cycle: c.cycle, due: c.dueDate })));
      total += rows.length;
    }
    expect(total).toBeGreaterThan(300);
    const statuses = await a.sql(`SELECT status, count(*)::int AS n FROM pix_billings GROUP BY 1 ORDER BY 1`);
    expect(statuses.map((s) => s.status).sort()).toEqual(expect.arrayContaining(['COMPLETED']));
    expect(await a.sql(`SELECT count(*)::int AS n FROM pix_billings WHERE status IN ('PENDING_SEND','SEND_FAILED')`)).toEqual([{ n: 0 }]);
    expect(await a.sql(`SELECT count(*)::int AS n FROM sandbox_bank_billings`)).toEqual([{ n: total }]);
    // Expired terms end as EXPIRED; the others are still running.
    const rec = await a.sql(`SELECT id, status FROM pix_recurrences`);
    const byId = new Map(rec.map((r) => [r.id, r.status]));
    expect(byId.get(ids[0])).toBe('EXPIRED');
    expect(byId.get(ids[6])).toBe('EXPIRED');
    expect(byId.get(ids[1])).toBe('ACTIVE');
    expect(byId.get(ids[10])).toBe('ACTIVE');
  }, 180_000);
});
