import { Tx } from '../../kernel/platform/database/sql';

/** The two outbound event domains and how their deliveries are protected. */
export type EventDomain = 'acquiring' | 'pix-automatic';

export interface OutboundEvent {
  tenantId: string;
  domain: EventDomain;
  /** `acquiring.financial_transaction`, `acquiring.payout`, `acquiring.payment_slip_notification`, or a `PIX_AUTOMATIC_RECEIVER_*` event_type. */
  type: string;
  /** Transaction id (recurring-debit events carry it as `idTx`). */
  idTx?: string;
  data: Record<string, unknown>;
  occurredAt?: Date;
}

/**
 * Port: write an outbound event in the SAME transaction as the state change that causes it.
 * The webhooks module binds it to its outbox; features never send HTTP to callers themselves.
 * Other outbox consumers (e-mail) use `kind` to say what the row is for.
 */
export abstract class EventPublisher {
  abstract publish(manager: Tx, event: OutboundEvent): Promise<void>;
  /** As `publish` for each event, in their order, as one write (batch jobs publish thousands at once). */
  abstract publishMany(manager: Tx, events: OutboundEvent[]): Promise<void>;
}
