import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InboundOutcome, InboundProviderEvent, ProviderEventRouter } from '../../provider/bank/provider-event-router';
import { refusedBillingEvent, refusedRecurrenceEvent } from '../domain/event-order';
import { classifyProviderEvent, ProviderEventMapping } from '../domain/provider-events';
import { TransitionRefusal } from '../../../kernel/platform/state-machine/state-machine';
import { BillingsRepository } from '../billings.repository';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { RecurrencesRepository } from '../recurrences.repository';
import { exec } from '../sql';
import { billingEvent, OutboundEvents, recurrenceEvent } from './outbound-events';
import { Moved, PixTransitions } from './pix-transitions';
import { Tx, pool, transaction } from '../../../kernel/platform/database/sql';

const MAX_REPLAY_ROUNDS = 10;

/**
 * Applies the provider's events (RECEIVER_* and PAYER_* variants) through the state machines.
 * Each event is logged with its outcome: APPLIED; DUPLICATE (the entity already is where the
 * event leads); LATE (behind the current state: recorded, ignored); PARKED (ahead of a missing
 * predecessor: applied when that one arrives); RECORDED (moves nothing); UNKNOWN_ENTITY.
 */
@Injectable()
export class ProviderEventHandler implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly router: ProviderEventRouter,
    private readonly recurrences: RecurrencesRepository,
    private readonly billings: BillingsRepository,
    private readonly transitions: PixTransitions,
    private readonly events: OutboundEvents,
  ) {}

  onModuleInit(): void {
    this.router.register((e) => this.handle(e), {
      statuses: async (idTxs) => {
        if (!idTxs.length) return new Map();
        const { rows } = await exec<{ id_tx: string; status: string }>(
          pool(this.ds),
          `SELECT id_tx, status FROM pix_billings WHERE id_tx = ANY($1)`,
          [idTxs],
        );
        return new Map(rows.map((r) => [r.id_tx, r.status]));
      },
      openDueBefore: async (day) => {
        const { rows } = await exec<{ first: string | null; last: string | null }>(
          pool(this.ds),
          `SELECT min(due_date)::text AS first, max(due_date)::text AS last FROM pix_billings WHERE status IN ('SENT','ACTIVE') AND due_date < $1`,
          [day],
        );
        return rows[0]?.first ? { first: rows[0].first, last: rows[0].last! } : null;
      },
    });
  }

  async handle(ev: InboundProviderEvent): Promise<{ outcome: InboundOutcome }> {
    const c = classifyProviderEvent(ev.eventType);
    if (!c.ok) throw PixAutomaticErrors.error('unknown_event_type', `Unknown event type ${ev.eventType}`);
    return transaction(this.ds, async (m) => {
      const outcome = await this.apply(m, c.mapping, ev.idTx);
      await exec(
        m,
        `INSERT INTO pix_provider_events (event_type, id_tx, outcome, payload, settled_at) VALUES ($1, $2, $3, $4, CASE WHEN $3 = 'PARKED' THEN NULL ELSE now() END)`,
        [ev.eventType, ev.idTx, outcome, JSON.stringify(ev)],
      );
      if (outcome === 'APPLIED') await this.replayParked(m, [ev.idTx]);
      return { outcome };
    });
  }

  /** Applies parked events of these idTx whose predecessor has now arrived (call after a move). */
  async replayParked(m: Tx, idTxs: string[]): Promise<void> {
    let pending = idTxs;
    for (let round = 0; round < MAX_REPLAY_ROUNDS && pending.length; round++) {
      const { rows } = await exec<{ id: string; event_type: string; id_tx: string }>(
        m,
        `SELECT id, event_type, id_tx FROM pix_provider_events WHERE outcome = 'PARKED' AND id_tx = ANY($1) ORDER BY id FOR UPDATE`,
        [pending],
      );
      const moved = new Set<string>();
      for (const row of rows) {
        const c = classifyProviderEvent(row.event_type);
        if (!c.ok) continue;
        const outcome = await this.apply(m, c.mapping, row.id_tx);
        if (outcome === 'PARKED') continue;
        await exec(m, `UPDATE pix_provider_events SET outcome = $2, replayed = true, settled_at = now() WHERE id = $1`, [row.id, outcome]);
        if (outcome === 'APPLIED') moved.add(row.id_tx);
      }
      pending = [...moved];
    }
  }

  private async apply(m: Tx, map: ProviderEventMapping, idTx: string): Promise<InboundOutcome> {
    if (map.kind === 'recurrence') {
      const r = await this.recurrences.lockByIdTx(m, idTx);
      if (!r) return 'UNKNOWN_ENTITY';
      if (!map.trigger || !map.targetStatus) {
        await this.events.publishOnce(m, recurrenceEvent(r, map.receiverEventType));
        return 'RECORDED';
      }
      const res = await this.transitions.recurrence(m, r, map.trigger, map.receiverEventType);
      return this.outcomeOf(
        res,
        () => refusedRecurrenceEvent(r.status, map.targetStatus!),
        () => this.events.publishOnce(m, recurrenceEvent(r, map.receiverEventType)),
      );
    }
    const b = await this.billings.lockByIdTx(m, idTx);
    if (!b) return 'UNKNOWN_ENTITY';
    if (!map.trigger || !map.targetStatus) {
      await this.events.publishOnce(m, billingEvent(b, map.receiverEventType));
      return 'RECORDED';
    }
    const res = await this.transitions.billing(m, b, map.trigger, map.receiverEventType);
    return this.outcomeOf(
      res,
      () => refusedBillingEvent(b.status, map.targetStatus as any),
      () => this.events.publishOnce(m, billingEvent(b, map.receiverEventType)),
    );
  }

  private async outcomeOf(res: Moved<unknown>, fate: () => 'PARKED' | 'LATE', tellIfNew: () => Promise<boolean>): Promise<InboundOutcome> {
    if (res.moved) return 'APPLIED';
    if (res.reason === TransitionRefusal.ALREADY_IN_TARGET_STATE) {
      // Already there (the other variant, a duplicate, or a status set by refresh): the caller
      // hears of it once.
      await tellIfNew();
      return 'DUPLICATE';
    }
    if (res.reason === TransitionRefusal.TERMINAL_STATE) return 'LATE';
    return fate();
  }
}
