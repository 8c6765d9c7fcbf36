import { CodedError } from './coded-error';

/**
 * Bank boleto ("boleto de cobrança", FEBRABAN layout): 44-digit barcode, 47-digit
 * "linha digitável" and the Interleaved 2 of 5 bar pattern.
 *
 * Barcode (positions 1-based):
 *   1-3 bank code | 4 currency (9 = real) | 5 general check digit (mod 11)
 *   6-9 due-date factor | 10-19 amount in cents | 20-44 free field (bank's use)
 * Line: field 1 = bank + currency + free field 1-5 + DV (mod 10)
 *       field 2 = free field 6-15 + DV | field 3 = free field 16-25 + DV
 *       field 4 = general DV | field 5 = factor + amount.
 *
 * General DV: weights 2..9 repeated from the right over the 43 other digits, r = sum mod 11,
 * DV = 11 - r, and DV = 1 when that gives 0, 10 or 11 (position 5 never holds 0).
 * Field DV (mod 10): weights 2,1,2,1… from the right, digits of each product summed,
 * DV = (10 - sum mod 10) mod 10.
 *
 * Due-date factor: days since 1997-10-07. Factor 9999 was 2025-02-21; on 2025-02-22 it
 * restarts at 1000, so for any date from 2000-07-03 on:
 * factor = ((days - 1000) mod 9000) + 1000. Factor 0000 means "no due date".
 */

export const BOLETO_CURRENCY_REAL = '9';

const BANK_NAMES: Record<string, string> = {
  '001': 'Banco do Brasil',
  '033': 'Santander',
  '104': 'Caixa',
  '237': 'Bradesco',
  '341': 'Itaú',
  '756': 'Sicoob',
};

/** The issuing bank of a boleto by its COMPE code, as a payer knows it (`Bradesco`), or `Banco 999`. */
export function bankName(code: string): string {
  return BANK_NAMES[code] ?? `Banco ${code}`;
}
export const BOLETO_MAX_AMOUNT_CENTS = 9_999_999_999;
const DAY_MS = 86_400_000;
const BASE_UTC = Date.UTC(1997, 9, 7); // 1997-10-07

export type BoletoErrorCode =
  | 'boleto_bank_code_invalid'
  | 'boleto_amount_invalid'
  | 'boleto_free_field_invalid'
  | 'boleto_due_date_invalid'
  | 'boleto_due_date_out_of_range'
  | 'boleto_factor_invalid'
  | 'boleto_barcode_invalid'
  | 'boleto_line_invalid'
  | 'boleto_barcode_dv_mismatch'
  | 'boleto_line_dv_mismatch';

export class BoletoError extends CodedError<BoletoErrorCode> {
  constructor(code: BoletoErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

export interface BoletoInput {
  /** 3-digit COMPE bank code; a leading 8 is refused (it marks utility/tax "arrecadação" codes). */
  bankCode: string;
  /** 0..9_999_999_999 cents (0 = the payer types the amount). */
  amountCents: number;
  /** `YYYY-MM-DD`, or a Date read by its UTC calendar day; null = no due date (factor 0000). */
  dueDate: string | Date | null;
  /** 25 digits defined by the issuing bank (agreement, "nosso número", …). */
  freeField: string;
}

export interface Boleto {
  barcode: string;
  line: string;
  /** `AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE` */
  formattedLine: string;
  bankCode: string;
  amountCents: number;
  dueDateFactor: number;
  freeField: string;
  generalDv: number;
}

export interface ParsedBoleto {
  bankCode: string;
  currency: string;
  generalDv: number;
  dueDateFactor: number;
  /** Date of the factor nearest to the reference day; absent for factor 0000. */
  dueDate?: string;
  amountCents: number;
  freeField: string;
  barcode: string;
  line: string;
}

/** Days from 1997-10-07 to the given calendar day. @throws BoletoError boleto_due_date_invalid */
export function daysSinceBase(date: string | Date): number {
  return (utcDay(date) - BASE_UTC) / DAY_MS;
}

/** Due-date factor of a calendar day (1000..9999). @throws BoletoError */
export function dueDateFactor(date: string | Date): number {
  const days = daysSinceBase(date);
  if (days < 1000) {
    throw new BoletoError('boleto_due_date_out_of_range', 'Due date must be 2000-07-03 or later', { dueDate: String(date) });
  }
  return ((days - 1000) % 9000) + 1000;
}

/**
 * The calendar day (`YYYY-MM-DD`) that has this factor and is nearest to `reference`
 * (a factor repeats every 9000 days). @throws BoletoError boleto_factor_invalid
 */
export function factorToDate(factor: number, reference: string | Date): string {
  if (!Number.isInteger(factor) || factor < 1000 || factor > 9999) {
    throw new BoletoError('boleto_factor_invalid', 'Factor must be an integer from 1000 to 9999', { factor });
  }
  const ref = daysSinceBase(reference);
  const cycle = Math.max(0, Math.round((ref - factor) / 9000));
  return isoDay(BASE_UTC + (factor + cycle * 9000) * DAY_MS);
}

/** Builds barcode and line. @throws BoletoError */
export function buildBoleto(input: BoletoInput): Boleto {
  const { bankCode, amountCents, dueDate, freeField } = input;
  if (typeof bankCode !== 'string' || !/^[0-79]\d{2}$/.test(bankCode)) {
    throw new BoletoError('boleto_bank_code_invalid', 'Bank code must be 3 digits not starting with 8', { bankCode });
  }
  if (!Number.isSafeInteger(amountCents) || amountCents < 0 || amountCents > BOLETO_MAX_AMOUNT_CENTS) {
    throw new BoletoError('boleto_amount_invalid', 'Amount must be 0..9999999999 cents', { amountCents });
  }
  if (typeof freeField !== 'string' || !/^\d{25}$/.test(freeField)) {
    throw new BoletoError('boleto_free_field_invalid', 'Free field must be 25 digits');
  }
  const factor = dueDate === null ? 0 : dueDateFactor(dueDate);
  const withoutDv = bankCode + BOLETO_CURRENCY_REAL + String(factor).padStart(4, '0') + String(amountCents).padStart(10, '0') + freeField;
  const generalDv = boletoMod11(withoutDv);
  const barcode = withoutDv.slice(0, 4) + generalDv + withoutDv.slice(4);
  const line = barcodeToLine(barcode);
  return { barcode, line, formattedLine: formatLine(line), bankCode, amountCents, dueDateFactor: factor, freeField, generalDv };
}

/** 44-digit barcode to 47-digit line (barcode DV checked). @throws BoletoError */
export function barcodeToLine(barcode: string): string {
  assertBarcode(barcode);
  const free = barcode.slice(19);
  const f1 = barcode.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return f1 + mod10(f1) + f2 + mod10(f2) + f3 + mod10(f3) + barcode[4] + barcode.slice(5, 19);
}

/** 47-digit line (dots and spaces allowed) to 44-digit barcode; every DV checked. @throws BoletoError */
export function lineToBarcode(line: string): string {
  const digits = typeof line === 'string' ? line.replace(/[.\s]/g, '') : '';
  if (!/^\d{47}$/.test(digits)) throw new BoletoError('boleto_line_invalid', 'Line must have 47 digits');
  const fields: Array<[string, string]> = [
    [digits.slice(0, 9), digits[9]],
    [digits.slice(10, 20), digits[20]],
    [digits.slice(21, 31), digits[31]],
  ];
  fields.forEach(([body, dv], i) => {
    if (String(mod10(body)) !== dv) {
      throw new BoletoError('boleto_line_dv_mismatch', `Check digit of field ${i + 1} does not match`, { field: i + 1 });
    }
  });
  const barcode = digits.slice(0, 4) + digits[32] + digits.slice(33, 47) + digits.slice(4, 9) + digits.slice(10, 20) + digits.slice(21, 31);
  assertBarcode(barcode);
  return barcode;
}

/** Reads a barcode or a line back into its parts. @throws BoletoError */
export function parseBoleto(code: string, reference: string | Date = new Date()): ParsedBoleto {
  const digits = typeof code === 'string' ? code.replace(/[.\s]/g, '') : '';
  const barcode = digits.length === 47 ? lineToBarcode(digits) : digits;
  const line = barcodeToLine(barcode);
  const factor = Number(barcode.slice(5, 9));
  return {
    bankCode: barcode.slice(0, 3),
    currency: barcode[3],
    generalDv: Number(barcode[4]),
    dueDateFactor: factor,
    ...(factor >= 1000 ? { dueDate: factorToDate(factor, reference) } : {}),
    amountCents: Number(barcode.slice(9, 19)),
    freeField: barcode.slice(19),
    barcode,
    line,
  };
}

/** `AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE` */
export function formatLine(line: string): string {
  const d = line.replace(/[.\s]/g, '');
  if (!/^\d{47}$/.test(d)) throw new BoletoError('boleto_line_invalid', 'Line must have 47 digits');
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d[32]} ${d.slice(33)}`;
}

/** Mod-10 check digit of a field of the line. */
export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const p = Number(digits[i]) * weight;
    sum += p > 9 ? p - 9 : p; // the sum of the digits of a product 10..18 is product - 9
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** General check digit of the barcode, from its other 43 digits (FEBRABAN cobrança rule). */
export function boletoMod11(digits43: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits43.length - 1; i >= 0; i--) {
    sum += Number(digits43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

/** Checks a 44-digit bank barcode and its general DV. @throws BoletoError */
export function assertBarcode(barcode: string): void {
  if (typeof barcode !== 'string' || !/^\d{44}$/.test(barcode)) {
    throw new BoletoError('boleto_barcode_invalid', 'Barcode must have 44 digits');
  }
  if (barcode[0] === '8') throw new BoletoError('boleto_barcode_invalid', 'A barcode starting with 8 is not a bank boleto');
  const expected = boletoMod11(barcode.slice(0, 4) + barcode.slice(5));
  if (String(expected) !== barcode[4]) {
    throw new BoletoError('boleto_barcode_dv_mismatch', 'General check digit does not match', { expected, found: barcode[4] });
  }
}

/** Interleaved 2 of 5 widths per digit: N = narrow, W = wide. */
const ITF_PATTERNS = ['NNWWN', 'WNNNW', 'NWNNW', 'WWNNN', 'NNWNW', 'WNWNN', 'NWWNN', 'NNNWW', 'WNNWN', 'NWNWN'];

export interface ItfSvgOptions {
  /** Wide to narrow ratio (FEBRABAN: 2.25 to 3; default 3). */
  ratio?: number;
  /** Printed width of a narrow element in millimetres (default 0.254 mm = 1/100 in). */
  narrowMm?: number;
  /** Bar height in millimetres (default 13 mm). */
  heightMm?: number;
  /** Quiet zone on each side, in narrow widths (default 10). */
  quietZone?: number;
}

/**
 * Barcode as an Interleaved 2 of 5 SVG: start (narrow bar, space, bar, space), each digit
 * pair with the first digit in the bars and the second in the spaces, stop (wide bar,
 * narrow space, narrow bar). User units: 1 = one narrow element. @throws BoletoError
 */
export function itfBarcodeSvg(barcode44: string, options: ItfSvgOptions = {}): string {
  assertBarcode(barcode44);
  const ratio = options.ratio ?? 3;
  const narrowMm = options.narrowMm ?? 0.254;
  const heightMm = options.heightMm ?? 13;
  const quiet = options.quietZone ?? 10;
  const height = Math.round((heightMm / narrowMm) * 100) / 100;
  const widths: number[] = [1, 1, 1, 1]; // start: bar, space, bar, space
  for (let i = 0; i < barcode44.length; i += 2) {
    const bars = ITF_PATTERNS[Number(barcode44[i])];
    const spaces = ITF_PATTERNS[Number(barcode44[i + 1])];
    for (let k = 0; k < 5; k++) widths.push(bars[k] === 'W' ? ratio : 1, spaces[k] === 'W' ? ratio : 1);
  }
  widths.push(ratio, 1, 1); // stop: wide bar, narrow space, narrow bar
  const rects: string[] = [];
  let x = quiet;
  widths.forEach((w, i) => {
    if (i % 2 === 0) rects.push(`<rect x="${fmt(x)}" y="0" width="${fmt(w)}" height="${fmt(height)}"/>`);
    x += w;
  });
  const total = x + quiet;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${fmt(total * narrowMm)}mm" height="${fmt(heightMm)}mm" ` +
    `viewBox="0 0 ${fmt(total)} ${fmt(height)}" shape-rendering="crispEdges">` +
    `<title>${barcode44}</title><rect width="100%" height="100%" fill="#fff"/><g fill="#000">${rects.join('')}</g></svg>`
  );
}

function fmt(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

function utcDay(date: string | Date): number {
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw new BoletoError('boleto_due_date_invalid', 'Due date is not a valid date');
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  }
  const m = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const t = Date.UTC(y, mo - 1, d);
    const back = new Date(t);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d) return t;
  }
  throw new BoletoError('boleto_due_date_invalid', 'Due date must be YYYY-MM-DD', { dueDate: String(date) });
}

function isoDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
