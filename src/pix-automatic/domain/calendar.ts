import {
  addDays,
  assertCount,
  CalendarInputError,
  compareDates,
  dayNumberOf,
  daysInMonth,
  formatDayNumber as format,
  IsoDate,
  MAX_YEAR,
  nearestBusinessDay,
  parseDate as parse,
} from '../../../kernel/common/calendar/business-days';

/** The pure business-day part (dates, holidays, business days, today) is common's; re-exported for the engine's callers. */
export {
  addBusinessDays,
  addDays,
  CalendarInputError,
  compareDates,
  dayOfWeek,
  easterSunday,
  isBusinessDay,
  isHoliday,
  isValidDate,
  nationalBankHolidays,
  NOV_20_FIRST_YEAR,
  todayIn,
} from '../../../kernel/common/calendar/business-days';
export type { CalendarInputErrorCode, IsoDate } from '../../../kernel/common/calendar/business-days';
/**
 * Calendar of the billing engine (ARCHITECTURE.md, "Billing engine calendar"): periodicities,
 * the dayAdjustment of a due date, cycles and send dates. Dates, holidays and business days are
 * `common/calendar/business-days.ts` (boleto due dates use them too).
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

const MONTHS_PER_CYCLE: Readonly<Record<Periodicity, number>> = {
  DAILY: 0,
  WEEKLY: 0,
  MONTHLY: 1,
  BIMONTHLY: 2,
  QUARTERLY: 3,
  BIANNUAL: 6,
  ANNUAL: 12,
};

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
