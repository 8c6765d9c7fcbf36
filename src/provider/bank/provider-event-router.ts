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

/**
 * Where inbound provider events go. The provider module knows HTTP and signatures, not what an
 * event means; the feature that owns the events registers its handler here at boot, so the
 * provider never imports a feature module.
 */
@Injectable()
export class ProviderEventRouter {
  private handler: InboundEventHandler | null = null;

  register(handler: InboundEventHandler): void {
    this.handler = handler;
  }

  dispatch(event: InboundProviderEvent): Promise<{ outcome: InboundOutcome }> | null {
    return this.handler ? this.handler(event) : null;
  }
}
