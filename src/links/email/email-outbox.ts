import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { PeriodicJob, PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { endSpan, startClientSpan } from '../../../kernel/platform/tracing/tracing';
import { HealthRegistry } from '../../../kernel/platform/health/health-registry';
import { LinksConfig } from '../links.config';
import { Notice } from './payment-notice';
import { Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';
import type { Row } from '../../../kernel/platform/database/sql';

const LEASE_SECONDS = 60;
const BACKOFF_SECONDS = [5, 30, 120, 600, 1800, 3600];
const MAX_ATTEMPTS = 10;

/**
 * Payment notices by e-mail, from a table written in the same transaction as the payment
 * (one row per payment: a unique index). A worker sends them over SMTP (`SMTP_URL`) outside
 * any request, claiming rows with FOR UPDATE SKIP LOCKED and a lease, with backoff; after
 * ten failures a row is DEAD. Without SMTP_URL rows wait.
 */
type OutboxMail = Pick<Row<'links_email_outbox'>, 'id' | 'to_address' | 'subject' | 'text_body' | 'html_body' | 'attempts'>;

@Injectable()
export class EmailOutbox implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LinksEmail');
  private transport: Transporter | null = null;
  private job: PeriodicJob | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly config: LinksConfig,
    private readonly jobs: PeriodicJobs,
    health: HealthRegistry,
  ) {
    health.add({ name: 'linksEmail', dependency: 'email', check: () => this.health() });
  }

  /** Degraded (never down: payments do not depend on mail) when notices are stuck or dead. */
  private async health(): Promise<{ status: 'up' | 'degraded'; [k: string]: unknown }> {
    if (!this.config.smtpUrl) return { status: 'up', smtp: 'not configured' };
    try {
      const r = (
        await sql.rows(
          this.ds,
          `SELECT count(*) FILTER (WHERE status = 'DEAD')::int AS dead,
                count(*) FILTER (WHERE status = 'PENDING' AND created_at < now() - interval '15 minutes')::int AS late
         FROM links_email_outbox WHERE status IN ('DEAD', 'PENDING')`,
        )
      )[0];
      return { status: r.dead || r.late ? 'degraded' : 'up', dead: r.dead, late: r.late };
    } catch {
      return { status: 'degraded', error: 'outbox not readable' };
    }
  }

  async enqueue(m: Tx, row: { tenantId: string; paymentId: string; to: string } & Notice): Promise<void> {
    await sql.rows(
      m,
      `INSERT INTO links_email_outbox (tenant_id, payment_id, to_address, subject, text_body, html_body) VALUES ($1,$2,$3,$4,$5,$6)
       ON CONFLICT (payment_id) DO NOTHING`,
      [row.tenantId, row.paymentId, row.to, row.subject, row.text, row.html],
    );
  }

  onApplicationBootstrap(): void {
    if (!this.config.smtpUrl) return;
    this.transport = createTransport(this.config.smtpUrl);
    this.job = this.jobs.schedule({ name: 'links-email', everyMs: this.config.tickMs, run: () => this.sendDue() });
  }

  /** Look at the outbox soon (after a payment committed); never blocks the caller. */
  kick(): void {
    this.job?.kick();
  }

  /** One pass: claim due rows and send them. */
  async sendDue(limit = 20): Promise<number> {
    if (!this.transport) return 0;
    const res = await sql.rows<OutboxMail>(
      this.ds,
      `UPDATE links_email_outbox SET attempts = attempts + 1, next_attempt_at = now() + interval '${LEASE_SECONDS} seconds'
       WHERE id IN (SELECT id FROM links_email_outbox WHERE status = 'PENDING' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
       RETURNING id, to_address, subject, text_body, html_body, attempts`,
    );
    for (const r of res) await this.send(r);
    return res.length;
  }

  private async send(r: OutboxMail): Promise<void> {
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
      await sql.rows(this.ds, `UPDATE links_email_outbox SET status = 'SENT', sent_at = now(), last_error = NULL WHERE id = $1`, [r.id]);
    } catch (e: any) {
      endSpan(span, undefined, e ?? 'error');
      const dead = r.attempts >= MAX_ATTEMPTS;
      const wait = BACKOFF_SECONDS[Math.min(r.attempts - 1, BACKOFF_SECONDS.length - 1)];
      this.logger.warn(
        { emailId: r.id, attempts: r.attempts, err: e?.message },
        dead ? 'payment notice dead after retries' : 'payment notice not sent; will retry',
      );
      await sql.rows(
        this.ds,
        `UPDATE links_email_outbox SET status = $2, next_attempt_at = now() + make_interval(secs => $3), last_error = $4 WHERE id = $1`,
        [r.id, dead ? 'DEAD' : 'PENDING', wait, String(e?.message ?? e).slice(0, 500)],
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.job?.stop();
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
