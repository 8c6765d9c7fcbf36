import { CalendarInputError, cycleDueDate, cyclesDueBy, DayAdjustment, MAX_CYCLES_PER_CALL, Periodicity, sendDate } from './calendar';

// Every expected date below is written out literally, never produced by the code under test.

const F = DayAdjustment.MOVE_FORWARD_NEXT_BUSINESS_DAY;
const B = DayAdjustment.MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY;
const K = DayAdjustment.KEEP_DUE_DATE;

function cycles(first: string, periodicity: Periodicity, count: number): string[] {
  return Array.from({ length: count }, (_, n) => cycleDueDate(first, periodicity, n));
}

describe('cycleDueDate over 14 months from 2026-05-30 (through 2027-07-30)', () => {
  const START = '2026-05-30';

  it('MONTHLY', () => {
    expect(cycles(START, 'MONTHLY', 15)).toEqual([
      '2026-05-30',
      '2026-06-30',
      '2026-07-30',
      '2026-08-30',
      '2026-09-30',
      '2026-10-30',
      '2026-11-30',
      '2026-12-30',
      '2027-01-30',
      '2027-02-28',
      '2027-03-30',
      '2027-04-30',
      '2027-05-30',
      '2027-06-30',
      '2027-07-30',
    ]);
  });

  it('BIMONTHLY', () => {
    expect(cycles(START, 'BIMONTHLY', 8)).toEqual([
      '2026-05-30',
      '2026-07-30',
      '2026-09-30',
      '2026-11-30',
      '2027-01-30',
      '2027-03-30',
      '2027-05-30',
      '2027-07-30',
    ]);
  });

  it('QUARTERLY (Feb clamps to 28, May returns to 30)', () => {
    expect(cycles(START, 'QUARTERLY', 5)).toEqual(['2026-05-30', '2026-08-30', '2026-11-30', '2027-02-28', '2027-05-30']);
  });

  it('BIANNUAL', () => {
    expect(cycles(START, 'BIANNUAL', 3)).toEqual(['2026-05-30', '2026-11-30', '2027-05-30']);
  });

  it('ANNUAL', () => {
    expect(cycles(START, 'ANNUAL', 2)).toEqual(['2026-05-30', '2027-05-30']);
  });

  it('WEEKLY (61 cycles)', () => {
    expect(cycles(START, 'WEEKLY', 61)).toEqual([
      '2026-05-30',
      '2026-06-06',
      '2026-06-13',
      '2026-06-20',
      '2026-06-27',
      '2026-07-04',
      '2026-07-11',
      '2026-07-18',
      '2026-07-25',
      '2026-08-01',
      '2026-08-08',
      '2026-08-15',
      '2026-08-22',
      '2026-08-29',
      '2026-09-05',
      '2026-09-12',
      '2026-09-19',
      '2026-09-26',
      '2026-10-03',
      '2026-10-10',
      '2026-10-17',
      '2026-10-24',
      '2026-10-31',
      '2026-11-07',
      '2026-11-14',
      '2026-11-21',
      '2026-11-28',
      '2026-12-05',
      '2026-12-12',
      '2026-12-19',
      '2026-12-26',
      '2027-01-02',
      '2027-01-09',
      '2027-01-16',
      '2027-01-23',
      '2027-01-30',
      '2027-02-06',
      '2027-02-13',
      '2027-02-20',
      '2027-02-27',
      '2027-03-06',
      '2027-03-13',
      '2027-03-20',
      '2027-03-27',
      '2027-04-03',
      '2027-04-10',
      '2027-04-17',
      '2027-04-24',
      '2027-05-01',
      '2027-05-08',
      '2027-05-15',
      '2027-05-22',
      '2027-05-29',
      '2027-06-05',
      '2027-06-12',
      '2027-06-19',
      '2027-06-26',
      '2027-07-03',
      '2027-07-10',
      '2027-07-17',
      '2027-07-24',
    ]);
  });

  it.each([
    [0, '2026-05-30'],
    [1, '2026-05-31'],
    [2, '2026-06-01'],
    [215, '2026-12-31'],
    [216, '2027-01-01'],
    [275, '2027-03-01'],
    [426, '2027-07-30'],
  ])('DAILY cycle %i is %s', (n, expected) => {
    expect(cycleDueDate(START, 'DAILY', n)).toBe(expected);
  });
});

describe('cycleDueDate month-end anchors', () => {
  it('31 Jan monthly clamps to the last day, never cumulatively', () => {
    expect(cycles('2026-01-31', 'MONTHLY', 15)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
    ]);
    expect(cycles('2027-12-31', 'MONTHLY', 3)).toEqual(['2027-12-31', '2028-01-31', '2028-02-29']);
  });

  it('29 Feb annual (2028 leap): 28 Feb in common years, 29 Feb in leap years', () => {
    expect(cycles('2028-02-29', 'ANNUAL', 6)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29', '2033-02-28']);
  });

  it('29 Feb monthly keeps day 29 afterwards', () => {
    expect(cycles('2024-02-29', 'MONTHLY', 13)).toEqual([
      '2024-02-29',
      '2024-03-29',
      '2024-04-29',
      '2024-05-29',
      '2024-06-29',
      '2024-07-29',
      '2024-08-29',
      '2024-09-29',
      '2024-10-29',
      '2024-11-29',
      '2024-12-29',
      '2025-01-29',
      '2025-02-28',
    ]);
  });

  it('30 Nov quarterly, 31 Aug biannual, 31 Dec bimonthly', () => {
    expect(cycles('2026-11-30', 'QUARTERLY', 5)).toEqual(['2026-11-30', '2027-02-28', '2027-05-30', '2027-08-30', '2027-11-30']);
    expect(cycles('2026-08-31', 'BIANNUAL', 4)).toEqual(['2026-08-31', '2027-02-28', '2027-08-31', '2028-02-29']);
    expect(cycles('2026-12-31', 'BIMONTHLY', 5)).toEqual(['2026-12-31', '2027-02-28', '2027-04-30', '2027-06-30', '2027-08-31']);
  });

  it('rejects bad input', () => {
    expect(() => cycleDueDate('2026-01-31', 'MONTHLY', -1)).toThrow(CalendarInputError);
    expect(() => cycleDueDate('2026-01-31', 'MONTHLY', 1.5)).toThrow(CalendarInputError);
    expect(() => cycleDueDate('2026-01-31', 'FORTNIGHTLY' as Periodicity, 1)).toThrow(CalendarInputError);
    expect(() => cycleDueDate('2026-02-31', 'MONTHLY', 1)).toThrow(CalendarInputError);
    expect(() => cycleDueDate('2026-01-31', 'ANNUAL', 10_000)).toThrow(CalendarInputError);
  });
});

describe('sendDate', () => {
  it.each([
    ['2026-11-23', 3, '2026-11-20'],
    ['2027-03-01', 2, '2027-02-27'],
    ['2028-03-01', 2, '2028-02-28'],
    ['2027-01-04', 10, '2026-12-25'],
    ['2027-01-04', 0, '2027-01-04'],
  ])('sendDate(%s, %i) = %s (calendar days)', (due, lead, expected) => {
    expect(sendDate(due, lead)).toBe(expected);
  });

  it('rejects a negative lead', () => {
    expect(() => sendDate('2027-01-04', -1)).toThrow(CalendarInputError);
  });
});

const row = (cycle: number, nominalDueDate: string, dueDate: string, send: string) => ({
  cycle,
  nominalDueDate,
  dueDate,
  sendDate: send,
});

describe('cyclesDueBy', () => {
  // Monthly from Fri 2026-11-20 (holiday), lead 3.
  it('nothing is due before the first send date', () => {
    expect(cyclesDueBy('2026-11-20', 'MONTHLY', F, null, 3, '2026-11-19', 0)).toEqual([]);
  });

  it('includes a cycle on its send date, forward adjustment', () => {
    expect(cyclesDueBy('2026-11-20', 'MONTHLY', F, null, 3, '2026-11-20', 0)).toEqual([row(0, '2026-11-20', '2026-11-23', '2026-11-20')]);
    expect(cyclesDueBy('2026-11-20', 'MONTHLY', F, null, 3, '2026-12-18', 0)).toEqual([
      row(0, '2026-11-20', '2026-11-23', '2026-11-20'),
      row(1, '2026-12-20', '2026-12-21', '2026-12-18'),
    ]);
  });

  it('starts at fromCycle', () => {
    expect(cyclesDueBy('2026-11-20', 'MONTHLY', F, null, 3, '2027-02-19', 1)).toEqual([
      row(1, '2026-12-20', '2026-12-21', '2026-12-18'),
      row(2, '2027-01-20', '2027-01-20', '2027-01-17'),
      row(3, '2027-02-20', '2027-02-22', '2027-02-19'),
    ]);
  });

  it('backward adjustment moves the send date earlier', () => {
    expect(cyclesDueBy('2026-11-20', 'MONTHLY', B, null, 3, '2026-12-15', 0)).toEqual([
      row(0, '2026-11-20', '2026-11-19', '2026-11-16'),
      row(1, '2026-12-20', '2026-12-18', '2026-12-15'),
    ]);
    expect(cyclesDueBy('2027-02-09', 'MONTHLY', B, null, 3, '2027-02-02', 0)).toEqual([row(0, '2027-02-09', '2027-02-05', '2027-02-02')]);
    expect(cyclesDueBy('2027-02-09', 'MONTHLY', B, null, 3, '2027-02-01', 0)).toEqual([]);
  });

  it('keep adjustment leaves holidays and weekends', () => {
    expect(cyclesDueBy('2026-11-20', 'MONTHLY', K, null, 3, '2026-12-17', 0)).toEqual([
      row(0, '2026-11-20', '2026-11-20', '2026-11-17'),
      row(1, '2026-12-20', '2026-12-20', '2026-12-17'),
    ]);
  });

  it.each([
    ['2027-03-09', 3],
    ['2027-03-08', 2],
    ['2027-01-09', 1],
    ['2027-01-08', 0],
  ])('expirationDate %s compares with the nominal due date: %i cycles', (expirationDate, count) => {
    const all = [
      row(0, '2027-01-09', '2027-01-11', '2027-01-09'),
      row(1, '2027-02-09', '2027-02-10', '2027-02-08'),
      row(2, '2027-03-09', '2027-03-09', '2027-03-07'),
    ];
    expect(cyclesDueBy('2027-01-09', 'MONTHLY', F, expirationDate, 2, '2030-01-01', 0)).toEqual(all.slice(0, count));
  });

  it('29 Feb annual across Carnival 2028 and a Sunday in 2032', () => {
    expect(cyclesDueBy('2028-02-29', 'ANNUAL', F, null, 3, '2032-03-01', 0)).toEqual([
      row(0, '2028-02-29', '2028-03-01', '2028-02-27'), // Carnival Tuesday 2028
      row(1, '2029-02-28', '2029-02-28', '2029-02-25'),
      row(2, '2030-02-28', '2030-02-28', '2030-02-25'),
      row(3, '2031-02-28', '2031-02-28', '2031-02-25'),
      row(4, '2032-02-29', '2032-03-01', '2032-02-27'), // Sunday
    ]);
  });

  it('weekly with a 10-day lead, across Christmas, New Year and Carnival 2027', () => {
    expect(cyclesDueBy('2027-01-04', 'WEEKLY', F, null, 10, '2027-02-01', 0)).toEqual([
      row(0, '2027-01-04', '2027-01-04', '2026-12-25'),
      row(1, '2027-01-11', '2027-01-11', '2027-01-01'),
      row(2, '2027-01-18', '2027-01-18', '2027-01-08'),
      row(3, '2027-01-25', '2027-01-25', '2027-01-15'),
      row(4, '2027-02-01', '2027-02-01', '2027-01-22'),
      row(5, '2027-02-08', '2027-02-10', '2027-01-31'),
    ]);
  });

  it('daily cycles over a weekend share the Monday due date but stay distinct cycles', () => {
    expect(cyclesDueBy('2026-03-06', 'DAILY', F, null, 2, '2026-03-07', 0)).toEqual([
      row(0, '2026-03-06', '2026-03-06', '2026-03-04'),
      row(1, '2026-03-07', '2026-03-09', '2026-03-07'),
      row(2, '2026-03-08', '2026-03-09', '2026-03-07'),
      row(3, '2026-03-09', '2026-03-09', '2026-03-07'),
    ]);
  });

  it(`is bounded to ${MAX_CYCLES_PER_CALL} cycles per call and resumes from the next cycle`, () => {
    const first = cyclesDueBy('2026-01-01', 'DAILY', K, null, 0, '2030-01-01', 0);
    expect(first).toHaveLength(400);
    expect(first[0]).toEqual(row(0, '2026-01-01', '2026-01-01', '2026-01-01'));
    expect(first[399]).toEqual(row(399, '2027-02-04', '2027-02-04', '2027-02-04'));
    const next = cyclesDueBy('2026-01-01', 'DAILY', K, null, 0, '2030-01-01', 400);
    expect(next).toHaveLength(400);
    expect(next[0]).toEqual(row(400, '2027-02-05', '2027-02-05', '2027-02-05'));
    expect(next[399]).toEqual(row(799, '2028-03-10', '2028-03-10', '2028-03-10'));
    expect(cyclesDueBy('2026-01-01', 'DAILY', K, null, 0, '2030-01-01', 0, 5).map((c) => c.cycle)).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops at today below the bound', () => {
    const due = cyclesDueBy('2026-01-01', 'DAILY', K, null, 0, '2026-03-01', 0);
    expect(due).toHaveLength(60);
    expect(due[59]).toEqual(row(59, '2026-03-01', '2026-03-01', '2026-03-01'));
  });

  it('rejects bad input', () => {
    expect(() => cyclesDueBy('2026-01-01', 'DAILY', K, null, -1, '2026-03-01', 0)).toThrow(CalendarInputError);
    expect(() => cyclesDueBy('2026-01-01', 'DAILY', K, null, 0, '2026-03-01', -1)).toThrow(CalendarInputError);
    expect(() => cyclesDueBy('2026-01-01', 'DAILY', K, '2026-13-01', 0, '2026-03-01', 0)).toThrow(CalendarInputError);
    expect(() => cyclesDueBy('2026-01-01', 'DAILY', 'X' as DayAdjustment, null, 0, '2026-03-01', 0)).toThrow(CalendarInputError);
    expect(() => cyclesDueBy('2026-01-01', 'DAILY', K, null, 0, 'today', 0)).toThrow(CalendarInputError);
  });
});
