import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';

import { MetricsService } from '../../../kernel/platform/metrics/metrics.service';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { EventPublisher } from '../../webhooks/event-publisher';
import { isPaid } from '../domain/payment-item.state-machine';
import { EmailOutbox } from '../email/email-outbox';
import { paymentNotice } from '../email/payment-notice';
import { Link } from '../links/link.types';
import { itemToDto } from '../links/link.mapper';
import { PaymentItem } from './payment.types';
import { Tx } from '../../../kernel/platform/database/sql';

/** The acquiring webhook a status gives, if any (spec "Acquiring-domain events"). */
export function webhookTypeFor(method: string, from: string | null, to: string): string | null {
  if (method === 'PIX' && to === 'SETTLED') return 'acquiring.payout';
  if (from !== null && isPaid(from)) return null; // already announced when it first became paid
  if (method === 'CARD' && (to === 'ACCEPTED' || to === 'CAPTURED')) return 'acquiring.financial_transaction';
  if (method === 'PIX' && to === 'AUTHORIZED') return 'acquiring.financial_transaction';
  if (method === 'BOLETO' && (to === 'PAID' || to === 'PAID_PIX')) return 'acquiring.payment_slip_notification';
  return null;
}

export function receiptUrl(publicUrl: string, slug: string, paymentId: string): string {
  return `${publicUrl}/checkout/${slug}/payments/${paymentId}/receipt`;
}

/**
 * What a confirmed payment sets off, written in the caller's transaction: the acquiring webhook
 * (outbox of the webhooks module) and the e-mail notice (this module's outbox).
 */
@Injectable()
export class PaymentEffects {
  private readonly statuses: Counter<'method' | 'status'>;

  constructor(
    private readonly publisher: EventPublisher,
    private readonly email: EmailOutbox,
    private readonly platform: PlatformConfig,
    metrics: MetricsService,
  ) {
    this.statuses = new Counter({
      name: 'links_payment_statuses_total',
      help: 'Payment items of links entering a status (new attempts and changes), by method',
      labelNames: ['method', 'status'] as const,
      registers: [metrics.registry],
    });
  }

  async onStatus(m: Tx, link: Link, p: PaymentItem, from: string | null, at: Date): Promise<void> {
    const type = webhookTypeFor(p.method, from, p.status);
    if (type) {
      const item = itemToDto(p);
      await this.publisher.publish(m, {
        tenantId: link.tenantId,
        domain: 'acquiring',
        type,
        idTx: p.id,
        occurredAt: at,
        data: { transactionId: p.id, linkId: link.id, slug: link.slug, ...item, previousStatus: from },
      });
    }
    const firstPaid = isPaid(p.status) && (from === null || !isPaid(from));
    if (firstPaid && link.notifyEmail && link.actorEmail) {
      const url = receiptUrl(this.platform.publicUrl, link.slug, p.id);
      await this.email.enqueue(m, {
        tenantId: link.tenantId,
        paymentId: p.id,
        to: link.actorEmail,
        ...paymentNotice(link, p, p.status, url, at),
      });
    }
  }

  /** After commit: count the statuses reached and let the e-mail worker look at once (it sends outside the request). */
  afterCommit(reached: { method: string; status: string }[]): void {
    for (const r of reached) this.statuses.inc({ method: r.method, status: r.status });
    this.email.kick();
  }
}
