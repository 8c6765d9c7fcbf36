import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { randomChars } from '../../common/random-ids';
import { Clock } from '../../platform/clock/clock';
import { PeriodicJobs } from '../../platform/jobs/periodic-jobs';
import { BreakerRegistry } from '../../platform/resilience/breaker-registry';
import { ResilientHttp } from '../../platform/http/resilient-http';
import { SandboxAcquirerConfig } from '../acquirer/sandbox-acquirer.config';
import { SandboxBoletoService } from '../acquirer/sandbox-boleto.service';
import { SandboxNotifier } from '../acquirer/sandbox-notifier';
import { PspPixFace, SandboxPixCharge, SandboxPixService } from '../acquirer/sandbox-pix.service';
import { SandboxConfig } from '../sandbox.config';
import { pixView } from './psp-cob.view';
import { Tx } from '../../platform/database/sql';
import * as sql from '../../platform/database/sql';

/** ISPB of the sandbox PSP in the endToEndIds it makes. */
const ISPB = '99999999';
const LEASE_SECONDS = 30;
const BACKOFF_SECONDS = [1, 2, 5, 10, 30, 60, 300];
const PER_CALLBACK = 100;

/** `E` + ISPB + yyyyMMddHHmm (UTC) + 11 letters and digits: the SPI's endToEndId (32). */
export function newEndToEndId(at: Date): string {
  const t = at.toISOString();
  const stamp = t.slice(0, 4) + t.slice(5, 7) + t.slice(8, 10) + t.slice(11, 13) + t.slice(14, 16);
  return `E${ISPB}${stamp}${randomChars('abcdefghijklmnopqrstuvwxyz0123456789', 11)}`;
}

/**
 * What a payment of a PSP-face charge sets off, in the paying transaction: the received Pix
 * (`GET /pix`), its callback to `{webhookUrl}/pix` (an outbox: posted after commit, then by the
 * tick with backoff; rows leased so replicas never post one together), and, for a cobv printed
 * on a boleto, the boleto itself (PAID_PIX, one bank). With no webhook for the key the callback
 * is dropped, as a PSP does: the receiver reconciles with GET /cob and GET /pix. With
 * SANDBOX_CHAOS each callback is posted twice (a PSP may repeat).
 */
@Injectable()
export class SandboxPspPixFace implements PspPixFace, OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('SandboxPspPix');
  private readonly clients = new Map<string, ResilientHttp>();

  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly pix: SandboxPixService,
    private readonly boletos: SandboxBoletoService,
    private readonly notifier: SandboxNotifier,
    private readonly breakers: BreakerRegistry,
    private readonly jobs: PeriodicJobs,
    private readonly config: SandboxConfig,
    private readonly acquirer: SandboxAcquirerConfig,
  ) {}

  onModuleInit(): void {
    this.pix.attachPspFace(this);
  }

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.jobs.schedule({ name: 'sandbox-psp-pix-callbacks', everyMs: this.acquirer.tickMs, run: () => this.deliverDue() });
  }

  async onPaid(m: Tx, charge: SandboxPixCharge): Promise<() => Promise<void>> {
    const now = this.clock.now();
    const e2e = newEndToEndId(now);
    await sql.rows(
      m,
      `INSERT INTO sandbox_psp_pix (end_to_end_id, txid, chave, amount_cents, paid_at)
       SELECT $1, txid, chave, amount_cents, $2 FROM sandbox_acquirer_pix_charges WHERE txid = $3`,
      [e2e, now, charge.txid],
    );
    const cb = await sql.rows(m, `INSERT INTO sandbox_psp_pix_callbacks (end_to_end_id) VALUES ($1) RETURNING id`, [e2e]);
    const notices = charge.boletoId ? await this.boletos.paidByItsCobvIn(m, charge.boletoId) : [];
    return async () => {
      await this.deliver(`c.id = $1::uuid`, [cb[0].id]);
      await this.notifier.deliverNow(notices);
    };
  }

  /** The txid a location URL (`…/sandbox/qr/{token}` or `…/sandbox/qr/cobv/{token}`) serves. */
  async txidAt(url: string): Promise<string | null> {
    const m = /\/sandbox\/qr\/(?:cobv\/)?([a-f0-9]{20,32})$/.exec(url);
    if (!m) return null;
    const rows = await sql.rows(this.ds, `SELECT txid FROM sandbox_psp_locations WHERE token = $1`, [m[1]]);
    return rows[0]?.txid ?? null;
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
