/**
 * Time as the service sees it. In production it is the system clock. In sandbox mode the
 * test clock moves it forward (an offset), like Stripe's test clocks; every replica reads the
 * offset from the database (see ClockSync), so all of them agree.
 */
export abstract class Clock {
  abstract now(): Date;
  /** Calendar date in America/Sao_Paulo, `YYYY-MM-DD`. */
  abstract today(): string;
  abstract offsetMs(): number;
}

const SAO_PAULO = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

const HOUR_MS = 3_600_000;
const byHour = new Map<number, string>();

/**
 * `Intl` formatting costs microseconds and request paths ask several times, so answers are kept
 * per UTC hour: Brazil's offsets (and their past DST changes) are whole hours, so the calendar
 * date in São Paulo only changes on an hour boundary.
 */
export function saoPauloDate(d: Date): string {
  const hour = Math.floor(d.getTime() / HOUR_MS);
  let day = byHour.get(hour);
  if (day === undefined) {
    day = SAO_PAULO.format(d);
    if (byHour.size >= 4096) byHour.clear();
    byHour.set(hour, day);
  }
  return day;
}

export class SystemClock extends Clock {
  private offset = 0;

  now(): Date {
    return new Date(Date.now() + this.offset);
  }

  today(): string {
    return saoPauloDate(this.now());
  }

  offsetMs(): number {
    return this.offset;
  }

  /** Only the clock sync (and through it the sandbox test clock) moves time. */
  setOffset(ms: number): void {
    this.offset = ms;
  }
}

/** One day of the test clock has passed: the engine, sandbox settlements and link expiry subscribe. */
export type DayPassedHandler = (day: string) => Promise<void>;

/**
 * A day's work in two halves around the bank's and acquirer's: handlers ordered below this run at
 * the day's start (the billing engine sends the day's billings), the others at its end (checks of
 * what the bank settled, link expiry). The sandbox app runs its own day between the two halves
 * the service runs (`POST /test-clock/days`).
 */
export const DAY_END_ORDER = 100;
export type DayPhase = 'start' | 'end';

/**
 * Subscribers to "a day passed". The clock lives in the kernel; features register here, so
 * the sandbox never imports a feature module and no feature imports the sandbox.
 */
export class DayPassedSignal {
  private readonly handlers: { name: string; order: number; run: DayPassedHandler }[] = [];

  subscribe(name: string, run: DayPassedHandler, order = 100): void {
    this.handlers.push({ name, order, run });
    this.handlers.sort((a, b) => a.order - b.order);
  }

  /** Runs the day's handlers in order: all of them, or one half (`DAY_END_ORDER`). */
  async raise(day: string, phase?: DayPhase): Promise<void> {
    for (const h of this.handlers) {
      if (phase === 'start' && h.order >= DAY_END_ORDER) continue;
      if (phase === 'end' && h.order < DAY_END_ORDER) continue;
      await h.run(day);
    }
  }

  names(): string[] {
    return this.handlers.map((h) => h.name);
  }
}
