import { CodedError } from '../../common/formats/coded-error';
/**
 * Business-day calendar of the billing engine (ARCHITECTURE.md, "Billing engine calendar").
 *
 * Pure functions over civil dates written 'YYYY-MM-DD'. Internally a date is its day number
 * (days since 1970-01-01) computed with Date.UTC, so no local time zone or DST can shift a day.
 * Only `todayIn` looks at an instant, and it resolves the zone explicitly through Intl.
 *
 * Malformed input (not a real date, negative count, unknown enum) is a programming error of the
 * caller, reported with {@link CalendarInputError}; nothing here encodes a business refusal.
 */

export const Periodicity = {
  DAILY: 'DAILY',
  WEEKLY: 'WEEKLY',
  MONTHLY: 'MONTHLY',
  BIMONTHLY: 'BIMONTHLY',
  QUARTERLY: 'QUARTERLY',
  BIANNUAL: 'BIANNUAL',
  ANNUAL: 'ANNUAL',
} as const;
export type Periodicity = (typeof Periodicity)[keyof typeof Periodicity];

export const DayAdjustment = {
  MOVE_FORWARD_NEXT_BUSINESS_DAY: 'MOVE_FORWARD_NEXT_BUSINESS_DAY',
  MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY: 'MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY',
  KEEP_DUE_DATE: 'KEEP_DUE_DATE',
} as const;
export type DayAdjustment = (typeof DayAdjustment)[keyof typeof DayAdjustment];

/** The zone whose calendar day the engine works in. */
export const SERVICE_TIME_ZONE = 'America/Sao_Paulo';
/** Upper bound of cycles returned by one {@link cyclesDueBy} call. */
export const MAX_CYCLES_PER_CALL = 400;
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
const MAX_YEAR = 9999;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

const MONTHS_PER_CYCLE: Readonly<Record<Periodicity, number>> = {
  DAILY: 0,
  WEEKLY: 0,
  MONTHLY: 1,
  BIMONTHLY: 2,
  QUARTERLY: 3,
  BIANNUAL: 6,
  ANNUAL: 12,
};

// ---------------------------------------------------------------------------------------------
// Day numbers

function assertYear(year: number): void {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new CalendarInputError('INVALID_YEAR', `year must be an integer in ${MIN_YEAR}..${MAX_YEAR}: ${year}`);
  }
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new CalendarInputError('INVALID_COUNT', `${name} must be a non-negative integer: ${value}`);
  }
}

/** Days in month `month` (1-12) of `year`. */
function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function dayNumberOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

function parse(date: IsoDate, name = 'date'): { year: number; month: number; day: number; dayNumber: number } {
  const match = typeof date === 'string' ? DATE_RE.exec(date) : null;
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    const day = Number(match[3]);
    if (year >= MIN_YEAR && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) {
      return { year, month, day, dayNumber: dayNumberOf(year, month, day) };
    }
  }
  throw new CalendarInputError('INVALID_DATE', `${name} must be a real date written YYYY-MM-DD: ${String(date)}`);
}

function format(dayNumber: number): IsoDate {
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
    parse(value as IsoDate);
    return true;
  } catch {
    return false;
  }
}

export function addDays(date: IsoDate, days: number): IsoDate {
  if (!Number.isSafeInteger(days)) throw new CalendarInputError('INVALID_COUNT', `days must be an integer: ${days}`);
  return format(parse(date).dayNumber + days);
}

/** -1, 0 or 1 as `a` is before, equal to or after `b`. */
export function compareDates(a: IsoDate, b: IsoDate): -1 | 0 | 1 {
  const x = parse(a, 'a').dayNumber;
  const y = parse(b, 'b').dayNumber;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: IsoDate): number {
  // 1970-01-01 (day 0) was a Thursday.
  return (((parse(date).dayNumber + 4) % 7) + 7) % 7;
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
  return format(dayNumberOf(year, month, day));
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
  const days: IsoDate[] = FIXED_HOLIDAYS.map(([month, day]) => format(dayNumberOf(year, month, day)));
  if (year >= NOV_20_FIRST_YEAR) days.push(format(dayNumberOf(year, 11, 20)));
  const easter = parse(easterSunday(year)).dayNumber;
  for (const offset of EASTER_OFFSETS) days.push(format(easter + offset));
  const set: ReadonlySet<IsoDate> = new Set(days.sort());
  holidayCache.set(year, set);
  return set;
}

export function isHoliday(date: IsoDate): boolean {
  const { year } = parse(date);
  return nationalBankHolidays(year).has(date);
}

/** Monday to Friday and not a national bank holiday. */
export function isBusinessDay(date: IsoDate): boolean {
  const weekday = dayOfWeek(date);
  return weekday !== 0 && weekday !== 6 && !isHoliday(date);
}

/** Moves `date` by whole days in `step` (+1 or -1) until it lands on a business day. */
function nearestBusinessDay(date: IsoDate, step: 1 | -1): IsoDate {
  let current = date;
  // The longest run of non-business days is a few days (e.g. Sat, Sun, Carnival Mon, Tue);
  // the bound only guards against a broken holiday table.
  for (let i = 0; i < 31; i++) {
    if (isBusinessDay(current)) return current;
    current = addDays(current, step);
  }
  throw new CalendarInputError('INVALID_DATE', `no business day within 31 days of ${date}`);
}

/** The due date after applying the recurrence's dayAdjustment over weekends and bank holidays. */
export function adjustDueDate(date: IsoDate, dayAdjustment: DayAdjustment): IsoDate {
  switch (dayAdjustment) {
    case DayAdjustment.MOVE_FORWARD_NEXT_BUSINESS_DAY:
      return nearestBusinessDay(date, 1);
    case DayAdjustment.MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY:
      return nearestBusinessDay(date, -1);
    case DayAdjustment.KEEP_DUE_DATE:
      parse(date);
      return date;
    default:
      throw new CalendarInputError('INVALID_DAY_ADJUSTMENT', `unknown dayAdjustment: ${String(dayAdjustment)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Cycles

export function isPeriodicity(value: unknown): value is Periodicity {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(MONTHS_PER_CYCLE, value);
}

export function isDayAdjustment(value: unknown): value is DayAdjustment {
  return typeof value === 'string' && (Object.values(DayAdjustment) as string[]).includes(value);
}

/**
 * Nominal (unadjusted) due date of cycle `n`; cycle 0 is `firstDueDate`.
 *
 * DAILY and WEEKLY add n or 7n days. The month-based periodicities add months to the anchor
 * itself (never to the previous cycle), and a day the target month lacks becomes that month's last
 * day: 31 Jan monthly gives 28/29 Feb, 31 Mar, 30 Apr...; 29 Feb annual gives 28 Feb in common
 * years and 29 Feb again in leap years.
 */
export function cycleDueDate(firstDueDate: IsoDate, periodicity: Periodicity, n: number): IsoDate {
  const anchor = parse(firstDueDate, 'firstDueDate');
  assertCount('n', n);
  if (!isPeriodicity(periodicity)) {
    throw new CalendarInputError('INVALID_PERIODICITY', `unknown periodicity: ${String(periodicity)}`);
  }
  if (periodicity === Periodicity.DAILY) return format(anchor.dayNumber + n);
  if (periodicity === Periodicity.WEEKLY) return format(anchor.dayNumber + 7 * n);

  const monthIndex = anchor.month - 1 + MONTHS_PER_CYCLE[periodicity] * n;
  const year = anchor.year + Math.floor(monthIndex / 12);
  if (year > MAX_YEAR) throw new CalendarInputError('INVALID_DATE', `cycle ${n} falls after year ${MAX_YEAR}`);
  const month = (monthIndex % 12) + 1;
  const day = Math.min(anchor.day, daysInMonth(year, month));
  return format(dayNumberOf(year, month, day));
}

/** The day a billing is created and sent: `leadDays` calendar days before its adjusted due date. */
export function sendDate(adjustedDueDate: IsoDate, leadDays: number): IsoDate {
  assertCount('leadDays', leadDays);
  return addDays(adjustedDueDate, -leadDays);
}

export interface DueCycle {
  cycle: number;
  /** Due date from the periodicity alone (compared with expirationDate). */
  nominalDueDate: IsoDate;
  /** Nominal due date after the dayAdjustment: the billing's dueDate. */
  dueDate: IsoDate;
  /** dueDate minus leadDays. */
  sendDate: IsoDate;
}

/**
 * Cycles from `fromCycle` on whose send date is on or before `today`, in order.
 *
 * A cycle whose nominal due date is after `expirationDate` does not exist (the adjusted due date
 * may fall after expirationDate when a nominal date on it moves forward). At most `maxCycles`
 * cycles are returned; when the list is that long, call again from the last cycle + 1.
 *
 * The result includes cycles whose due date is already past `today` (service was down): the
 * engine records them as skipped instead of sending them late. Send dates never decrease from one
 * cycle to the next, so the walk stops at the first cycle not yet due.
 *
 * With DAILY and a moving dayAdjustment several cycles can share one due date (Sat, Sun and Mon
 * all fall due on Monday with MOVE_FORWARD); each remains its own cycle.
 */
export function cyclesDueBy(
  firstDueDate: IsoDate,
  periodicity: Periodicity,
  dayAdjustment: DayAdjustment,
  expirationDate: IsoDate | null,
  leadDays: number,
  today: IsoDate,
  fromCycle: number,
  maxCycles: number = MAX_CYCLES_PER_CALL,
): DueCycle[] {
  parse(firstDueDate, 'firstDueDate');
  if (expirationDate !== null) parse(expirationDate, 'expirationDate');
  parse(today, 'today');
  assertCount('leadDays', leadDays);
  assertCount('fromCycle', fromCycle);
  assertCount('maxCycles', maxCycles);
  if (!isDayAdjustment(dayAdjustment)) {
    throw new CalendarInputError('INVALID_DAY_ADJUSTMENT', `unknown dayAdjustment: ${String(dayAdjustment)}`);
  }

  const due: DueCycle[] = [];
  for (let cycle = fromCycle; due.length < maxCycles; cycle++) {
    const nominalDueDate = cycleDueDate(firstDueDate, periodicity, cycle);
    if (expirationDate !== null && compareDates(nominalDueDate, expirationDate) > 0) break;
    const dueDate = adjustDueDate(nominalDueDate, dayAdjustment);
    const send = sendDate(dueDate, leadDays);
    if (compareDates(send, today) > 0) break;
    due.push({ cycle, nominalDueDate, dueDate, sendDate: send });
  }
  return due;
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

/** The civil date of the instant `now` in `timeZone` (e.g. SERVICE_TIME_ZONE). */
export function todayIn(timeZone: string, now: Date): IsoDate {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new CalendarInputError('INVALID_INSTANT', 'now must be a valid Date');
  }
  const parts = formatterFor(timeZone).formatToParts(now);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const date = `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
  parse(date);
  return date;
}
