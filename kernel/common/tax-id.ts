/**
 * Brazilian tax ids (CPF for people, CNPJ for companies), digits only, as the spec requires:
 * "payerTaxId: digits only; 11 digits (CPF) or 14 digits (CNPJ)".
 *
 * No punctuation is accepted ("529.982.247-25" is refused): the spec says digits only, and a
 * caller that strips punctuation itself keeps full control of what it sends.
 *
 * The alphanumeric CNPJ that the Receita Federal introduces from July 2026 is NOT accepted:
 * the spec fixes the field as digits only. Supporting it later means accepting [0-9A-Z] in the
 * first 12 positions, with each character valued as (charCode - 48) in the same mod-11 sums.
 */
import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';

export type TaxIdKind = 'CPF' | 'CNPJ';

/** `12.345.678/0001-95` or `123.456.789-09`; anything else as given. */
export function formatTaxId(d: string | null | undefined): string {
  const s = String(d ?? '');
  if (/^\d{14}$/.test(s)) return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
  if (/^\d{11}$/.test(s)) return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
  return s;
}

const CPF_LENGTH = 11;
const CNPJ_LENGTH = 14;

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function isDigitsOfLength(value: unknown, length: number): value is string {
  return typeof value === 'string' && value.length === length && /^[0-9]+$/.test(value);
}

/** Every character equal ("11111111111", "00000000000000"): such ids pass the mod-11 sums but are invalid. */
function isRepeatedDigit(value: string): boolean {
  return /^(\d)\1*$/.test(value);
}

/** Mod-11 check digit over the first `weights.length` digits: remainder < 2 gives 0, else 11 - remainder. */
function checkDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += (digits.charCodeAt(i) - 48) * weights[i];
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

function hasValidCheckDigits(digits: string, weights1: readonly number[], weights2: readonly number[]): boolean {
  const first = checkDigit(digits, weights1);
  if (first !== digits.charCodeAt(weights1.length) - 48) return false;
  const second = checkDigit(digits, weights2);
  return second === digits.charCodeAt(weights2.length) - 48;
}

/** True for exactly 11 ASCII digits, not all equal, whose two check digits are right. */
export function isValidCpf(digits: unknown): boolean {
  if (!isDigitsOfLength(digits, CPF_LENGTH) || isRepeatedDigit(digits)) return false;
  return hasValidCheckDigits(digits, CPF_WEIGHTS_1, CPF_WEIGHTS_2);
}

/** True for exactly 14 ASCII digits, not all equal, whose two check digits are right. */
export function isValidCnpj(digits: unknown): boolean {
  if (!isDigitsOfLength(digits, CNPJ_LENGTH) || isRepeatedDigit(digits)) return false;
  return hasValidCheckDigits(digits, CNPJ_WEIGHTS_1, CNPJ_WEIGHTS_2);
}

/** 'CPF' or 'CNPJ' for a valid tax id, null for anything else (wrong length, non-digits, bad check digits). */
export function taxIdKind(value: unknown): TaxIdKind | null {
  if (typeof value !== 'string') return null;
  if (value.length === CPF_LENGTH) return isValidCpf(value) ? 'CPF' : null;
  if (value.length === CNPJ_LENGTH) return isValidCnpj(value) ? 'CNPJ' : null;
  return null;
}

/** Digits only; 11 digits = CPF, 14 digits = CNPJ; check digits verified; all-same-digit refused. */
export function isValidTaxId(value: unknown): boolean {
  return taxIdKind(value) !== null;
}

export const IS_TAX_ID = 'isTaxId';
export const TAX_ID_MESSAGE = 'must be 11 (CPF) or 14 (CNPJ) digits with valid check digits';

/** class-validator decorator: the property must satisfy {@link isValidTaxId}. */
export function IsTaxId(validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: IS_TAX_ID,
      validator: {
        validate: (value: unknown): boolean => isValidTaxId(value),
        defaultMessage: buildMessage((eachPrefix) => `${eachPrefix}$property ${TAX_ID_MESSAGE}`, validationOptions),
      },
    },
    validationOptions,
  );
}
