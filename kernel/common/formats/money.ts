import { CodedError } from './coded-error';

/**
 * Money helpers. Inside the service every amount is an integer number of cents; the public
 * API carries JSON numbers in BRL units (`12.34`). Conversion never multiplies floats: the
 * number is read through its shortest round-trip decimal form (`String(n)`), so `1.15`
 * becomes 115 and not 114.99999999999999.
 */

/**
 * Largest amount handled: 15 significant digits (R$ 9,999,999,999,999.99). Up to there a
 * 2-decimal value and its double convert both ways exactly; beyond it they do not.
 */
export const MAX_CENTS = 999_999_999_999_999;

export type MoneyErrorCode = 'amount_not_a_number' | 'amount_negative' | 'amount_too_many_decimals' | 'amount_too_large';

export class MoneyError extends CodedError<MoneyErrorCode> {
  constructor(code: MoneyErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

/**
 * BRL units (JSON number, at most 2 decimals, not negative) to integer cents.
 * @throws MoneyError amount_not_a_number | amount_negative | amount_too_many_decimals | amount_too_large
 */
export function toCents(amount: number): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw new MoneyError('amount_not_a_number', 'Amount must be a finite number', { amount });
  }
  if (amount < 0) throw new MoneyError('amount_negative', 'Amount must not be negative', { amount });
  const text = String(amount);
  const exp = /^(\d+)(?:\.(\d+))?e([+-])(\d+)$/.exec(text);
  if (exp) {
    // Exponent form only appears below 1e-6 (too many decimals) or from 1e21 (too large).
    if (exp[3] === '-') throw new MoneyError('amount_too_many_decimals', 'Amount has more than 2 decimals', { amount });
    throw new MoneyError('amount_too_large', 'Amount is too large', { amount });
  }
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 2) {
    throw new MoneyError('amount_too_many_decimals', 'Amount has more than 2 decimals', { amount });
  }
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) throw new MoneyError('amount_too_large', 'Amount is too large', { amount });
  return cents;
}

/** Integer cents to BRL units as a JSON number (`1234` -> `12.34`). @throws MoneyError */
export function fromCents(cents: number): number {
  assertCents(cents, 'cents');
  if (Math.abs(cents) > MAX_CENTS) throw new MoneyError('amount_too_large', 'Amount is too large', { cents });
  // An integer divided by 100 is the double nearest to the 2-decimal value, so it prints exactly.
  return cents / 100;
}

/** Integer cents to a plain decimal string with 2 decimals and a dot (`1234` -> `"12.34"`). */
export function centsToDecimalString(cents: number): string {
  assertCents(cents, 'cents');
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** True when `value` is a safe integer (a valid amount of cents, possibly negative). */
export function isCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function assertCents(value: number, name: string): void {
  if (!isCents(value)) {
    throw new MoneyError('amount_not_a_number', `${name} must be a safe integer number of cents`, { [name]: value });
  }
}

/**
 * A decimal string as API Pix and the acquirer write amounts (`"150.75"`, `"10.5"`, `"3"`) to
 * integer cents, digit by digit (no float multiply); null when it is not a plain non-negative
 * decimal with at most 2 decimals or exceeds MAX_CENTS.
 */
export function decimalStringToCents(s: string): number | null {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_CENTS ? cents : null;
}
