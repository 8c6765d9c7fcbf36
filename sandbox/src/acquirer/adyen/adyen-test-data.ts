/**
 * The sandbox's Adyen face reads test data as Adyen's test platform documents it ("Testing
 * result codes and refusal reasons"): a `holderName` from this table forces the result, on any
 * card number; otherwise the sandbox's own test cards decide (docs/guide/cards.md), so every
 * card the `generic` face knows behaves the same here.
 */
export interface AdyenTestOutcome {
  resultCode: 'Authorised' | 'Refused' | 'Error';
  refusalReason?: string;
  refusalReasonCode?: string;
  /** The sandbox card service's reason for a refusal (generic_decline when absent). */
  sandboxReason?: 'insufficient_funds' | 'expired_card' | 'invalid_card';
}

export const ADYEN_HOLDER_NAME_TRIGGERS: Readonly<Record<string, AdyenTestOutcome>> = {
  APPROVED: { resultCode: 'Authorised' },
  DECLINED: { resultCode: 'Refused', refusalReason: 'Refused', refusalReasonCode: '2' },
  REFERRAL: { resultCode: 'Refused', refusalReason: 'Referral', refusalReasonCode: '3' },
  ERROR: { resultCode: 'Error', refusalReason: 'Acquirer Error', refusalReasonCode: '4' },
  BLOCK_CARD: { resultCode: 'Refused', refusalReason: 'Blocked Card', refusalReasonCode: '5', sandboxReason: 'invalid_card' },
  CARD_EXPIRED: { resultCode: 'Refused', refusalReason: 'Expired Card', refusalReasonCode: '6', sandboxReason: 'expired_card' },
  INVALID_AMOUNT: { resultCode: 'Refused', refusalReason: 'Invalid Amount', refusalReasonCode: '7' },
  INVALID_CARD: { resultCode: 'Refused', refusalReason: 'Invalid Card Number', refusalReasonCode: '8', sandboxReason: 'invalid_card' },
  ISSUER_UNAVAILABLE: { resultCode: 'Error', refusalReason: 'Issuer Unavailable', refusalReasonCode: '9' },
  NOT_ENOUGH_BALANCE: {
    resultCode: 'Refused',
    refusalReason: 'Not enough balance',
    refusalReasonCode: '12',
    sandboxReason: 'insufficient_funds',
  },
  FRAUD: { resultCode: 'Refused', refusalReason: 'FRAUD', refusalReasonCode: '20' },
  CVC_DECLINED: { resultCode: 'Refused', refusalReason: 'CVC Declined', refusalReasonCode: '24', sandboxReason: 'invalid_card' },
  DO_NOT_HONOR: { resultCode: 'Refused', refusalReason: 'Do Not Honor', refusalReasonCode: '27' },
};

/** The sandbox acquirer's own verdicts (status + reason) as Adyen answers them. */
export function adyenOutcomeOf(status: string, reason?: string): AdyenTestOutcome {
  if (status === 'ACCEPTED' || status === 'PREAUTH') return { resultCode: 'Authorised' };
  if (status === 'FAILED') return { resultCode: 'Error', refusalReason: 'Acquirer Error', refusalReasonCode: '4' };
  switch (reason) {
    case 'insufficient_funds':
      return ADYEN_HOLDER_NAME_TRIGGERS.NOT_ENOUGH_BALANCE;
    case 'expired_card':
      return ADYEN_HOLDER_NAME_TRIGGERS.CARD_EXPIRED;
    case 'invalid_card':
      return ADYEN_HOLDER_NAME_TRIGGERS.INVALID_CARD;
    default:
      return ADYEN_HOLDER_NAME_TRIGGERS.DECLINED;
  }
}

/** A trigger as the sandbox card service's forced outcome. */
export function forcedOutcome(
  trigger: AdyenTestOutcome,
  capture: 'SALE' | 'PREAUTH',
): { status: 'ACCEPTED' | 'PREAUTH' | 'AUTH_REJECTED' | 'FAILED'; reason?: string } {
  if (trigger.resultCode === 'Authorised') return { status: capture === 'PREAUTH' ? 'PREAUTH' : 'ACCEPTED' };
  if (trigger.resultCode === 'Error') return { status: 'FAILED', reason: 'processing_error' };
  return { status: 'AUTH_REJECTED', reason: trigger.sandboxReason ?? 'generic_decline' };
}

/**
 * Adyen's published 3DS2 test cards (enrolled, expiry 03/2030): at the Adyen face they always
 * ask for a challenge that passes with the sandbox ACS's code (Adyen's own test ACS takes the
 * word `password`; the sandbox's page shows its code). Any other card keeps the sandbox 3DS
 * server's outcomes (docs/guide/cards.md).
 */
export const ADYEN_THREE_DS2_CARDS: readonly string[] = Object.freeze([
  '4917610000000000',
  '5454545454545454',
  '2222400010000008',
  '371449635398431',
]);
