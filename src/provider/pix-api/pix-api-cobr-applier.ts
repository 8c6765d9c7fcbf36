import { Injectable } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { ProviderEventRouter } from '../bank/provider-event-router';
import { retryDate } from './cobr-retry';
import { billingStatusOfCobr, CobrState, eventsToReach } from './cobr-status.map';
import { PixApiBillings } from './pix-api-billings';
import { PixApiReceivedPix } from './pix-api-received-pix';

/** The endToEndId of the Pix that paid a cobr: its PAGA attempt's (a CONCLUIDA cobr has one). */
export function paidEndToEndId(c: Pick<CobrState, 'status' | 'tentativas'>): string | null {
  if (c.status !== 'CONCLUIDA') return null;
  return c.tentativas?.find((a) => a.status === 'PAGA' && a.endToEndId)?.endToEndId ?? null;
}

/**
 * A cobr's state as read back from the PSP (a callback, a GET or a page of GET /cobr), applied:
 * the provider events that lead its billing there (`eventsToReach`), through the same handling as
 * the `service` provider's; the Pix that paid it recorded as a Pix received (so a billing can be
 * given back by devolução, and a MED on it found); then, under PERMITE_3R_7D, a retry asked for
 * when an attempt failed (`POST /cobr/{txid}/retentativa/{data}`).
 */
@Injectable()
export class PixApiCobrApplier {
  constructor(
    private readonly billings: PixApiBillings,
    private readonly router: ProviderEventRouter,
    private readonly received: PixApiReceivedPix,
    private readonly clock: Clock,
  ) {}

  async apply(c: CobrState): Promise<void> {
    for (const eventType of eventsToReach(billingStatusOfCobr(c))) {
      const handled = this.router.dispatch({
        eventType,
        idTx: c.txid,
        occurredAt: this.clock.now().toISOString(),
        data: { source: 'pix-api', cobrStatus: c.status },
      });
      if (!handled) throw new Error('provider events are not handled yet');
      const { outcome } = await handled;
      if (outcome === 'UNKNOWN_ENTITY') return;
    }
    const paidBy = paidEndToEndId(c);
    if (paidBy) await this.received.recordCobrPayment(paidBy);
    const date = retryDate(c, this.clock.today());
    if (date) await this.billings.cobr().requestRetry(c.txid, date);
  }
}
