/**
 * What the billing engine does for one recurrence on one day (pure). Cycles whose send date
 * (adjusted due date minus the lead days) has come are created and sent, unless fewer than
 * MIN_LEAD_DAYS remain before their due date: those were missed (the service was down) and are
 * recorded as skipped, never sent late.
 */
import {
  addDays,
  adjustDueDate,
  compareDates,
  cycleDueDate,
  cyclesDueBy,
  DayAdjustment,
  DueCycle,
  IsoDate,
  Periodicity,
  sendDate,
} from '../domain/calendar';

/** Central Bank rule for Pix Automático: a charge reaches the payer's bank 2 to 10 days before it is due. */
export const MIN_LEAD_DAYS = 2;

export interface ScheduleInput {
  firstDueDate: IsoDate;
  periodicity: Periodicity;
  dayAdjustment: DayAdjustment;
  expirationDate: IsoDate | null;
  nextCycle: number;
}

export interface CyclePlan {
  create: DueCycle[];
  skip: DueCycle[];
  nextCycle: number;
  /** Send date of the next cycle; null when the term has no more cycles. */
  nextSendDate: IsoDate | null;
}

/** Send date of cycle `n`, or null when its nominal due date is after the expiration date. */
export function sendDateOfCycle(r: Omit<ScheduleInput, 'nextCycle'>, n: number, leadDays: number): IsoDate | null {
  const nominal = cycleDueDate(r.firstDueDate, r.periodicity, n);
  if (r.expirationDate !== null && compareDates(nominal, r.expirationDate) > 0) return null;
  return sendDate(adjustDueDate(nominal, r.dayAdjustment), leadDays);
}

/** `minLeadDays`: fewest days before its due date a cycle may still be sent (the send window's minimum on pix-api). */
export function planCycles(r: ScheduleInput, today: IsoDate, leadDays: number, minLeadDays: number = MIN_LEAD_DAYS): CyclePlan {
  const due = cyclesDueBy(r.firstDueDate, r.periodicity, r.dayAdjustment, r.expirationDate, leadDays, today, r.nextCycle);
  const latestSendable = addDays(today, minLeadDays);
  const create: DueCycle[] = [];
  const skip: DueCycle[] = [];
  for (const c of due) (compareDates(c.dueDate, latestSendable) >= 0 ? create : skip).push(c);
  const nextCycle = due.length ? due[due.length - 1].cycle + 1 : r.nextCycle;
  return { create, skip, nextCycle, nextSendDate: sendDateOfCycle(r, nextCycle, leadDays) };
}

/** Wait before the next send attempt after `attempts` failed ones: base, 3×, 9×… capped. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 3 ** Math.max(0, attempts - 1));
}
