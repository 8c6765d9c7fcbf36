import { MIN_LEAD_DAYS, planCycles, retryDelayMs, sendDateOfCycle } from './schedule';

const base = { periodicity: 'MONTHLY' as const, dayAdjustment: 'KEEP_DUE_DATE' as const, expirationDate: null };

describe('billing engine plan for one recurrence and one day', () => {
  it('creates nothing before the send date and the cycle on it', () => {
    const r = { ...base, firstDueDate: '2027-03-10', nextCycle: 0 };
    expect(planCycles(r, '2027-03-06', 3)).toEqual({ create: [], skip: [], nextCycle: 0, nextSendDate: '2027-03-07' });
    const p = planCycles(r, '2027-03-07', 3);
    expect(p.create.map((c) => [c.cycle, c.dueDate])).toEqual([[0, '2027-03-10']]);
    expect(p).toMatchObject({ skip: [], nextCycle: 1, nextSendDate: '2027-04-07' });
  });

  it('still sends a cycle whose send date passed while at least 2 days remain, and skips the ones missed', () => {
    const r = { ...base, firstDueDate: '2027-01-10', nextCycle: 0 };
    // Down from early January to 8 March: cycles due 10 Jan and 10 Feb were missed; 10 Mar has 2 days left.
    const p = planCycles(r, '2027-03-08', 3);
    expect(p.skip.map((c) => c.dueDate)).toEqual(['2027-01-10', '2027-02-10']);
    expect(p.create.map((c) => c.dueDate)).toEqual(['2027-03-10']);
    expect(MIN_LEAD_DAYS).toBe(2);
    // One day later the March cycle is also too late.
    expect(planCycles(r, '2027-03-09', 3).create).toEqual([]);
  });

  it('adjusts the due date before counting the lead days (Carnival 2027 with MOVE_FORWARD)', () => {
    const r = { ...base, dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY' as const, firstDueDate: '2027-02-08', nextCycle: 0 };
    // 8 and 9 Feb 2027 are Carnival: due 10 Feb, sent 7 Feb.
    expect(sendDateOfCycle(r, 0, 3)).toBe('2027-02-07');
    expect(planCycles(r, '2027-02-07', 3).create[0]).toMatchObject({ nominalDueDate: '2027-02-08', dueDate: '2027-02-10' });
  });

  it('has no next send date after the expiration date', () => {
    const r = { ...base, firstDueDate: '2027-03-10', expirationDate: '2027-04-10', nextCycle: 0 };
    expect(planCycles(r, '2027-04-07', 3)).toMatchObject({ nextCycle: 2, nextSendDate: null });
  });

  it('backs off 1, 3, 9… times the base, capped', () => {
    expect([1, 2, 3, 4, 9].map((n) => retryDelayMs(n, 1000, 20000))).toEqual([1000, 3000, 9000, 20000, 20000]);
  });
});
