import { defineErrors } from '../../kernel/platform/errors/app-error';

/** Error codes of refunds and disputes. */
export const RefundErrors = defineErrors({
  validation_error: 400,
  payment_not_found: 404,
  refund_not_found: 404,
  dispute_not_found: 404,
  payment_not_refundable: 409,
  refund_exceeds_refundable: 422,
  refund_window_closed: 422,
  devolucao_rejected: 422,
  refund_conflict: 409,
  invalid_refund_status: 409,
  med_case_not_found: 404,
  acquirer_unavailable: 500,
  acquirer_rejected: 500,
});

declare module '../../kernel/platform/errors/app-error' {
  /** RefundErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof RefundErrors.table, true> {}
}
