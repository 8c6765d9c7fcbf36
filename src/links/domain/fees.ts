import { CodedError } from '../../../kernel/common/formats/coded-error';

/**
 * Fee tables and fee simulation for payment links. All amounts are integer cents; rates are
 * integer basis points (1 bps = 0.01 %, so 2.99 % = 299).
 *
 * Rounding: the percentage part of a fee is rounded UP to the next cent
 * (`ceil(gross * bps / 10000)`), then the fixed part is added. The merchant therefore never
 * pays less than the nominal rate and the fee never depends on float arithmetic.
 *
 * Fee pass-through (`passFee`): the payer is charged the least gross amount whose net is at
 * least the desired net. Because the net grows by 0 or 1 cent per cent of gross, that least
 * gross yields exactly the desired net.
 */

export type PaymentMethod = 'CARD' | 'PIX' | 'BOLETO';
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['CARD', 'PIX', 'BOLETO'];
export const MIN_INSTALLMENTS = 1;
export const MAX_INSTALLMENTS = 12;
const BPS_DENOMINATOR = 10_000;

export interface CardFees {
  /** Rate per installment count; keys 1..12 must all be present. */
  readonly percentBps: Readonly<Record<number, number>>;
  readonly fixedCents: number;
}
export interface PixFees {
  readonly percentBps: number;
  readonly fixedCents: number;
}
export interface BoletoFees {
  readonly fixedCents: number;
}
export interface FeeTable {
  readonly CARD: CardFees;
  readonly PIX: PixFees;
  readonly BOLETO: BoletoFees;
}

export type FeeErrorCode =
  | 'fee_table_invalid'
  | 'fee_method_invalid'
  | 'fee_installments_invalid'
  | 'fee_amount_invalid'
  | 'fee_exceeds_amount'
  | 'fee_installment_too_small';

export class FeeError extends CodedError<FeeErrorCode> {
  constructor(code: FeeErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

/** Expands installment bands (`{from, to, percentBps}`) into a rate per installment count. */
export function cardRateBands(bands: ReadonlyArray<{ from: number; to: number; percentBps: number }>): Record<number, number> {
  const out: Record<number, number> = {};
  for (const band of bands) for (let n = band.from; n <= band.to; n++) out[n] = band.percentBps;
  return out;
}

/**
 * Sandbox defaults: credit card 1x 2.99 %, 2-6x 3.49 %, 7-12x 3.99 % (no fixed part);
 * Pix 0.99 %; boleto R$ 3.49 per paid boleto.
 */
export const DEFAULT_FEE_TABLE: FeeTable = Object.freeze({
  CARD: Object.freeze({
    percentBps: Object.freeze(
      cardRateBands([
        { from: 1, to: 1, percentBps: 299 },
        { from: 2, to: 6, percentBps: 349 },
        { from: 7, to: 12, percentBps: 399 },
      ]),
    ),
    fixedCents: 0,
  }),
  PIX: Object.freeze({ percentBps: 99, fixedCents: 0 }),
  BOLETO: Object.freeze({ fixedCents: 349 }),
});

/** Checks a table read from configuration. @throws FeeError fee_table_invalid */
export function validateFeeTable(table: FeeTable): FeeTable {
  const bad = (path: string, value: unknown): never => {
    throw new FeeError('fee_table_invalid', `Fee table entry ${path} is invalid`, { path, value });
  };
  const rate = (path: string, v: unknown) => {
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) >= BPS_DENOMINATOR) bad(path, v);
  };
  const fixed = (path: string, v: unknown) => {
    if (!Number.isSafeInteger(v) || (v as number) < 0) bad(path, v);
  };
  if (!table || !table.CARD || !table.PIX || !table.BOLETO) bad('table', table);
  for (let n = MIN_INSTALLMENTS; n <= MAX_INSTALLMENTS; n++) rate(`CARD.percentBps.${n}`, table.CARD.percentBps?.[n]);
  fixed('CARD.fixedCents', table.CARD.fixedCents);
  rate('PIX.percentBps', table.PIX.percentBps);
  fixed('PIX.fixedCents', table.PIX.fixedCents);
  fixed('BOLETO.fixedCents', table.BOLETO.fixedCents);
  return table;
}

/** Installment counts a method allows: 1..maxInstallments for card, only 1 for Pix and boleto. */
export function allowedInstallments(method: PaymentMethod, maxInstallments = MAX_INSTALLMENTS): number[] {
  assertMethod(method);
  if (method !== 'CARD') return [1];
  if (!Number.isInteger(maxInstallments) || maxInstallments < MIN_INSTALLMENTS || maxInstallments > MAX_INSTALLMENTS) {
    throw new FeeError('fee_installments_invalid', 'maxInstallments must be 1 to 12', { maxInstallments });
  }
  return Array.from({ length: maxInstallments }, (_, i) => i + 1);
}

/** Rate and fixed part that apply. @throws FeeError */
export function rateFor(table: FeeTable, method: PaymentMethod, installments = 1): { percentBps: number; fixedCents: number } {
  assertMethod(method);
  assertInstallments(method, installments);
  const rate =
    method === 'CARD'
      ? { percentBps: table.CARD?.percentBps?.[installments], fixedCents: table.CARD?.fixedCents }
      : method === 'PIX'
        ? { percentBps: table.PIX?.percentBps, fixedCents: table.PIX?.fixedCents }
        : { percentBps: 0, fixedCents: table.BOLETO?.fixedCents };
  const { percentBps, fixedCents } = rate;
  if (
    !Number.isInteger(percentBps) ||
    percentBps < 0 ||
    percentBps >= BPS_DENOMINATOR ||
    !Number.isSafeInteger(fixedCents) ||
    fixedCents < 0
  ) {
    throw new FeeError('fee_table_invalid', `Fee table has no valid rate for ${method} ${installments}x`, { method, installments });
  }
  return { percentBps, fixedCents };
}

/** Fee in cents for a gross amount: ceil(gross * bps / 10000) + fixed. @throws FeeError */
export function feeFor(table: FeeTable, method: PaymentMethod, installments: number, grossCents: number): number {
  assertAmount(grossCents, 'grossCents');
  const { percentBps, fixedCents } = rateFor(table, method, installments);
  return ceilDiv(grossCents * percentBps, BPS_DENOMINATOR) + fixedCents;
}

/** Net = gross - fee (negative when the fee exceeds the gross). @throws FeeError */
export function netFor(table: FeeTable, method: PaymentMethod, installments: number, grossCents: number): number {
  return grossCents - feeFor(table, method, installments, grossCents);
}

/**
 * The least gross whose net is >= `desiredNetCents`.
 * net(g) >= D  <=>  ceil(g*p/10000) <= g - D - F  <=>  g*(10000 - p) >= (D + F)*10000,
 * so the estimate ceil((D + F)*10000 / (10000 - p)) is exact; the loops below only make the
 * result self-evidently least (net(g) >= D and net(g - 1) < D). @throws FeeError
 */
export function grossUp(table: FeeTable, method: PaymentMethod, installments: number, desiredNetCents: number): number {
  assertAmount(desiredNetCents, 'desiredNetCents');
  const { percentBps, fixedCents } = rateFor(table, method, installments);
  let gross = ceilDiv((desiredNetCents + fixedCents) * BPS_DENOMINATOR, BPS_DENOMINATOR - percentBps);
  const net = (g: number) => g - ceilDiv(g * percentBps, BPS_DENOMINATOR) - fixedCents;
  while (net(gross) < desiredNetCents) gross++;
  while (gross > 1 && net(gross - 1) >= desiredNetCents) gross--;
  assertAmount(gross, 'grossCents');
  return gross;
}

export interface SimulateInput {
  /** Price of the link: what the owner wants to receive when passFee, else what the payer pays. */
  amountCents: number;
  method: PaymentMethod;
  installments?: number;
  /** Gross the amount up so the owner nets exactly `amountCents`. */
  passFee?: boolean;
}

export interface FeeSimulation {
  method: PaymentMethod;
  installments: number;
  passFee: boolean;
  percentBps: number;
  fixedCents: number;
  /** Charged to the payer. */
  grossCents: number;
  feeCents: number;
  /** Received by the owner (before any split). */
  netCents: number;
  /** Per-installment amounts; they sum to gross and the first one carries the remainder. */
  installmentCents: number[];
}

/** One simulation. @throws FeeError */
export function simulate(input: SimulateInput, table: FeeTable = DEFAULT_FEE_TABLE): FeeSimulation {
  const installments = input.installments ?? 1;
  const passFee = input.passFee ?? false;
  assertAmount(input.amountCents, 'amountCents');
  const { percentBps, fixedCents } = rateFor(table, input.method, installments);
  const grossCents = passFee ? grossUp(table, input.method, installments, input.amountCents) : input.amountCents;
  const feeCents = feeFor(table, input.method, installments, grossCents);
  const netCents = grossCents - feeCents;
  if (netCents < 0) {
    throw new FeeError('fee_exceeds_amount', 'The fee is larger than the amount', { grossCents, feeCents });
  }
  return {
    method: input.method,
    installments,
    passFee,
    percentBps,
    fixedCents,
    grossCents,
    feeCents,
    netCents,
    installmentCents: splitInstallments(grossCents, installments),
  };
}

/**
 * Simulations for every allowed installment count (1..maxInstallments for card, 1 otherwise).
 * Counts whose installments would fall below one cent are left out. @throws FeeError
 */
export function simulateAll(
  input: Omit<SimulateInput, 'installments'> & { maxInstallments?: number },
  table: FeeTable = DEFAULT_FEE_TABLE,
): FeeSimulation[] {
  const out: FeeSimulation[] = [];
  for (const installments of allowedInstallments(input.method, input.maxInstallments ?? MAX_INSTALLMENTS)) {
    try {
      out.push(simulate({ ...input, installments }, table));
    } catch (e) {
      if (e instanceof FeeError && e.code === 'fee_installment_too_small') continue;
      throw e;
    }
  }
  return out;
}

/** Splits gross into n installments of floor(gross / n), the remainder added to the first. @throws FeeError */
export function splitInstallments(grossCents: number, installments: number): number[] {
  assertAmount(grossCents, 'grossCents');
  if (!Number.isInteger(installments) || installments < MIN_INSTALLMENTS || installments > MAX_INSTALLMENTS) {
    throw new FeeError('fee_installments_invalid', 'Installments must be 1 to 12', { installments });
  }
  const base = Math.floor(grossCents / installments);
  if (base < 1) {
    throw new FeeError('fee_installment_too_small', 'Each installment must be at least one cent', { grossCents, installments });
  }
  const parts = Array.from({ length: installments }, () => base);
  parts[0] += grossCents - base * installments;
  return parts;
}

/** ceil(a / b) for a >= 0, b > 0 with exact integer arithmetic. */
function ceilDiv(a: number, b: number): number {
  if (!Number.isSafeInteger(a)) throw new FeeError('fee_amount_invalid', 'Amount is too large to compute a fee', { value: a });
  const q = Math.floor(a / b);
  const r = a - q * b;
  if (r < 0) return q; // float quotient rounded up past an integer; q*b > a means floor was q-1, ceil is q
  return r === 0 ? q : q + 1;
}

function assertMethod(method: PaymentMethod): void {
  if (!PAYMENT_METHODS.includes(method)) {
    throw new FeeError('fee_method_invalid', 'Payment method must be CARD, PIX or BOLETO', { method });
  }
}

function assertInstallments(method: PaymentMethod, installments: number): void {
  const max = method === 'CARD' ? MAX_INSTALLMENTS : 1;
  if (!Number.isInteger(installments) || installments < MIN_INSTALLMENTS || installments > max) {
    throw new FeeError('fee_installments_invalid', `Installments for ${method} must be 1 to ${max}`, { method, installments });
  }
}

/** Amounts are positive integers of cents, at most R$ 1 billion (keeps every product exact). */
export const MAX_AMOUNT_CENTS = 100_000_000_000;

function assertAmount(cents: number, name: string): void {
  if (!Number.isSafeInteger(cents) || cents < 1 || cents > MAX_AMOUNT_CENTS) {
    throw new FeeError('fee_amount_invalid', `${name} must be an integer of cents from 1 to ${MAX_AMOUNT_CENTS}`, { [name]: cents });
  }
}
