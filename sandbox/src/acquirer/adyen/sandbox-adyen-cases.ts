import type { AdyenEventCode, AdyenNotificationItem } from '../../../../kernel/common/protocols/adyen';
import type { SandboxRefundFailure } from '../../cards/sandbox-refunds';
import type { DisputeStep, RefundStep } from '../sandbox-cases.types';
import { pspReferenceOf } from './sandbox-adyen-checkout';

/**
 * The Adyen face's webhooks for refunds and disputes, built as Adyen documents them (Webhooks v1):
 * a refund's items carry `originalReference` = the payment's pspReference, `pspReference` = the
 * refund's own, `merchantReference` = the refund's `reference`; every item of one dispute shares
 * the dispute's pspReference. Brazil: no `disputeStatus`.
 */

/** Adyen's `reason` text for each of the sandbox's refund failures. */
export const ADYEN_REFUND_REASONS: Readonly<Record<SandboxRefundFailure, string>> = {
  refund_declined: 'Refund declined',
  refund_failed_at_scheme: 'Refund rejected by the card scheme',
  refund_exceeds_captured: 'Insufficient balance on payment',
};

/** The webhook name of a card brand (`paymentMethod`). */
export function adyenPaymentMethodOf(brand: string): string {
  switch (brand.toUpperCase()) {
    case 'VISA':
      return 'visa';
    case 'MASTERCARD':
      return 'mc';
    case 'AMEX':
      return 'amex';
    default:
      return 'scheme';
  }
}

/**
 * The item a refund's step is reported by. A refund (`/refunds`): its first verdict is REFUND
 * (success true or false, with the reason); a failure after success is REFUND_FAILED, which Adyen
 * sends with success "true" (the event happened); a reversal after success is REFUNDED_REVERSED.
 * A reversal (`/reversals`) is reported once, by CANCEL_OR_REFUND, `modification.action` saying
 * which it was.
 */
export function adyenRefundItem(s: RefundStep, eventDate: string): { key: string; item: AdyenNotificationItem } {
  const { refund, tx, first, status, reason } = s;
  const psp = refund.psp_reference ?? pspReferenceOf(refund.id);
  let eventCode: AdyenEventCode;
  let success = true;
  let additionalData: Record<string, string> = {};
  if (refund.kind !== 'REFUND') {
    eventCode = 'CANCEL_OR_REFUND';
    success = status === 'SUCCEEDED';
    additionalData = { 'modification.action': refund.kind === 'REVERSAL_CANCEL' ? 'cancel' : 'refund' };
  } else if (first) {
    eventCode = 'REFUND';
    success = status === 'SUCCEEDED';
  } else {
    eventCode = status === 'REVERSED' ? 'REFUNDED_REVERSED' : 'REFUND_FAILED';
  }
  const item: AdyenNotificationItem = {
    pspReference: psp,
    originalReference: tx.psp_reference ?? '',
    merchantAccountCode: tx.merchant_id,
    merchantReference: refund.merchant_reference ?? tx.merchant_reference ?? '',
    eventCode,
    eventDate,
    success: success ? 'true' : 'false',
    amount: { currency: 'BRL', value: Number(refund.amount_cents) },
    paymentMethod: adyenPaymentMethodOf(tx.brand),
    ...(reason ? { reason: ADYEN_REFUND_REASONS[reason] } : {}),
    additionalData,
  };
  return { key: `${psp}:${eventCode}:${item.success}`, item };
}

/** The item of a dispute's stage: chargeback reason and scheme, the defence deadline while it can be defended. */
export function adyenDisputeItem(s: DisputeStep, eventDate: string): { key: string; item: AdyenNotificationItem } {
  const { dispute, tx, stage, refundReferences } = s;
  const psp = pspReferenceOf(dispute.id);
  const open = DEFENDABLE.has(stage);
  const additionalData: Record<string, string> = {
    chargebackReasonCode: dispute.reason_code,
    chargebackSchemeCode: adyenPaymentMethodOf(tx.brand),
    defendable: open ? 'true' : 'false',
    autoDefended: 'false',
    ...(open ? { defensePeriodEndsAt: new Date(dispute.defend_by).toISOString() } : {}),
    ...(refundReferences.length ? { modificationMerchantReferences: refundReferences.join(',') } : {}),
  };
  const item: AdyenNotificationItem = {
    pspReference: psp,
    originalReference: tx.psp_reference ?? '',
    merchantAccountCode: tx.merchant_id,
    merchantReference: tx.merchant_reference ?? '',
    eventCode: stage,
    eventDate,
    success: 'true',
    amount: { currency: 'BRL', value: Number(dispute.amount_cents) },
    paymentMethod: adyenPaymentMethodOf(tx.brand),
    reason: s.reasonText,
    additionalData,
  };
  return { key: `${psp}:${stage}`, item };
}

/** Stages a merchant can still answer (Adyen's `defendable`; they carry `defensePeriodEndsAt`). */
export const DEFENDABLE: ReadonlySet<string> = new Set([
  'REQUEST_FOR_INFORMATION',
  'NOTIFICATION_OF_CHARGEBACK',
  'CHARGEBACK',
  'SECOND_CHARGEBACK',
]);
