import { planCycles } from './schedule';
import { sendDays, sendVerdict, startOfSaoPauloDay } from './send-window';

describe('send window', () => {
  const w = { minDays: 2, maxDays: 10 };

  it('with pix-api, sends from 10 to 2 days before the due date, waits before, closes after', () => {
    expect(sendDays('2027-03-20', w)).toEqual({ first: '2027-03-10', last: '2027-03-18' });
    expect(sendVerdict('2027-03-20', '2027-03-09', w)).toEqual({ kind: 'wait', until: '2027-03-10' });
    expect(sendVerdict('2027-03-20', '2027-03-10', w)).toEqual({ kind: 'send' });
    expect(sendVerdict('2027-03-20', '2027-03-18', w)).toEqual({ kind: 'send' });
    expect(sendVerdict('2027-03-20', '2027-03-19', w)).toMatchObject({
      kind: 'closed',
      reason: expect.stringContaining('send window closed'),
    });
  });

  it("with the service provider, sends any time up to the due date (today's behaviour)", () => {
    expect(sendVerdict('2027-03-20', '2027-01-01', null)).toEqual({ kind: 'send' });
    expect(sendVerdict('2027-03-20', '2027-03-20', null)).toEqual({ kind: 'send' });
    expect(sendVerdict('2027-03-20', '2027-03-21', null)).toMatchObject({
      kind: 'closed',
      reason: 'due date passed before the billing could be sent',
    });
  });

  it('waits until midnight in São Paulo', () => {
    expect(startOfSaoPauloDay('2027-03-10').toISOString()).toBe('2027-03-10T03:00:00.000Z');
  });

  it('skips a cycle with fewer than the window minimum left (a wider minimum skips earlier)', () => {
    const r = {
      periodicity: 'MONTHLY' as const,
      dayAdjustment: 'KEEP_DUE_DATE' as const,
      expirationDate: null,
      firstDueDate: '2027-03-10',
      nextCycle: 0,
    };
    expect(planCycles(r, '2027-03-07', 4, 3).create.map((c) => c.dueDate)).toEqual(['2027-03-10']);
    expect(planCycles(r, '2027-03-08', 4, 3).skip.map((c) => c.dueDate)).toEqual(['2027-03-10']);
  });
});
