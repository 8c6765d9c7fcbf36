/** What the edge checks of a provider's reports share (adyen-item-checks.ts, acquirer-event-checks.ts). */

/** The largest amount the service takes, in centavos (R$ 10 000 000,00). */
export const MAX_CENTS = 1_000_000_000;

/** A short text that parses as a date. */
export const isDate = (s: unknown): boolean => typeof s === 'string' && s.length <= 64 && !Number.isNaN(Date.parse(s));

/** An amount in centavos the service can hold: an integer from 0 to MAX_CENTS. */
export const isCents = (n: unknown): boolean => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_CENTS;
