import type { PixDevolucaoRefused } from '../provider/pix-devolucoes.port';
import { RefundErrors } from './refunds.errors';
import type { RefundRecord } from './refunds.repository';

/**
 * The route's answer when the PSP refused a devolução our own checks let through (its records
 * differ from ours: a devolução made outside this service, a clock apart). The refund is kept
 * FAILED with the matching failureCode, its id in the error's body.
 */
export function refusalError(e: PixDevolucaoRefused, r: RefundRecord) {
  const body = { refundId: r.id, failureCode: r.failureCode };
  switch (e.reason) {
    case 'exceeds_pix':
      return RefundErrors.error(
        'refund_exceeds_refundable',
        'The PSP refused the devolução: with the devoluções already made it would pass what the Pix paid',
        { body },
      );
    case 'window_closed':
      return RefundErrors.error('refund_window_closed', 'The PSP refused the devolução: 90 days have passed since the Pix settled', {
        body,
      });
    case 'id_reused':
      return RefundErrors.error('refund_conflict', 'The PSP holds another devolução under this refund id', { body });
    case 'pix_not_found':
      return RefundErrors.error('payment_not_refundable', 'The PSP does not know the Pix this payment received', { body });
    default:
      return RefundErrors.error('devolucao_rejected', `The PSP refused the devolução (${e.detail})`, { body });
  }
}
