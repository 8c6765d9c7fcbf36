import {
  addDays,
  adjustDueDate,
  CalendarInputError,
  compareDates,
  DayAdjustment,
  dayOfWeek,
  easterSunday,
  isBusinessDay,
  isHoliday,
  isValidDate,
  nationalBankHolidays,
  SERVICE_TIME_ZONE,
  todayIn,
} from './calendar';

// Every expected date below is written out literally (checked against a printed calendar and
// an independent implementation), never produced by the code under test.

describe('easterSunday', () => {
  it.each([
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2028, '2028-04-16'],
    [2029, '2029-04-01'],
    [2030, '2030-04-21'],
    [2019, '2019-04-21'],
    [2038, '2038-04-25'], // latest possible date
    [2285, '2285-03-22'], // earliest possible date
  ])('Easter %i is %s', (year, expected) => {
    expect(easterSunday(year)).toBe(expected);
  });

  it.each([0, 1582, 10000, 2026.5, NaN])('rejects year %p', (year) => {
    expect(() => easterSunday(year)).toThrow(CalendarInputError);
  });
});

describe('nationalBankHolidays', () => {
  it('2026', () => {
    expect([...nationalBankHolidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-02-16', // Carnival Monday
      '2026-02-17', // Carnival Tuesday
      '2026-04-03', // Good Friday
      '2026-04-21',
      '2026-05-01',
      '2026-06-04', // Corpus Christi
      '2026-09-07',
      '2026-10-12',
      '2026-11-02',
      '2026-11-15',
      '2026-11-20',
      '2026-12-25',
    ]);
  });

  it('2027', () => {
    expect([...nationalBankHolidays(2027)].sort()).toEqual([
      '2027-01-01',
      '2027-02-08',
      '2027-02-09',
      '2027-03-26',
      '2027-04-21',
      '2027-05-01',
      '2027-05-27',
      '2027-09-07',
      '2027-10-12',
      '2027-11-02',
      '2027-11-15',
      '2027-11-20',
      '2027-12-25',
    ]);
  });

  it('2023 has no Nov 20 (national holiday from 2024 on)', () => {
    expect([...nationalBankHolidays(2023)].sort()).toEqual([
      '2023-01-01',
      '2023-02-20',
      '2023-02-21',
      '2023-04-07',
      '2023-04-21',
      '2023-05-01',
      '2023-06-08',
      '2023-09-07',
      '2023-10-12',
      '2023-11-02',
      '2023-11-15',
      '2023-12-25',
    ]);
    expect(nationalBankHolidays(2024).has('2024-11-20')).toBe(true);
  });

  it('is memoized per year', () => {
    expect(nationalBankHolidays(2031)).toBe(nationalBankHolidays(2031));
  });
});

describe('dayOfWeek / isHoliday / isBusinessDay', () => {
  it.each([
    ['1970-01-01', 4],
    ['2026-11-20', 5],
    ['2027-11-20', 6],
    ['2027-03-28', 0],
    ['2028-02-29', 2],
    ['1969-12-31', 3],
  ])('dayOfWeek(%s) = %i', (date, weekday) => {
    expect(dayOfWeek(date)).toBe(weekday);
  });

  it.each([
    ['2027-02-05', true], // Friday before Carnival
    ['2027-02-06', false], // Saturday
    ['2027-02-07', false], // Sunday
    ['2027-02-08', false], // Carnival Monday
    ['2027-02-09', false], // Carnival Tuesday
    ['2027-02-10', true], // Ash Wednesday: banks open
    ['2027-03-25', true],
    ['2027-03-26', false], // Good Friday
    ['2027-05-27', false], // Corpus Christi
    ['2027-05-28', true],
    ['2026-11-20', false], // Friday, holiday
    ['2027-11-19', true],
    ['2023-11-20', true], // Monday, before Nov 20 became national
    ['2026-12-24', true],
    ['2026-12-31', true],
    ['2027-01-01', false],
    ['2026-03-09', true],
  ])('isBusinessDay(%s) = %p', (date, expected) => {
    expect(isBusinessDay(date)).toBe(expected);
  });

  it('isHoliday is true only for holidays, not for weekends', () => {
    expect(isHoliday('2027-02-08')).toBe(true);
    expect(isHoliday('2027-02-06')).toBe(false);
  });
});

describe('adjustDueDate', () => {
  const F = DayAdjustment.MOVE_FORWARD_NEXT_BUSINESS_DAY;
  const B = DayAdjustment.MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY;
  const K = DayAdjustment.KEEP_DUE_DATE;

  // [date, forward, backward]; KEEP_DUE_DATE always returns the date itself.
  it.each([
    // Carnival 2027 (Mon 8, Tue 9 Feb) after a weekend
    ['2027-02-05', '2027-02-05', '2027-02-05'],
    ['2027-02-06', '2027-02-10', '2027-02-05'],
    ['2027-02-07', '2027-02-10', '2027-02-05'],
    ['2027-02-08', '2027-02-10', '2027-02-05'],
    ['2027-02-09', '2027-02-10', '2027-02-05'],
    ['2027-02-10', '2027-02-10', '2027-02-10'],
    // Good Friday 2027 (26 Mar) before a weekend
    ['2027-03-26', '2027-03-29', '2027-03-25'],
    ['2027-03-27', '2027-03-29', '2027-03-25'],
    ['2027-03-28', '2027-03-29', '2027-03-25'],
    // Corpus Christi 2027 (Thu 27 May)
    ['2027-05-27', '2027-05-28', '2027-05-26'],
    ['2027-05-29', '2027-05-31', '2027-05-28'],
    // 20 Nov: 2026 Friday, 2027 Saturday
    ['2026-11-20', '2026-11-23', '2026-11-19'],
    ['2026-11-21', '2026-11-23', '2026-11-19'],
    ['2027-11-20', '2027-11-22', '2027-11-19'],
    ['2027-11-21', '2027-11-22', '2027-11-19'],
    ['2023-11-20', '2023-11-20', '2023-11-20'],
    // Plain weekend
    ['2026-03-07', '2026-03-09', '2026-03-06'],
    ['2026-03-08', '2026-03-09', '2026-03-06'],
    // Across the year boundary
    ['2027-01-01', '2027-01-04', '2026-12-31'],
    ['2028-01-01', '2028-01-03', '2027-12-31'],
    // Other 2026 holidays
    ['2026-02-16', '2026-02-18', '2026-02-13'],
    ['2026-04-03', '2026-04-06', '2026-04-02'],
    ['2026-06-04', '2026-06-05', '2026-06-03'],
    ['2026-09-07', '2026-09-08', '2026-09-04'],
    ['2026-11-02', '2026-11-03', '2026-10-30'],
    ['2026-11-15', '2026-11-16', '2026-11-13'],
  ])('%s -> forward %s, backward %s, keep itself', (date, forward, backward) => {
    expect(adjustDueDate(date, F)).toBe(forward);
    expect(adjustDueDate(date, B)).toBe(backward);
    expect(adjustDueDate(date, K)).toBe(date);
  });

  it('rejects an unknown adjustment and a malformed date', () => {
    expect(() => adjustDueDate('2027-02-08', 'NEAREST' as DayAdjustment)).toThrow(CalendarInputError);
    expect(() => adjustDueDate('2027-02-30', K)).toThrow(CalendarInputError);
  });
});

describe('date helpers', () => {
  it.each([
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-10-18', 1, '2026-10-19'], // old Brazilian DST start day: no shift in UTC arithmetic
    ['2026-05-30', 426, '2027-07-30'],
    ['2027-02-10', -3, '2027-02-07'],
    ['2027-02-10', 0, '2027-02-10'],
  ])('addDays(%s, %i) = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('compareDates', () => {
    expect(compareDates('2026-01-01', '2026-01-02')).toBe(-1);
    expect(compareDates('2026-01-02', '2026-01-02')).toBe(0);
    expect(compareDates('2027-01-01', '2026-12-31')).toBe(1);
    expect(() => compareDates('2026-1-2', '2026-01-02')).toThrow(CalendarInputError);
  });

  it.each(['2026-02-29', '2027-13-01', '2027-00-10', '2027-04-31', '27-04-01', '2027/04/01', '2027-04-01T00:00:00Z', '', ' 2027-04-01'])(
    'refuses %p as a date',
    (value) => {
      expect(isValidDate(value)).toBe(false);
      expect(() => addDays(value, 1)).toThrow(CalendarInputError);
    },
  );

  it('accepts real dates', () => {
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(isValidDate(20280229)).toBe(false);
  });

  it('carries a machine-readable code', () => {
    expect(() => addDays('nope', 1)).toThrow(expect.objectContaining({ name: 'CalendarInputError', code: 'INVALID_DATE' }));
    expect(() => addDays('2026-01-01', 1.5)).toThrow(CalendarInputError);
  });
});

describe('todayIn', () => {
  it.each([
    ['2026-03-01T02:59:59.999Z', '2026-02-28'], // 23:59:59 in São Paulo (UTC-3)
    ['2026-03-01T03:00:00.000Z', '2026-03-01'],
    ['2026-12-31T23:00:00.000Z', '2026-12-31'],
    ['2027-01-01T02:30:00.000Z', '2026-12-31'],
    ['2027-01-01T03:00:00.000Z', '2027-01-01'],
    ['2026-10-18T02:59:00.000Z', '2026-10-17'], // no DST since 2019
  ])('%s is %s in America/Sao_Paulo', (instant, expected) => {
    expect(todayIn(SERVICE_TIME_ZONE, new Date(instant))).toBe(expected);
  });

  it('works for other zones', () => {
    expect(todayIn('UTC', new Date('2026-03-01T02:59:59Z'))).toBe('2026-03-01');
    expect(todayIn('Asia/Tokyo', new Date('2026-02-28T15:00:00Z'))).toBe('2026-03-01');
  });

  it('rejects an unknown zone and an invalid instant', () => {
    expect(() => todayIn('Mars/Olympus_Mons', new Date())).toThrow(CalendarInputError);
    expect(() => todayIn(SERVICE_TIME_ZONE, new Date('nope'))).toThrow(CalendarInputError);
  });
});
