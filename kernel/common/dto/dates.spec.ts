import { daysInMonth } from '../calendar/business-days';
import { isIsoDate } from './dates';

/** What a date string means to the JavaScript Date (the definition isIsoDate used to compute per call). */
function realByDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

describe('isIsoDate', () => {
  it('agrees with the Date definition on every month and day number of common, leap and century years', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    let real = 0;
    const disagree: string[] = [];
    for (const year of ['0000', '0004', '0100', '1582', '1900', '2000', '2024', '2026', '2100', '2400', '9999']) {
      for (let m = 0; m <= 99; m++) {
        for (let d = 0; d <= 99; d++) {
          const v = `${year}-${two(m)}-${two(d)}`;
          if (isIsoDate(v) !== realByDate(v)) disagree.push(v);
          if (realByDate(v)) real++;
        }
      }
    }
    expect(disagree).toEqual([]);
    expect(real).toBe(11 * 365 + 5); // leap: 0000, 0004, 2000, 2024, 2400 (not 0100, 1900, 2100)
  });

  it('refuses what is not a YYYY-MM-DD string', () => {
    for (const v of [
      '2026-1-01',
      '2026-01-1',
      '26-01-01',
      '2026/01/01',
      '2026-01-01T00:00:00Z',
      ' 2026-01-01',
      '2026-01-01\n',
      '２０２６-01-01',
      20260101,
      null,
      undefined,
      {},
    ]) {
      expect(isIsoDate(v)).toBe(false);
    }
  });
});

describe('daysInMonth', () => {
  it("agrees with the Date's calendar for every month of 1583 to 3000", () => {
    const disagree: string[] = [];
    for (let y = 1583; y <= 3000; y++)
      for (let m = 1; m <= 12; m++) if (daysInMonth(y, m) !== new Date(Date.UTC(y, m, 0)).getUTCDate()) disagree.push(`${y}-${m}`);
    expect(disagree).toEqual([]);
  });
});
