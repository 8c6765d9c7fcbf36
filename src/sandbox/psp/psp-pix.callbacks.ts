import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicJobs } from '../../platform/jobs/periodic-jobs';
import { BreakerRegistry } from '../../platform/resilience/breaker-registry';
import { ResilientHttp } from '../../platform/http/resilient-http';
import { SandboxAcquirerConfig } from '../acquirer/sandbox-acquirer.config';
import { SandboxConfig } from '../sandbox.config';
import { pixView } from './psp-cob.view';
import { PspDevolucaoStore } from './psp-devolucao.store';
import * as sql from '../../platform/database/sql';

const LEASE_SECONDS = 30;
const BACKOFF_SECONDS = [1, 2, 5, 10, 30, 60, 300];
const PER_CALLBACK = 100;

/**
 * The sandbox PSP's received-Pix callbacks to `{webhookUrl}/pix`: an outbox
 * (`sandbox_psp_pix_callbacks`, written with the payment) posted after commit, then by the tick
 * with backoff; rows are leased so replicas never post one together. With no webhook for the key
 * the callback is dropped, as a PSP does: the receiver reconciles with GET /cob and GET /pix. With
 * SANDBOX_CHAOS each callback is posted twice (a PSP may repeat). A devolução that settles queues
 * its Pix's callback again: the Pix is posted with every devolução it has (PspDevolucaoSettlement).
 */
@Injectable()
export class PspPixCallbacks implements OnApplicationBootstrap {
  private readonly logger = new Logger('SandboxPspPix');
  private readonly clients = new Map<string, ResilientHttp>();

  constructor(
    private readonly ds: DataSource,
    private readonly breakers: BreakerRegistry,
    private readonly jobs: PeriodicJobs,
    private readonly config: SandboxConfig,
    private readonly acquirer: SandboxAcquirerConfig,
    private readonly devolucoes: PspDevolucaoStore,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.jobs.schedule({ name: 'sandbox-psp-pix-callbacks', everyMs: this.acquirer.tickMs, run: () => this.deliverDue() });
  }

  /** Posts one callback now (after the commit that wrote it); the tick retries it if this fails. */
  deliverOne(id: string): Promise<number> {
    return this.deliver(`c.id = $1::uuid`, [id]);
  }

  /** Posts every callback that is due (tick). */
  deliverDue(): Promise<number> {
    return this.deliver(`c.next_attempt_at <= now()`, []);
  }

  private async deliver(where: string, params: unknown[]): Promise<number> {
    // The claimed callback, its received Pix, and the key's webhook if one is registered.
    type Claimed = Pick<sql.Row<'sandbox_psp_pix_callbacks'>, 'id' | 'attempts'> &
      sql.Row<'sandbox_psp_pix'> & { webhook_url: sql.Row<'sandbox_psp_pix_webhooks'>['webhook_url'] | null };
    const rows = await sql.rows<Claimed>(
      this.ds,
      `WITH claimed AS (
           UPDATE sandbox_psp_pix_callbacks SET attempts = attempts + 1, next_attempt_at = now() + interval '${LEASE_SECONDS} seconds'
           WHERE id IN (SELECT c.id FROM sandbox_psp_pix_callbacks c WHERE c.delivered_at IS NULL AND ${where} ORDER BY c.created_at LIMIT ${PER_CALLBACK} FOR UPDATE SKIP LOCKED)
           RETURNING id, end_to_end_id, attempts)
         SELECT claimed.id, claimed.attempts, w.webhook_url, p.end_to_end_id, p.txid, p.chave, p.amount_cents, p.paid_at, p.info_pagador
         FROM claimed JOIN sandbox_psp_pix p USING (end_to_end_id) LEFT JOIN sandbox_psp_pix_webhooks w ON w.chave = p.chave`,
      params,
    );
    const devolucoes = await this.devolucoes.ofPix(this.ds, [...new Set(rows.map((r) => r.end_to_end_id))]);
    const byUrl = new Map<string | null, typeof rows>();
    for (const r of rows) byUrl.set(r.webhook_url, [...(byUrl.get(r.webhook_url) ?? []), r]);
    for (const [url, group] of byUrl) {
      const body = {
        pix: group.map((r) =>
          pixView({
            endToEndId: r.end_to_end_id,
            txid: r.txid,
            chave: r.chave,
            amountCents: Number(r.amount_cents),
            paidAt: new Date(r.paid_at),
            infoPagador: r.info_pagador,
            devolucoes: devolucoes.get(r.end_to_end_id),
          }),
        ),
      };
      const error = url === null ? null : await this.post(url, body);
      const ids = group.map((r) => r.id);
      if (error === null) {
        await sql.rows(this.ds, `UPDATE sandbox_psp_pix_callbacks SET delivered_at = now(), last_error = $2 WHERE id = ANY($1::uuid[])`, [
          ids,
          url === null ? 'no webhook for the key: dropped' : null,
        ]);
        continue;
      }
      const wait = BACKOFF_SECONDS[Math.min(group[0].attempts - 1, BACKOFF_SECONDS.length - 1)];
      this.logger.warn({ callbacks: ids.length, attempts: group[0].attempts, error }, 'API Pix callback not delivered; will retry');
      await sql.rows(
        this.ds,
        `UPDATE sandbox_psp_pix_callbacks SET next_attempt_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = ANY($1::uuid[])`,
        [ids, wait, error.slice(0, 500)],
      );
    }
    return rows.length;
  }

  /** null: the receiver took it (2xx) or refused it for good (4xx); otherwise the error, to try again. */
  private async post(url: string, body: unknown): Promise<string | null> {
    let client = this.clients.get(url);
    if (!client)
      this.clients.set(
        url,
        (client = new ResilientHttp('sandboxPsp', { baseUrl: url, timeoutMs: 5000, retryDelaysMs: [] }, this.breakers)),
      );
    try {
      for (let i = 0; i < (this.config.chaos ? 2 : 1); i++)
        await client.call({ operation: 'callback.pix', method: 'POST', path: '/pix', body, idempotent: false });
      return null;
    } catch (e: any) {
      if (e?.code === 'provider_rejected') {
        this.logger.warn(`the receiver refused a pix callback: ${e.status}`);
        return null;
      }
      return String(e?.message ?? e);
    }
  }
}
