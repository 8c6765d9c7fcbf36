import type { CardDisputeStage } from '../../../kernel/common/protocols/acquirer-refunds';
import type { Row } from '../../../kernel/platform/database/sql';
import type { SandboxRefundFailure } from '../cards/sandbox-refunds';

/** The card transaction a refund or dispute belongs to, as the cases read it. */
export type CaseTransaction = Pick<
  Row<'sandbox_acquirer_card_transactions'>,
  'id' | 'transaction_id' | 'merchant_id' | 'status' | 'amount_cents' | 'captured_cents' | 'psp_reference' | 'merchant_reference' | 'brand'
>;
export const CASE_TX_COLUMNS =
  'id, transaction_id, merchant_id, status, amount_cents, captured_cents, psp_reference, merchant_reference, brand';

export type RefundRow = Row<'sandbox_acquirer_refunds'>;
export type DisputeRow = Row<'sandbox_acquirer_disputes'>;

/** One step a refund plays: the row after it, and whether it is the refund's first verdict. */
export interface RefundStep {
  refund: RefundRow;
  tx: CaseTransaction;
  first: boolean;
  status: 'SUCCEEDED' | 'FAILED' | 'REVERSED';
  reason?: SandboxRefundFailure;
}

/** One stage a dispute plays. */
export interface DisputeStep {
  dispute: DisputeRow;
  tx: CaseTransaction;
  stage: CardDisputeStage;
  /** The scheme's words for the reason code (Adyen's `reason`). */
  reasonText: string;
  /** The merchant references of the payment's refunds (Adyen's `modificationMerchantReferences`). */
  refundReferences: string[];
}
