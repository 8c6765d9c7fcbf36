import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import { ResilientHttp } from '../../../kernel/platform/http/resilient-http';
import { SandboxConfig } from '../sandbox.config';
import { PendingBankEvent, PspEventFace, SandboxBankEvents } from '../bank/sandbox-bank.events';
import { rows as sql } from './psp-cobr.store';
import { cobrNotification } from './psp-cobr.view';
import { recNotification } from './psp-rec.notification';
import { SandboxCobrStore } from './psp-cobr.store';
import { webhookUrlOf, WebhookKind } from './psp-webhooks.handlers';
import { pool } from '../../../kernel/platform/database/sql';

/** Items per callback body. */
const PER_CALLBACK = 100;

/**
 * The sandbox PSP's callbacks. Every change of a rec or cobr made through API Pix lands in the
 * sandbox bank's outbox like the service face's events (whichever code path made it: the PSP
 * routes, the bank's day run, the payer's pages); when the outbox flushes, this face takes those
 * events, reads the current state of each entity once, and POSTs `{recs:[…]}` to
 * `{webhookUrl}/rec` and `{cobsr:[…]}` to `{webhookUrl}/cobr`. With no webhook registered the
 * events are dropped, as a PSP does: the receiver reconciles by polling. With SANDBOX_CHAOS each
 * callback is sent twice (a PSP may repeat).
 */
@Injectable()
export class SandboxPspCallbacks implements PspEventFace, OnModuleInit {
  private readonly logger = new Logger('SandboxPspCallbacks');
  private readonly clients = new Map<string, ResilientHttp>();

  constructor(
    private readonly ds: DataSource,
    private readonly store: SandboxCobrStore,
    private readonly bankEvents: SandboxBankEvents,
    private readonly breakers: BreakerRegistry,
    private readonly config: SandboxConfig,
  ) {}

  onModuleInit(): void {
    this.bankEvents.attachPspFace(this);
  }

  /** Delivers what is pending now (after the answer of the call that caused it). */
  kick(): void {
    setImmediate(() => void this.bankEvents.flush());
  }

  async claim(pending: PendingBankEvent[]): Promise<Set<string>> {
    const ids = [...new Set(pending.map((p) => p.payload.idTx))];
    const found = await sql(
      pool(this.ds),
      `SELECT id_tx FROM sandbox_bank_billings WHERE id_tx = ANY($1) AND id_rec IS NOT NULL
       UNION ALL SELECT id_tx FROM sandbox_bank_recurrences WHERE id_tx = ANY($1) AND id_rec IS NOT NULL`,
      [ids],
    );
    const mine = new Set(found.map((r) => r.id_tx as string));
    return new Set(pending.filter((p) => mine.has(p.payload.idTx)).map((p) => p.id));
  }

  async deliver(events: PendingBankEvent[]): Promise<{ delivered: string[] }> {
    const byTx = new Map<string, string[]>();
    for (const e of events) byTx.set(e.payload.idTx, [...(byTx.get(e.payload.idTx) ?? []), e.id]);
    const txids = [...byTx.keys()];
    const cobrs = (await Promise.all(txids.map((t) => this.store.find(t)))).filter((c) => c !== null);
    const cobrTx = new Set(cobrs.map((c) => c.txid));
    const recItems = await recNotification(
      this.ds,
      txids.filter((t) => !cobrTx.has(t)),
    );
    const delivered: string[] = [];
    const send = async (kind: WebhookKind, items: { idTx: string; body: Record<string, unknown> }[]) => {
      if (!items.length) return;
      const url = await webhookUrlOf(this.ds, kind);
      for (let i = 0; i < items.length; i += PER_CALLBACK) {
        const chunk = items.slice(i, i + PER_CALLBACK);
        const ok = url === null || (await this.post(url, kind, { [kind === 'rec' ? 'recs' : 'cobsr']: chunk.map((c) => c.body) }));
        if (ok) for (const c of chunk) delivered.push(...(byTx.get(c.idTx) ?? []));
      }
    };
    await send(
      'cobr',
      cobrs.map((c) => ({ idTx: c.txid, body: cobrNotification(c) })),
    );
    await send('rec', recItems);
    // Events whose entity vanished (never: rows are not deleted) would otherwise stay forever.
    const known = new Set([...cobrTx, ...recItems.map((r) => r.idTx)]);
    for (const [tx, ids] of byTx) if (!known.has(tx)) delivered.push(...ids);
    return { delivered };
  }

  /** true: the receiver took it (2xx), or refused it for good (4xx); false: try again on the next flush. */
  private async post(url: string, kind: WebhookKind, body: unknown): Promise<boolean> {
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
    const times = this.config.chaos ? 2 : 1;
    try {
      for (let i = 0; i < times; i++)
        await client.call({ operation: `callback.${kind}`, method: 'POST', path: `/${kind}`, body, idempotent: false });
      return true;
    } catch (e: any) {
      if (e?.code === 'provider_rejected') {
        this.logger.warn(`the receiver refused a ${kind} callback: ${e.status}`);
        return true;
      }
      return false;
    }
  }
}
