import { CodedError } from './coded-error';
/** A card number that is not 12–19 digits (the message never echoes the input). */
export class InvalidCardNumber extends CodedError<'invalid_pan'> {
  constructor() {
    super('invalid_pan', 'card number must be 12 to 19 digits');
  }
}

/**
 * Card brands the sandbox distinguishes (for ECI values). Deliberately coarse: Brazilian
 * brands (Elo, Hipercard) overlap Visa and Mastercard prefixes in narrow BIN ranges and are
 * reported as `unknown` rather than guessed from a short prefix.
 */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'unknown';

const PAN_PATTERN = /^\d{12,19}$/;

/**
 * Removes spaces and hyphens and checks the result is 12–19 digits.
 * Throws {@link InvalidCardNumber} otherwise (the message never echoes the input).
 */
export function normalizePan(input: string): string {
  const pan = typeof input === 'string' ? input.replace(/[\s-]/g, '') : '';
  if (!PAN_PATTERN.test(pan)) throw new InvalidCardNumber();
  return pan;
}

/** Luhn (mod 10) check digit validation of a digits-only string. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Brand from the BIN prefix (Visa 4, Mastercard 51–55 and 2221–2720, Amex 34/37 with 15 digits). */
export function cardBrand(pan: string): CardBrand {
  const p = normalizePan(pan);
  const four = Number(p.slice(0, 4));
  const two = Number(p.slice(0, 2));
  if (p.startsWith('4')) return 'visa';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if ((two === 34 || two === 37) && p.length === 15) return 'amex';
  return 'unknown';
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  elo: 'Elo',
  amex: 'American Express',
  hipercard: 'Hipercard',
  diners: 'Diners Club',
  discover: 'Discover',
};

/** A brand as the card prints it (`visa` → `Visa`); an unknown one as given, `unknown` as nothing. */
export function brandName(brand: string | null | undefined): string {
  const b = String(brand ?? '').toLowerCase();
  return b === 'unknown' ? '' : (BRAND_NAMES[b] ?? String(brand ?? ''));
}

/** Display values of the tokenization result: first4 is the BIN prefix, last4 the final four digits. */
export function panDisplay(pan: string): { first4: string; last4: string } {
  const p = normalizePan(pan);
  return { first4: p.slice(0, 4), last4: p.slice(-4) };
}
