import { CodedError } from '../../kernel/common/formats/coded-error';
import type { BoletoResult, PixChargeRequest, PixChargeResult } from './acquirer.port';

export type { PixChargeRequest, PixChargeResult } from './acquirer.port';

/**
 * Port: the Pix charges of links and boletos, whoever issues them. BANK_PROVIDER=service binds
 * the acquirer's Pix (a static single-use BR Code from `POST /v1/pix-charges`, the QR the
 * acquirer prints on its boleto, confirmation by the acquirer's notifications);
 * BANK_PROVIDER=pix-api binds API Pix at the receiver's PSP (`PUT /cob/{txid}` with a location,
 * a `/cobv/{txid}` with the boleto's due date, confirmation by the PSP's `/webhook/{chave}`
 * callbacks). Either way a payment confirmed arrives as the same `pix_charge.updated` /
 * `boleto.updated` event on AcquirerEvents, so links do not know which one runs.
 */
export interface BoletoPixRequest {
  transactionId: string;
  merchantId: string;
  amountCents: number;
  dueDate: string;
  payer: { name: string; taxId: string };
  /** The boleto just issued by the acquirer (its own Pix QR, its digitable line). */
  boleto: BoletoResult;
}

export interface BoletoPixResult {
  /** The charge's txid at the PSP (null: the acquirer's own QR). */
  txid: string | null;
  /** The BR Code printed on the boleto; null when there is none (an acquirer whose boletos carry no Pix QR). */
  brCode: string | null;
}

/** A property the PSP refused, as it named it. */
export interface PixChargeViolation {
  field: string;
  message: string;
}

/**
 * The PSP refused the charge (a 4xx problem): never retried. `status` 400 when it refused the
 * request's content (…OperacaoInvalida), 409 when it refused us (AcessoNegado, NaoEncontrado:
 * the receiver's key or contract), with its violations.
 */
export class PixChargeRefused extends CodedError<'pix_charge_rejected'> {
  constructor(
    readonly status: 400 | 409,
    /** The PSP's problem name (`CobOperacaoInvalida`). */
    readonly problem: string,
    message: string,
    readonly violations: PixChargeViolation[],
  ) {
    super('pix_charge_rejected', message);
  }
}

export abstract class PixChargesPort {
  /** `service` (the acquirer's Pix) or `pix-api` (API Pix at the PSP). */
  abstract readonly provider: 'service' | 'pix-api';
  /** An immediate charge for a link's Pix payment. @throws ProviderCallError (unavailable), PixChargeRefused */
  abstract createCharge(req: PixChargeRequest): Promise<PixChargeResult>;
  /** The Pix QR printed on a boleto the acquirer has just issued. @throws ProviderCallError, PixChargeRefused */
  abstract boletoPix(req: BoletoPixRequest): Promise<BoletoPixResult>;
}
