import * as QRCode from 'qrcode';
import { CodedError } from './coded-error';
import { centsToDecimalString } from './money';

/**
 * Pix BR Code (EMV QRCPS-MPM as profiled by the Central Bank's "Manual do BR Code").
 *
 * Layout produced, in this order (ID, length as 2 digits, value):
 *   00 "01" payload format indicator
 *   01 "12" point of initiation, only when single use is asked for
 *   26 merchant account information: 00 GUI `br.gov.bcb.pix`, then 01 key and optional
 *      02 description (static), or 25 payload URL without scheme (dynamic)
 *   52 "0000" MCC, 53 "986" currency, 54 amount (optional, `123.45`), 58 "BR"
 *   59 merchant name (ASCII-folded, case kept, max 25), 60 city (same, max 15)
 *   62 additional data: 05 txid (`***` or 1-25 letters/digits; always `***` when dynamic)
 *   63 CRC16/CCITT-FALSE over everything before its value, 4 upper-case hex digits.
 */

export const PIX_GUI = 'br.gov.bcb.pix';
export const TXID_NONE = '***';
export const MERCHANT_NAME_MAX = 25;
export const MERCHANT_CITY_MAX = 15;
export const PIX_KEY_MAX = 77;
export const TXID_MAX = 25;

export type BrCodeErrorCode =
  | 'brcode_key_or_url_required'
  | 'brcode_key_invalid'
  | 'brcode_url_invalid'
  | 'brcode_description_invalid'
  | 'brcode_amount_invalid'
  | 'brcode_txid_invalid'
  | 'brcode_merchant_name_invalid'
  | 'brcode_merchant_city_invalid'
  | 'brcode_field_too_long'
  | 'brcode_malformed'
  | 'brcode_crc_mismatch'
  | 'brcode_not_pix';

export class BrCodeError extends CodedError<BrCodeErrorCode> {
  constructor(code: BrCodeErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

export interface BrCodeInput {
  /** Static QR: the receiver's Pix key (CPF, CNPJ, e-mail, +55 phone or random key). */
  key?: string;
  /** Dynamic QR: location of the payload; a leading `https://` is dropped as the manual asks. */
  url?: string;
  /** Amount in cents (> 0). Absent: the payer types the amount (static) or it is in the payload (dynamic). */
  amountCents?: number;
  merchantName: string;
  merchantCity: string;
  /** `***` (default) or 1-25 letters/digits. Dynamic codes always carry `***`. */
  txid?: string;
  /** Emits field 01 = "12": the code may be paid once only. */
  singleUse?: boolean;
  /** Static only: free text shown to the payer (field 26-02), ASCII-folded. */
  description?: string;
}

export interface ParsedBrCode {
  payloadFormatIndicator: string;
  /** Field 01 when present ("11" reusable, "12" single use). */
  pointOfInitiation?: string;
  singleUse: boolean;
  type: 'STATIC' | 'DYNAMIC';
  key?: string;
  url?: string;
  description?: string;
  mcc: string;
  currency: string;
  amountCents?: number;
  countryCode: string;
  merchantName: string;
  merchantCity: string;
  txid?: string;
  crc: string;
  /** Every top-level field in order of appearance. */
  fields: ReadonlyArray<{ id: string; value: string }>;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR) of the UTF-8 bytes, 4 upper-case hex. */
export function crc16ccitt(input: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(input, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Folds text to printable ASCII: accents removed (`São` -> `Sao`), other non-ASCII dropped,
 * case kept, runs of spaces collapsed, trimmed, then cut to `max` characters.
 */
export function asciiFold(text: string, max = Number.MAX_SAFE_INTEGER): string {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return folded.slice(0, max).trim();
}

/** Builds a BR Code payload (with CRC). @throws BrCodeError */
export function buildBrCode(input: BrCodeInput): string {
  const hasKey = input.key !== undefined && input.key !== '';
  const hasUrl = input.url !== undefined && input.url !== '';
  if (hasKey === hasUrl) {
    throw new BrCodeError('brcode_key_or_url_required', 'Give exactly one of key (static) or url (dynamic)');
  }
  const mai = [tlv('00', PIX_GUI)];
  const txid = input.txid === undefined || input.txid === '' ? TXID_NONE : input.txid;
  if (hasKey) {
    const key = input.key as string;
    if (key.length > PIX_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
      throw new BrCodeError('brcode_key_invalid', `Pix key must be 1-${PIX_KEY_MAX} printable ASCII characters without spaces`);
    }
    mai.push(tlv('01', key));
    if (input.description !== undefined && input.description !== '') {
      const description = asciiFold(input.description);
      if (description === '') throw new BrCodeError('brcode_description_invalid', 'Description has no printable character');
      mai.push(tlv('02', description));
    }
  } else {
    const url = (input.url as string).replace(/^https:\/\//i, '');
    if (url === '' || url.length > PIX_KEY_MAX || !/^[\x21-\x7e]+$/.test(url) || /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
      throw new BrCodeError('brcode_url_invalid', 'Payload URL must be an https location of at most 77 characters');
    }
    if (input.description !== undefined && input.description !== '') {
      throw new BrCodeError('brcode_description_invalid', 'A dynamic BR Code carries no description');
    }
    if (txid !== TXID_NONE) throw new BrCodeError('brcode_txid_invalid', 'A dynamic BR Code carries txid ***');
    mai.push(tlv('25', url));
  }
  if (txid !== TXID_NONE && !/^[A-Za-z0-9]{1,25}$/.test(txid)) {
    throw new BrCodeError('brcode_txid_invalid', `txid must be *** or 1-${TXID_MAX} letters and digits`, { txid });
  }

  const name = asciiFold(input.merchantName ?? '', MERCHANT_NAME_MAX);
  if (name === '') throw new BrCodeError('brcode_merchant_name_invalid', 'Merchant name has no printable character');
  const city = asciiFold(input.merchantCity ?? '', MERCHANT_CITY_MAX);
  if (city === '') throw new BrCodeError('brcode_merchant_city_invalid', 'Merchant city has no printable character');

  let amount = '';
  if (input.amountCents !== undefined) {
    const cents = input.amountCents;
    if (!Number.isSafeInteger(cents) || cents <= 0 || centsToDecimalString(cents).length > 13) {
      throw new BrCodeError('brcode_amount_invalid', 'Amount must be a positive integer of cents, at most 13 characters', {
        amountCents: cents,
      });
    }
    amount = tlv('54', centsToDecimalString(cents));
  }

  const body =
    tlv('00', '01') +
    (input.singleUse ? tlv('01', '12') : '') +
    tlv('26', mai.join('')) +
    tlv('52', '0000') +
    tlv('53', '986') +
    amount +
    tlv('58', 'BR') +
    tlv('59', name) +
    tlv('60', city) +
    tlv('62', tlv('05', txid)) +
    '6304';
  return body + crc16ccitt(body);
}

/** Parses a BR Code and checks its CRC and Pix GUI. @throws BrCodeError */
export function parseBrCode(payload: string): ParsedBrCode {
  if (typeof payload !== 'string' || !/^[\x20-\x7e]+$/.test(payload)) {
    throw new BrCodeError('brcode_malformed', 'BR Code must be printable ASCII');
  }
  const fields = parseTlv(payload);
  const last = fields[fields.length - 1];
  if (!last || last.id !== '63' || !/^[0-9A-Fa-f]{4}$/.test(last.value)) {
    throw new BrCodeError('brcode_malformed', 'BR Code must end with field 63 (CRC)');
  }
  const expected = crc16ccitt(payload.slice(0, -4));
  if (expected !== last.value.toUpperCase()) {
    throw new BrCodeError('brcode_crc_mismatch', 'BR Code CRC does not match', { expected, found: last.value });
  }
  const top = new Map<string, string>();
  for (const f of fields) if (!top.has(f.id)) top.set(f.id, f.value);
  if (fields[0].id !== '00' || fields[0].value !== '01') {
    throw new BrCodeError('brcode_malformed', 'BR Code must start with payload format indicator 01');
  }

  let mai: Map<string, string> | undefined;
  for (const f of fields) {
    const id = Number(f.id);
    if (id < 26 || id > 51) continue;
    const sub = toMap(parseTlv(f.value));
    if ((sub.get('00') ?? '').toLowerCase() === PIX_GUI) {
      mai = sub;
      break;
    }
  }
  if (!mai) throw new BrCodeError('brcode_not_pix', `No merchant account information with GUI ${PIX_GUI}`);
  const key = mai.get('01');
  const url = mai.get('25');
  if ((key === undefined) === (url === undefined)) {
    throw new BrCodeError('brcode_not_pix', 'Merchant account information needs exactly one of key (01) or url (25)');
  }

  const required = (id: string): string => {
    const v = top.get(id);
    if (v === undefined) throw new BrCodeError('brcode_malformed', `Missing field ${id}`);
    return v;
  };
  const amountText = top.get('54');
  let amountCents: number | undefined;
  if (amountText !== undefined) {
    const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amountText);
    if (!m) throw new BrCodeError('brcode_amount_invalid', 'Field 54 is not a decimal amount', { amount: amountText });
    amountCents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  }
  const additional = top.get('62');
  const txid = additional === undefined ? undefined : toMap(parseTlv(additional)).get('05');
  const pointOfInitiation = top.get('01');

  return {
    payloadFormatIndicator: required('00'),
    ...(pointOfInitiation !== undefined ? { pointOfInitiation } : {}),
    singleUse: pointOfInitiation === '12',
    type: key !== undefined ? 'STATIC' : 'DYNAMIC',
    ...(key !== undefined ? { key } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(mai.has('02') ? { description: mai.get('02') } : {}),
    mcc: required('52'),
    currency: required('53'),
    ...(amountCents !== undefined ? { amountCents } : {}),
    countryCode: required('58'),
    merchantName: required('59'),
    merchantCity: required('60'),
    ...(txid !== undefined ? { txid } : {}),
    crc: last.value.toUpperCase(),
    fields,
  };
}

/** QR code of a BR Code as an SVG document (error correction M). Refuses an invalid payload. */
export async function brCodeQrSvg(payload: string): Promise<string> {
  parseBrCode(payload);
  return QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
}

/** QR code of a BR Code as a `data:image/png;base64,…` URL. Refuses an invalid payload. */
export async function brCodeQrPngDataUrl(payload: string, width = 300): Promise<string> {
  parseBrCode(payload);
  return QRCode.toDataURL(payload, { type: 'image/png', errorCorrectionLevel: 'M', margin: 4, width });
}

function tlv(id: string, value: string): string {
  if (value.length > 99) {
    throw new BrCodeError('brcode_field_too_long', `Field ${id} would exceed 99 characters`, { id, length: value.length });
  }
  return id + String(value.length).padStart(2, '0') + value;
}

function parseTlv(text: string): Array<{ id: string; value: string }> {
  const out: Array<{ id: string; value: string }> = [];
  let i = 0;
  while (i < text.length) {
    const head = text.slice(i, i + 4);
    if (!/^\d{4}$/.test(head)) throw new BrCodeError('brcode_malformed', `Bad field header at offset ${i}`);
    const length = Number(head.slice(2));
    const value = text.slice(i + 4, i + 4 + length);
    if (length === 0 || value.length !== length) {
      throw new BrCodeError('brcode_malformed', `Field ${head.slice(0, 2)} at offset ${i} is truncated or empty`);
    }
    out.push({ id: head.slice(0, 2), value });
    i += 4 + length;
  }
  if (out.length === 0) throw new BrCodeError('brcode_malformed', 'Empty BR Code');
  return out;
}

function toMap(fields: Array<{ id: string; value: string }>): Map<string, string> {
  const map = new Map<string, string>();
  for (const f of fields) if (!map.has(f.id)) map.set(f.id, f.value);
  return map;
}
