import { Clock } from '../../kernel/platform/clock/clock';
import { devConfigProblems } from '../support/config-problems';
import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { createLink, pay, PAYER } from './support';

/**
 * An independent oracle for late-year dates: there, the only national bank holidays are fixed
 * dates (the Easter-based ones fall in February to June), so weekends and this list suffice.
 */
const FIXED_HOLIDAYS = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '11-20', '12-25'];
function day(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}
function weekday(iso: string): number {
  return day(iso).getUTCDay();
}
function plusBusinessDays(iso: string, n: number): string {
  let d = iso;
  while (n > 0) {
    d = new Date(day(d).getTime() + 86_400_000).toISOString().slice(0, 10);
    if (weekday(d) !== 0 && weekday(d) !== 6 && !FIXED_HOLIDAYS.includes(d.slice(5))) n--;
  }
  return d;
}

describe('boleto due dates fall on business days', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  let slug: string;

  /** Moves the test clock forward to noon (São Paulo) of `date`. */
  async function clockTo(date: string): Promise<void> {
    const target = Date.parse(`${date}T12:00:00-03:00`);
    const now = t.app.get(Clock).now().getTime();
    expect(target).toBeGreaterThan(now);
    await t.advanceClock(target - now);
    expect(t.app.get(Clock).today()).toBe(date);
  }

  const boletoDue = async (): Promise<string> => {
    const r = await pay(t, slug, { method: 'BOLETO', payer: PAYER() });
    expect(r.body.boleto).toMatchObject({ dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    return r.body.boleto.dueDate;
  };

  // The first Friday of December of the coming year end, then Christmas Eve of that year.
  const today = new Date().toISOString().slice(0, 10);
  const year = today < `${new Date().getUTCFullYear()}-11-30` ? new Date().getUTCFullYear() : new Date().getUTCFullYear() + 1;
  let friday = `${year}-12-01`;
  while (weekday(friday) !== 5) friday = new Date(day(friday).getTime() + 86_400_000).toISOString().slice(0, 10);
  const christmasEve = `${year}-12-24`;

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_ACQUIRER_TICK_MS: '60000', LINKS_TICK_MS: '60000' } });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
    slug = (await createLink(t, a.auth, { amount: 50, paymentMethods: ['BOLETO'] })).slug;
  });
  afterAll(() => t.close());

  it('issued on a Friday: due three business days later, the Wednesday (not the Monday three calendar days give)', async () => {
    await clockTo(friday);
    const due = await boletoDue();
    expect(weekday(due)).toBe(3);
    expect(due).toBe(plusBusinessDays(friday, 3));
    expect(Math.round((day(due).getTime() - day(friday).getTime()) / 86_400_000)).toBe(5);
  });

  it('issued the day before a holiday: the holiday and the weekend are not counted', async () => {
    await clockTo(christmasEve);
    const due = await boletoDue();
    expect(due).toBe(plusBusinessDays(christmasEve, 3));
    expect(due > `${year}-12-27`).toBe(true);
    expect([0, 6]).not.toContain(weekday(due));
  });

  it('the OpenAPI document states the rule on the due date', async () => {
    const doc = (await http(t.url, 'GET', '/docs-json')).body;
    expect(doc.components.schemas.CheckoutBoletoDto.properties.dueDate.description).toMatch(
      /LINKS_BOLETO_DUE_BUSINESS_DAYS business days \(3 by default\).*holidays are not counted/,
    );
  });

  it('LINKS_BOLETO_DUE_BUSINESS_DAYS is validated at boot; the old calendar-day setting is refused, not silently reinterpreted', () => {
    const problems = devConfigProblems;
    expect(problems({ LINKS_BOLETO_DUE_BUSINESS_DAYS: 'three' })).toEqual([
      'LINKS_BOLETO_DUE_BUSINESS_DAYS must be an integer, got "three"',
    ]);
    expect(problems({ LINKS_BOLETO_DUE_DAYS: '3' })).toEqual([
      expect.stringMatching(/^LINKS_BOLETO_DUE_DAYS is no longer read.*LINKS_BOLETO_DUE_BUSINESS_DAYS/),
    ]);
    expect(problems({ LINKS_BOLETO_DUE_BUSINESS_DAYS: '5' })).toEqual([]);
  });
});
