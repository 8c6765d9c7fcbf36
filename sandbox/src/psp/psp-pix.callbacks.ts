import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import { ResilientHttp } from '../../../kernel/platform/http/resilient-http';
import { SandboxAcquirerConfig } from '../acquirer/sandbox-acquirer.config';
import { SandboxConfig } from '../sandbox.config';
import { pixView } from './psp-cob.view';
import { PspDevolucaoStore } from './psp-devolucao.store';
import * as sql from '../../../kernel/platform/database/sql';
import { Claimed, Outcome, SandboxOutbox } from '../outbox/sandbox-outbox';

const PER_CALLBACK = 100;

/**
 * The sandbox PSP's received-Pix callbacks to `{webhookUrl}/pix`: rows of the sandbox's outbox
 * (SandboxOutbox over `sandbox_psp_pix_callbacks`, written with the payment) posted after commit,
 * then by the tick; the rows claimed together are posted as one callback per webhook. With no webhook for the key
 * the callback is dropped, as a PSP does: the receiver reconciles with GET /cob and GET /pix. With
 * SANDBOX_CHAOS each callback is posted twice (a PSP may repeat). A devolução that settles queues
 * its Pix's callback again: the Pix is posted with every devolução it has (PspDevolucaoSettlement).
 */
@Injectable()
export class PspPixCallbacks implements OnApplicationBootstrap {
  private readonly logger = new Logger('SandboxPspPix');
  private readonly clients = new Map<string, ResilientHttp>();
  private readonly outbox: SandboxOutbox<{ end_to_end_id: string }>;

  constructor(
    private readonly ds: DataSource,
    private readonly breakers: BreakerRegistry,
    private readonly jobs: PeriodicJobs,
    private readonly config: SandboxConfig,
    private readonly acquirer: SandboxAcquirerConfig,
    private readonly devolucoes: PspDevolucaoStore,
  ) {
    this.outbox = new SandboxOutbox(ds, 'sandbox_psp_pix_callbacks', 'end_to_end_id', 'API Pix callback');
  }

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.jobs.schedule({ name: 'sandbox-psp-pix-callbacks', everyMs: this.acquirer.tickMs, run: () => this.deliverDue() });
  }

  /** Posts one callback now (after the commit that wrote it); the tick retries it if this fails. */
  async deliverOne(id: string): Promise<number> {
    return this.post(await this.outbox.claim('id = $1::uuid', [id], 1));
  }

  /** Posts every callback that is due (tick). */
  async deliverDue(): Promise<number> {
    return this.post(await this.outbox.claim('next_attempt_at <= now()', [], PER_CALLBACK));
  }

  /** The claimed callbacks' Pix, grouped by the webhook of their key, each group posted once and its outcome recorded. */
  private async post(claimed: Claimed<{ end_to_end_id: string }>[]): Promise<number> {
    if (!claimed.length) return 0;
    const e2e = [...new Set(claimed.map((c) => c.end_to_end_id))];
    type Received = sql.Row<'sandbox_psp_pix'> & { webhook_url: sql.Row<'sandbox_psp_pix_webhooks'>['webhook_url'] | null };
    const pix = new Map(
      (
        await sql.rows<Received>(
          this.ds,
          `SELECT p.end_to_end_id, p.txid, p.chave, p.amount_cents, p.paid_at, p.info_pagador, w.webhook_url
           FROM sandbox_psp_pix p LEFT JOIN sandbox_psp_pix_webhooks w ON w.chave = p.chave WHERE p.end_to_end_id = ANY($1::text[])`,
          [e2e],
        )
      ).map((r) => [r.end_to_end_id, r]),
    );
    const devolucoes = await this.devolucoes.ofPix(this.ds, e2e);
    const byUrl = new Map<string | null, { ids: string[]; attempts: number; pix: Received[] }>();
    for (const c of claimed) {
      const p = pix.get(c.end_to_end_id)!;
      const g = byUrl.get(p.webhook_url) ?? { ids: [], attempts: c.attempts, pix: [] };
      g.ids.push(c.id);
      g.pix.push(p);
      byUrl.set(p.webhook_url, g);
    }
    for (const [url, g] of byUrl) {
      const body = {
        pix: g.pix.map((r) =>
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
      await this.outbox.record(g.ids, g.attempts, url === null ? { drop: 'no webhook for the key: dropped' } : await this.send(url, body));
    }
    return claimed.length;
  }

  /** Delivered (2xx), dropped (the receiver refused it for good: 4xx) or to try again. */
  private async send(url: string, body: unknown): Promise<Outcome> {
    let client = this.clients.get(url);
    if (!client)
      this.clients.set(
        url,
        (client = new ResilientHttp(
          'sandboxPsp',
          { baseUrl: url, timeoutMs: 5000, retryDelaysMs: [], dependency: 'service' },
          this.breakers,
        )),
      );
    try {
      for (let i = 0; i < (this.config.chaos ? 2 : 1); i++)
        await client.call({ operation: 'callback.pix', method: 'POST', path: '/pix', body, idempotent: false });
      return null;
    } catch (e: any) {
      if (e?.code === 'provider_rejected') {
        this.logger.warn(`the receiver refused a pix callback: ${e.status}`);
        return { drop: `the receiver refused it: ${e.status}` };
      }
      return { retry: String(e?.message ?? e) };
    }
  }
}
