import { isLuhnValid } from './pan';
/**
 * Card number helpers: Luhn check, brand from the BIN, CVV length, expiry and masking.
 * A PAN may be given with spaces or dashes; every function reads only its digits.
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'elo' | 'hipercard' | 'diners' | 'discover';

export const CARD_BRANDS: readonly CardBrand[] = ['visa', 'mastercard', 'amex', 'elo', 'hipercard', 'diners', 'discover'];

/**
 * Elo BIN ranges (6 digits, inclusive), as published by the card-type libraries used in
 * Brazilian checkouts. Elo shares prefixes with Visa (4), Mastercard-like 50x and Discover
 * (65), so it is checked first.
 */
const ELO_RANGES: ReadonlyArray<readonly [number, number]> = [
  [401178, 401179],
  [431274, 431274],
  [438935, 438935],
  [451416, 451416],
  [457393, 457393],
  [457631, 457632],
  [504175, 504175],
  [506699, 506778],
  [509000, 509999],
  [627780, 627780],
  [636297, 636297],
  [636368, 636368],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650978],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];

/** Digits of a PAN typed with optional spaces or dashes; '' when anything else is present. */
export function panDigits(pan: string): string {
  if (typeof pan !== 'string') return '';
  const digits = pan.replace(/[\s-]/g, '');
  return /^\d*$/.test(digits) ? digits : '';
}

/** Luhn (mod 10) check over a 12 to 19 digit PAN. */
export function luhnValid(pan: string): boolean {
  const digits = panDigits(pan);
  return digits.length >= 12 && digits.length <= 19 && isLuhnValid(digits);
}

/** Brand from the first digits, or null when no rule matches (at least 6 digits are needed for Elo). */
export function cardBrand(pan: string): CardBrand | null {
  const d = panDigits(pan);
  if (d.length === 0) return null;
  const bin6 = d.length >= 6 ? Number(d.slice(0, 6)) : -1;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = d.length >= 4 ? Number(d.slice(0, 4)) : -1;

  if (ELO_RANGES.some(([lo, hi]) => bin6 >= lo && bin6 <= hi)) return 'elo';
  if (bin6 === 606282 || p4 === 3841) return 'hipercard';
  if (p2 === 34 || p2 === 37) return 'amex';
  if (p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) return 'diners';
  if (p4 === 6011 || p2 === 65) return 'discover';
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'mastercard';
  if (d[0] === '4') return 'visa';
  return null;
}

/** Length of the security code: 4 for American Express, 3 otherwise. */
export function cvvLength(brand: CardBrand): 3 | 4 {
  return brand === 'amex' ? 4 : 3;
}

/** True when `cvv` is exactly `cvvLength(brand)` digits. */
export function validCvv(cvv: string, brand: CardBrand): boolean {
  return typeof cvv === 'string' && new RegExp(`^\\d{${cvvLength(brand)}}$`).test(cvv);
}

/** Brazil has used a fixed UTC-3 offset since 2019; expiry months are read on that calendar. */
const BRT_OFFSET_MS = -3 * 3_600_000;

/**
 * A card is valid through the last day of its expiry month (calendar of Brasília, UTC-3),
 * and expiries more than `maxYearsAhead` years away are refused as typos.
 * `year` may have 2 digits (`27` = 2027) or 4.
 */
export function validExpiry(month: number, year: number, now: Date = new Date(), maxYearsAhead = 20): boolean {
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year) || year < 0) return false;
  const fullYear = year < 100 ? 2000 + year : year;
  if (fullYear < 1000 || fullYear > 9999) return false;
  const local = new Date(now.getTime() + BRT_OFFSET_MS);
  const nowIndex = local.getUTCFullYear() * 12 + local.getUTCMonth();
  const expIndex = fullYear * 12 + (month - 1);
  return expIndex >= nowIndex && expIndex <= nowIndex + maxYearsAhead * 12;
}

/**
 * Masks a PAN for display and logs: first 6 and last 4 digits kept (`411111******1111`).
 * Numbers shorter than 13 digits keep only the last 4; anything unreadable becomes `****`.
 */
export function maskPan(pan: string): string {
  const d = panDigits(pan);
  if (d.length === 0) return '****';
  if (d.length >= 13) return d.slice(0, 6) + '*'.repeat(d.length - 10) + d.slice(-4);
  if (d.length > 4) return '*'.repeat(d.length - 4) + d.slice(-4);
  return '*'.repeat(d.length);
}
