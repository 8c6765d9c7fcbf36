import { defineErrors } from '../../kernel/platform/errors/app-error';
import { registerDomainErrors } from '../../kernel/platform/errors/app-error';
import { FeeError, FeeErrorCode } from './domain/fees';
import { LinkStateError, LinkStateErrorCode } from './domain/link.state-machine';
import { PaymentItemStateError, PaymentItemStateErrorCode } from './domain/payment-item.state-machine';
import { SplitError, SplitErrorCode } from './domain/splits';
import { PixChargeRefused } from '../provider/pix-charges.port';
import { MoneyError } from '../../kernel/common/formats/money';

/** Error codes of payment links, merchants, fees and the checkout. */
export const LinkErrors = defineErrors({
  link_not_found: 404,
  merchant_not_found: 404,
  payment_not_found: 404,
  tenant_not_found: 404,
  invalid_link: 400,
  invalid_amount: 400,
  split_owner_missing: 400,
  split_duplicate_merchant: 400,
  split_share_invalid: 400,
  split_total_mismatch: 400,
  split_merchant_unknown: 400,
  fee_invalid: 400,
  method_not_enabled: 400,
  installments_invalid: 400,
  card_invalid: 400,
  payer_invalid: 400,
  link_status_not_settable: 400,
  invalid_transition: 409,
  link_unavailable: 409,
  link_busy: 409,
  attempt_conflict: 409,
  /** API Pix: the PSP refused the charge's content (its violations in details). */
  pix_charge_rejected: 400,
  /** API Pix: the PSP refused the receiver (key, contract, access), in details. */
  pix_charge_refused: 409,
  provider_unavailable: 503,
});
export type LinkErrorCode = keyof typeof LinkErrors.table;

/** The links domain's own errors, when no use case answered them with its own code. */
registerDomainErrors<FeeErrorCode>(FeeError, {
  fee_table_invalid: 400,
  fee_method_invalid: 400,
  fee_installments_invalid: 400,
  fee_amount_invalid: 400,
  fee_exceeds_amount: 400,
  fee_installment_too_small: 400,
});
registerDomainErrors<SplitErrorCode>(SplitError, {
  split_owner_missing: 400,
  split_duplicate_merchant: 400,
  split_share_invalid: 400,
  split_total_mismatch: 400,
});
registerDomainErrors<LinkStateErrorCode>(LinkStateError, { invalid_transition: 409, link_status_not_settable: 400 });
registerDomainErrors<PaymentItemStateErrorCode>(PaymentItemStateError, { invalid_transition: 409, unknown_status: 400 });
registerDomainErrors(PixChargeRefused, { pix_charge_rejected: 400 });

/**
 * The one place a fee calculation's refusal becomes a links answer (the checkout, the quote, the
 * simulator, a link's fixed price, a merchant's own table all go through it): `fee_invalid` on
 * the request field the calculation came from, or `installments_invalid` on `installments` when
 * the fee table has no rate for the count asked. The fee domain's own code stays in the detail.
 * `fees` is a merchant's table, whose amounts can also fail as money.
 */
export function refusingFees<T>(field: 'amount' | 'fees', calculate: () => T): T {
  try {
    return calculate();
  } catch (e) {
    if (!(e instanceof FeeError || (field === 'fees' && e instanceof MoneyError))) throw e;
    const installments = field === 'amount' && e.code === 'fee_installments_invalid';
    const message = field === 'amount' ? `This amount cannot be charged: ${e.message}` : e.message;
    throw LinkErrors.error(installments ? 'installments_invalid' : 'fee_invalid', message, {
      details: [{ field: installments ? 'installments' : field, message, code: e.code }],
    });
  }
}

declare module '../../kernel/platform/errors/app-error' {
  /** LinkErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof LinkErrors.table, true> {}
}
