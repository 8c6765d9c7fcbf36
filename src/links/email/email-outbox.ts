import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { endSpan, startClientSpan } from '../../../kernel/platform/tracing/tracing';
import { HealthRegistry } from '../../../kernel/platform/health/health-registry';
import { JobQueue } from '../../../kernel/platform/queue/job-queue';
import { LinksConfig } from '../links.config';
import { Notice } from './payment-notice';
import { Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';
import type { Row } from '../../../kernel/platform/database/sql';

/** The job kind that sends one payment notice (its key: the outbox row's id). */
export const LINKS_EMAIL_JOB = 'links.email';

type OutboxMail = Pick<Row<'links_email_outbox'>, 'id' | 'to_address' | 'subject' | 'text_body' | 'html_body'>;

/**
 * Payment notices by e-mail, from a table written in the same transaction as the payment
 * (one row per payment: a unique index), with a job on the job queue enqueued in it. The queue
 * sends each over SMTP (`SMTP_URL`) outside any request, in the job's transaction with the row
 * marked SENT; a failure waits its backoff (LINKS_EMAIL_RETRY_BASE_MS), and past
 * LINKS_EMAIL_MAX_ATTEMPTS the job is dead (the queue's metric, readiness `email` degraded, the
 * operator's list and replay). Without SMTP_URL the kind is not run here and its jobs wait.
 */
@Injectable()
export class EmailOutbox implements OnModuleDestroy {
  private readonly transport: Transporter | null;

  constructor(
    private readonly ds: DataSource,
    private readonly config: LinksConfig,
    private readonly queue: JobQueue,
    health: HealthRegistry,
  ) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : null;
    if (this.transport) queue.register(LINKS_EMAIL_JOB, { ...config.email, dependency: 'email' }, (job, tx) => this.send(job.key, tx));
    health.add({ name: 'linksEmail', dependency: 'email', check: () => this.health() });
  }

  /** Degraded (never down: payments do not depend on mail) when notices are late; dead ones are the queue's (`jobQueue`). */
  private async health(): Promise<{ status: 'up' | 'degraded'; [k: string]: unknown }> {
    if (!this.config.smtpUrl) return { status: 'up', smtp: 'not configured' };
    try {
      const r = (
        await sql.rows<{ late: number }>(
          this.ds,
          `SELECT count(*)::int AS late FROM links_email_outbox WHERE status = 'PENDING' AND created_at < now() - interval '15 minutes'`,
        )
      )[0];
      return { status: r.late ? 'degraded' : 'up', late: r.late };
    } catch {
      return { status: 'degraded', error: 'outbox not readable' };
    }
  }

  async enqueue(m: Tx, row: { tenantId: string; paymentId: string; to: string } & Notice): Promise<void> {
    const added = await sql.maybeOne<{ id: string }>(
      m,
      `INSERT INTO links_email_outbox (tenant_id, payment_id, to_address, subject, text_body, html_body) VALUES ($1,$2,$3,$4,$5,$6)
       ON CONFLICT (payment_id) DO NOTHING RETURNING id`,
      [row.tenantId, row.paymentId, row.to, row.subject, row.text, row.html],
    );
    if (added) await this.queue.enqueue(m, LINKS_EMAIL_JOB, added.id);
  }

  /** Send soon (after a payment committed); never blocks the caller. */
  kick(): void {
    this.queue.kick();
  }

  /** The job: one notice sent, and its row SENT in the job's transaction; a failure throws (the queue retries it). */
  private async send(id: string, tx: Tx): Promise<void> {
    const r = await sql.maybeOne<OutboxMail>(
      tx,
      `SELECT id, to_address, subject, text_body, html_body FROM links_email_outbox WHERE id = $1 AND status = 'PENDING'`,
      [id],
    );
    if (!r) return;
    // a client span per message (tracing on): the server only, never the addresses or the content
    const span = startClientSpan('smtp send', smtpServer(this.config.smtpUrl), undefined, true);
    try {
      await this.transport!.sendMail({
        from: this.config.mailFrom,
        to: r.to_address,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
      });
      endSpan(span);
    } catch (e) {
      endSpan(span, undefined, e ?? 'error');
      throw e;
    }
    await sql.exec(tx, `UPDATE links_email_outbox SET status = 'SENT', sent_at = now() WHERE id = $1`, [r.id]);
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}

/** The SMTP server as span attributes: host and port only (the URL's user and password stay out). */
function smtpServer(url: string | undefined): Record<string, string | number> {
  const u = new URL(url ?? 'smtp://localhost');
  return {
    'server.address': u.hostname,
    'server.port': Number(u.port) || (u.protocol === 'smtps:' ? 465 : 587),
    'network.protocol.name': 'smtp',
  };
}
