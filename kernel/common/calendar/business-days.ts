import { CodedError } from '../formats/coded-error';
/**
 * Business days in Brazil: civil dates written 'YYYY-MM-DD', Brazilian national bank holidays,
 * business-day arithmetic and the civil date of an instant in a zone. Pure, shared by features
 * (Pix Automático's billing calendar, boleto due dates), so it lives in common.
 *
 * Internally a date is its day number (days since 1970-01-01) computed with Date.UTC, so no local
 * time zone or DST can shift a day. Only `todayIn` looks at an instant, and it resolves the zone
 * explicitly through Intl.
 *
 * Malformed input (not a real date, negative count) is a programming error of the caller,
 * reported with {@link CalendarInputError}; nothing here encodes a business refusal.
 */
/** Nov 20 (Black Consciousness Day) is a national holiday from this year on (Law 14,759/2023). */
export const NOV_20_FIRST_YEAR = 2024;

/** 'YYYY-MM-DD'. */
export type IsoDate = string;

export type CalendarInputErrorCode =
  | 'INVALID_DATE'
  | 'INVALID_YEAR'
  | 'INVALID_COUNT'
  | 'INVALID_PERIODICITY'
  | 'INVALID_DAY_ADJUSTMENT'
  | 'INVALID_TIME_ZONE'
  | 'INVALID_INSTANT';

export class CalendarInputError extends CodedError<CalendarInputErrorCode> {
  constructor(code: CalendarInputErrorCode, message: string) {
    super(code, message);
  }
}

const MS_PER_DAY = 86_400_000;
/** Gregorian Easter computus is valid from 1583; 4-digit years keep the format fixed-width. */
const MIN_YEAR = 1583;
export const MAX_YEAR = 9999;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

// ---------------------------------------------------------------------------------------------
// Day numbers

function assertYear(year: number): void {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new CalendarInputError('INVALID_YEAR', `year must be an integer in ${MIN_YEAR}..${MAX_YEAR}: ${year}`);
  }
}

export function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new CalendarInputError('INVALID_COUNT', `${name} must be a non-negative integer: ${value}`);
  }
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether `year` of the (proleptic) Gregorian calendar has a 29 February. */
export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days in month `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1];
}

export function dayNumberOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/**
 * The year, month and day of a real calendar date written YYYY-MM-DD (years 0000 to 9999), or
 * null. The digits are read in place (no match array, no substrings): every date a request
 * carries is read here, by validation and by the calendar.
 */
export function isoDateParts(value: unknown): { year: number; month: number; day: number } | null {
  if (typeof value !== 'string' || !DATE_RE.test(value)) return null;
  const digit = (i: number) => value.charCodeAt(i) - 48;
  const year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
  const month = digit(5) * 10 + digit(6);
  const day = digit(8) * 10 + digit(9);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) ? { year, month, day } : null;
}

/** The parts and day number of a real date; CalendarInputError otherwise. */
export function parseDate(date: IsoDate, name = 'date'): { year: number; month: number; day: number; dayNumber: number } {
  const p = isoDateParts(date);
  if (p && p.year >= MIN_YEAR) return { ...p, dayNumber: dayNumberOf(p.year, p.month, p.day) };
  throw new CalendarInputError('INVALID_DATE', `${name} must be a real date written YYYY-MM-DD: ${String(date)}`);
}

/** The date of a day number. */
export function formatDayNumber(dayNumber: number): IsoDate {
  const d = new Date(dayNumber * MS_PER_DAY);
  const year = d.getUTCFullYear();
  if (year < MIN_YEAR || year > MAX_YEAR) {
    throw new CalendarInputError('INVALID_DATE', `date out of range ${MIN_YEAR}..${MAX_YEAR}`);
  }
  return `${String(year).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** True when `value` is a real date written 'YYYY-MM-DD' (e.g. '2027-02-29' is false). */
export function isValidDate(value: unknown): value is IsoDate {
  try {
    parseDate(value as IsoDate);
    return true;
  } catch {
    return false;
  }
}

export function addDays(date: IsoDate, days: number): IsoDate {
  if (!Number.isSafeInteger(days)) throw new CalendarInputError('INVALID_COUNT', `days must be an integer: ${days}`);
  return formatDayNumber(parseDate(date).dayNumber + days);
}

/** -1, 0 or 1 as `a` is before, equal to or after `b`. */
export function compareDates(a: IsoDate, b: IsoDate): -1 | 0 | 1 {
  const x = parseDate(a, 'a').dayNumber;
  const y = parseDate(b, 'b').dayNumber;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: IsoDate): number {
  // 1970-01-01 (day 0) was a Thursday.
  return (((parseDate(date).dayNumber + 4) % 7) + 7) % 7;
}

// ---------------------------------------------------------------------------------------------
// Holidays

/** Easter Sunday of the Gregorian calendar (anonymous Gregorian / Meeus-Jones-Butcher algorithm). */
export function easterSunday(year: number): IsoDate {
  assertYear(year);
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return formatDayNumber(dayNumberOf(year, month, day));
}

const FIXED_HOLIDAYS: readonly (readonly [month: number, day: number])[] = [
  [1, 1], // Confraternização Universal
  [4, 21], // Tiradentes
  [5, 1], // Dia do Trabalho
  [9, 7], // Independência
  [10, 12], // Nossa Senhora Aparecida
  [11, 2], // Finados
  [11, 15], // Proclamação da República
  [12, 25], // Natal
];

/** Offsets from Easter Sunday of the movable bank holidays. */
const EASTER_OFFSETS: readonly number[] = [
  -48, // Carnival Monday
  -47, // Carnival Tuesday
  -2, // Good Friday
  60, // Corpus Christi
];

const holidayCache = new Map<number, ReadonlySet<IsoDate>>();

/**
 * Brazilian national bank holidays of `year`: the fixed national holidays, Nov 20 from 2024,
 * Carnival Monday and Tuesday, Good Friday and Corpus Christi. Ash Wednesday (banks open at
 * noon) is a business day. State and municipal holidays are not included. Memoized per year.
 */
export function nationalBankHolidays(year: number): ReadonlySet<IsoDate> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  assertYear(year);
  const days: IsoDate[] = FIXED_HOLIDAYS.map(([month, day]) => formatDayNumber(dayNumberOf(year, month, day)));
  if (year >= NOV_20_FIRST_YEAR) days.push(formatDayNumber(dayNumberOf(year, 11, 20)));
  const easter = parseDate(easterSunday(year)).dayNumber;
  for (const offset of EASTER_OFFSETS) days.push(formatDayNumber(easter + offset));
  const set: ReadonlySet<IsoDate> = new Set(days.sort());
  holidayCache.set(year, set);
  return set;
}

export function isHoliday(date: IsoDate): boolean {
  const { year } = parseDate(date);
  return nationalBankHolidays(year).has(date);
}

/** Monday to Friday and not a national bank holiday. */
export function isBusinessDay(date: IsoDate): boolean {
  const weekday = dayOfWeek(date);
  return weekday !== 0 && weekday !== 6 && !isHoliday(date);
}

/** Moves `date` by whole days in `step` (+1 or -1) until it lands on a business day. */
export function nearestBusinessDay(date: IsoDate, step: 1 | -1): IsoDate {
  let current = date;
  // The longest run of non-business days is a few days (e.g. Sat, Sun, Carnival Mon, Tue);
  // the bound only guards against a broken holiday table.
  for (let i = 0; i < 31; i++) {
    if (isBusinessDay(current)) return current;
    current = addDays(current, step);
  }
  throw new CalendarInputError('INVALID_DATE', `no business day within 31 days of ${date}`);
}

// ---------------------------------------------------------------------------------------------
// Today

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        calendar: 'gregory',
        numberingSystem: 'latn',
      });
    } catch {
      throw new CalendarInputError('INVALID_TIME_ZONE', `unknown time zone: ${timeZone}`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The civil date of the instant `now` in `timeZone` (e.g. 'America/Sao_Paulo'). */
export function todayIn(timeZone: string, now: Date): IsoDate {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new CalendarInputError('INVALID_INSTANT', 'now must be a valid Date');
  }
  const parts = formatterFor(timeZone).formatToParts(now);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const date = `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
  parseDate(date);
  return date;
}

/**
 * The date `count` business days after `date` (count 0: `date` itself when it is a business
 * day, else the next one). Counting starts the day after `date`, so a count of 3 from a Friday
 * is the next Wednesday, and a holiday in between is skipped.
 */
export function addBusinessDays(date: IsoDate, count: number): IsoDate {
  assertCount('count', count);
  if (count === 0) return nearestBusinessDay(date, 1);
  let current = date;
  for (let left = count; left > 0;) {
    current = addDays(current, 1);
    if (isBusinessDay(current)) left--;
  }
  return current;
}
