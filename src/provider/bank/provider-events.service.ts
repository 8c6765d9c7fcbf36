import { Injectable } from '@nestjs/common';
import { BankProviderConfig } from './bank-provider.config';
import { ProviderBankErrors } from './provider-bank.errors';
import { InboundOutcome, InboundProviderEvent, ProviderEventRouter } from './provider-event-router';
import { verifyProviderEvent } from '../../../kernel/common/protocols/provider-events';

const ID_TX = /^[A-Za-z0-9._:-]{1,64}$/;
const EVENT_TYPE = /^PIX_AUTOMATIC_(RECEIVER|PAYER)_[A-Z_]{1,64}$/;

/** Authenticates an inbound provider event and hands it to the feature that owns it. */
@Injectable()
export class ProviderEventsService {
  constructor(
    private readonly config: BankProviderConfig,
    private readonly router: ProviderEventRouter,
  ) {}

  async receive(
    rawBody: Buffer | undefined,
    signature: string | undefined,
    body: unknown,
  ): Promise<{ received: true; outcome: InboundOutcome }> {
    if (!rawBody || !verifyProviderEvent(this.config.eventsSecret, rawBody, signature)) {
      throw ProviderBankErrors.error('invalid_signature', 'The X-Provider-Signature header does not match the body');
    }
    const event = parseEvent(body);
    const handled = this.router.dispatch(event);
    if (!handled) throw ProviderBankErrors.error('events_not_handled', 'No handler is registered for provider events yet; retry');
    const { outcome } = await handled;
    return { received: true, outcome };
  }
}

function parseEvent(body: unknown): InboundProviderEvent {
  const b = body as Record<string, unknown> | null;
  const details: { field: string; message: string }[] = [];
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw ProviderBankErrors.error('invalid_event', 'The event must be a JSON object');
  if (typeof b.eventType !== 'string' || !EVENT_TYPE.test(b.eventType))
    details.push({ field: 'eventType', message: 'must be a PIX_AUTOMATIC_RECEIVER_* or PIX_AUTOMATIC_PAYER_* event type' });
  if (typeof b.idTx !== 'string' || !ID_TX.test(b.idTx))
    details.push({ field: 'idTx', message: 'must be 1-64 characters [A-Za-z0-9._:-]' });
  if (b.occurredAt !== undefined && (typeof b.occurredAt !== 'string' || Number.isNaN(Date.parse(b.occurredAt))))
    details.push({ field: 'occurredAt', message: 'must be an ISO 8601 timestamp' });
  if (b.data !== undefined && (typeof b.data !== 'object' || b.data === null || Array.isArray(b.data)))
    details.push({ field: 'data', message: 'must be an object' });
  if (details.length) throw ProviderBankErrors.error('invalid_event', 'The event has invalid fields', { details });
  return {
    eventType: b.eventType as string,
    idTx: b.idTx as string,
    occurredAt: b.occurredAt as string | undefined,
    data: b.data as Record<string, unknown> | undefined,
  };
}
