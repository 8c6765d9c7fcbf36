/**
 * Checks of what a cardholder (or a server-to-server caller) types, run on the server; the
 * hosted page runs the same rules in the browser (hosted-page/card-page.script.ts) so the
 * cardholder is guided before anything is sent. Messages never echo the input.
 */
import { cardBrand, isLuhnValid } from '../../../kernel/common/formats/pan';

export type CardBrandName = 'VISA' | 'MASTERCARD' | 'AMEX' | 'UNKNOWN';

export interface CardInput {
  cardNumber?: unknown;
  expirationMonth?: unknown;
  expirationYear?: unknown;
  securityCode?: unknown;
  nickname?: unknown;
}

export interface ValidCard {
  pan: string;
  brand: CardBrandName;
  expMonth: number;
  expYear: number;
  securityCode: string;
  /** trimmed; undefined when blank */
  nickname?: string;
}

export interface CardInputProblem {
  field: 'cardNumber' | 'expirationMonth' | 'expirationYear' | 'securityCode' | 'nickname';
  code: string;
  message: string;
}

export type CardInputResult = { ok: true; card: ValidCard } | { ok: false; problems: CardInputProblem[] };

export const NICKNAME_MAX = 40;
/** Card numbers valid for far in the future are not real cards. */
export const MAX_YEARS_AHEAD = 20;

const LENGTHS: Record<CardBrandName, (n: number) => boolean> = {
  VISA: (n) => n === 13 || n === 16 || n === 19,
  MASTERCARD: (n) => n === 16,
  AMEX: (n) => n === 15,
  UNKNOWN: (n) => n >= 12 && n <= 19,
};

/** Visa, Mastercard and Amex by BIN; anything else (Elo, Hipercard, Discover…) is UNKNOWN and accepted. */
export function brandName(pan: string): CardBrandName {
  return cardBrand(pan).toUpperCase() as CardBrandName;
}

export function securityCodeLength(brand: CardBrandName): readonly number[] {
  return brand === 'AMEX' ? [4] : brand === 'UNKNOWN' ? [3, 4] : [3];
}

/**
 * Validates card input against `today` (`YYYY-MM-DD`, the business calendar): a card is valid
 * through the last day of its expiry month.
 */
export function validateCardInput(input: CardInput, today: string): CardInputResult {
  const problems: CardInputProblem[] = [];
  const pan = typeof input.cardNumber === 'string' ? input.cardNumber.replace(/[\s-]/g, '') : '';
  let brand: CardBrandName = 'UNKNOWN';
  if (!/^\d{12,19}$/.test(pan)) {
    problems.push({ field: 'cardNumber', code: 'card_number_format', message: 'card number must be 12 to 19 digits' });
  } else if (!isLuhnValid(pan)) {
    problems.push({ field: 'cardNumber', code: 'card_number_check_digit', message: 'card number is not valid (check digit)' });
  } else {
    brand = brandName(pan);
    if (!LENGTHS[brand](pan.length)) {
      problems.push({ field: 'cardNumber', code: 'card_number_length', message: `card number has the wrong length for ${brand}` });
    }
  }

  const month = toInt(input.expirationMonth, /^(0?[1-9]|1[0-2])$/);
  if (month === null) problems.push({ field: 'expirationMonth', code: 'expiration_month', message: 'expiration month must be 1 to 12' });
  let year = toInt(input.expirationYear, /^(\d{2}|\d{4})$/);
  if (year !== null && year < 100) year += 2000;
  const [ty, tm] = today.split('-').map(Number);
  if (year === null || year < 2000) {
    problems.push({ field: 'expirationYear', code: 'expiration_year', message: 'expiration year must be YYYY (or YY)' });
  } else if (year > ty + MAX_YEARS_AHEAD) {
    problems.push({
      field: 'expirationYear',
      code: 'expiration_year',
      message: `expiration year is more than ${MAX_YEARS_AHEAD} years ahead`,
    });
  } else if (month !== null && (year < ty || (year === ty && month < tm))) {
    problems.push({ field: 'expirationYear', code: 'card_expired', message: 'the card is expired' });
  }

  const code = typeof input.securityCode === 'string' ? input.securityCode : '';
  const lengths = securityCodeLength(brand);
  if (!/^\d+$/.test(code) || !lengths.includes(code.length)) {
    problems.push({ field: 'securityCode', code: 'security_code', message: `security code must be ${lengths.join(' or ')} digits` });
  }

  let nickname: string | undefined;
  if (input.nickname !== undefined && input.nickname !== null) {
    if (typeof input.nickname !== 'string') {
      problems.push({ field: 'nickname', code: 'nickname', message: 'nickname must be text' });
    } else {
      nickname = input.nickname.trim() || undefined;
      // eslint-disable-next-line no-control-regex
      if (nickname && (nickname.length > NICKNAME_MAX || /[\u0000-\u001f\u007f]/.test(nickname))) {
        problems.push({ field: 'nickname', code: 'nickname', message: `nickname must be at most ${NICKNAME_MAX} printable characters` });
      } else if (nickname && /\d[\d\s-]{10,}\d/.test(nickname)) {
        // A nickname is stored in clear: it must not carry a card number.
        problems.push({ field: 'nickname', code: 'nickname_digits', message: 'nickname must not contain a long run of digits' });
      }
    }
  }

  if (problems.length) return { ok: false, problems };
  return { ok: true, card: { pan, brand, expMonth: month!, expYear: year!, securityCode: code, nickname } };
}

function toInt(value: unknown, pattern: RegExp): number | null {
  const s = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  return typeof s === 'string' && pattern.test(s) ? Number(s) : null;
}
