/**
 * The test clock across the process boundary: the sandbox app owns the clock and, for each day
 * it moves, tells the service the new offset and which half of the service's day to run, before
 * (`start`) and after (`end`) its own bank and acquirer work of that day.
 */
export const TEST_CLOCK_DAYS_PATH = '/test-clock/days';
/**
 * The sandbox app's clock went back to real time (offset 0): the service takes offset 0 too and
 * runs no day's work. Same secret, same caller as the days.
 */
export const TEST_CLOCK_RESET_PATH = '/test-clock/reset';
/** Carries TEST_CLOCK_SECRET, the secret both apps know. */
export const TEST_CLOCK_SECRET_HEADER = 'x-test-clock-secret';

export interface TestClockDay {
  /** The clock's offset from real time after the move (ms, absolute: a day sent twice moves time once). */
  offsetMs: number;
  phase: 'start' | 'end';
}

export interface TestClockDayAnswer {
  now: string;
  today: string;
}
