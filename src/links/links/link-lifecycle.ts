import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { allowedFrom, linkTriggerDue } from '../domain/link.state-machine';
import { Link } from './link.types';
import { LinksRepository } from './links.repository';
import { Tx, transaction } from '../../../kernel/platform/database/sql';

/**
 * The transitions the service makes on its own: EXPIRED at expiresAt (test clock) and
 * EXHAUSTED at maxUses, each a conditional UPDATE with its event in the same transaction.
 */
@Injectable()
export class LinkLifecycle {
  constructor(
    private readonly ds: DataSource,
    private readonly links: LinksRepository,
    private readonly clock: Clock,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  /** Whether the link machine expires this link now (ACTIVE and past expiresAt). */
  isDueToExpire(l: Pick<Link, 'status' | 'expiresAt'>, now = this.clock.now()): boolean {
    return linkTriggerDue(l.status, 'EXPIRES_AT_REACHED', { now, expiresAt: l.expiresAt, maxUses: null, paidCount: 0 });
  }

  async expireIn(m: Tx, linkId: string): Promise<boolean> {
    const now = this.clock.now();
    const moved = await this.links.transition(m, linkId, allowedFrom('EXPIRES_AT_REACHED'), 'EXPIRED', now);
    if (moved) await this.links.addEvent(m, linkId, 'LINK_EXPIRED', {}, now);
    return moved;
  }

  /** ACTIVE and full → EXHAUSTED, as the link machine's guard decides (call with the row locked, after counting a payment). */
  async exhaustIfFullIn(m: Tx, l: Pick<Link, 'id' | 'status' | 'maxUses' | 'paidCount'>): Promise<boolean> {
    const now = this.clock.now();
    if (!linkTriggerDue(l.status, 'MAX_USES_REACHED', { now, expiresAt: null, maxUses: l.maxUses, paidCount: l.paidCount })) return false;
    const moved = await this.links.transition(m, l.id, allowedFrom('MAX_USES_REACHED'), 'EXHAUSTED', now);
    if (moved) await this.links.addEvent(m, l.id, 'LINK_EXHAUSTED', { paidCount: l.paidCount, maxUses: l.maxUses }, now);
    return moved;
  }

  /** Reading a link whose expiry passed before the timer saw it: expire it now and answer the fresh state. */
  async fresh(l: Link): Promise<Link> {
    if (!this.isDueToExpire(l)) return l;
    await transaction(this.ds, (m) => this.expireIn(m, l.id));
    return { ...l, status: 'EXPIRED' };
  }

  /** Every ACTIVE link past expiresAt (timer and test clock). */
  async expireDue(limit = 200): Promise<number> {
    return transaction(this.ds, async (m) => {
      const ids = await this.links.claimExpired(m, this.clock.now(), limit);
      for (const id of ids) await this.expireIn(m, id);
      return ids.length;
    });
  }
}
