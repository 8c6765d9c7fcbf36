import { Injectable } from '@nestjs/common';

/** An event as the provider POSTs it to `/provider/events`. */
export interface InboundProviderEvent {
  eventType: string;
  idTx: string;
  occurredAt?: string;
  data?: Record<string, unknown>;
}

export type InboundOutcome = 'APPLIED' | 'DUPLICATE' | 'LATE' | 'PARKED' | 'UNKNOWN_ENTITY' | 'RECORDED';

export type InboundEventHandler = (event: InboundProviderEvent) => Promise<{ outcome: InboundOutcome }>;

/** What a provider adapter may read of the feature's billings (API Pix reconciliation), without importing it. */
export interface BillingStatusView {
  /** Current status of each billing with one of these idTx (absent: not ours). */
  statuses(idTxs: string[]): Promise<Map<string, string>>;
  /** Due-date range of the billings the provider holds open (SENT, ACTIVE) due before `day`; null when none. */
  openDueBefore(day: string): Promise<{ first: string; last: string } | null>;
}

/**
 * Where inbound provider events go. The provider module knows HTTP and signatures, not what an
 * event means; the feature that owns the events registers its handler here at boot, so the
 * provider never imports a feature module.
 */
@Injectable()
export class ProviderEventRouter {
  private handler: InboundEventHandler | null = null;
  private view: BillingStatusView | null = null;

  register(handler: InboundEventHandler, view?: BillingStatusView): void {
    this.handler = handler;
    if (view) this.view = view;
  }

  billings(): BillingStatusView | null {
    return this.view;
  }

  dispatch(event: InboundProviderEvent): Promise<{ outcome: InboundOutcome }> | null {
    return this.handler ? this.handler(event) : null;
  }
}
