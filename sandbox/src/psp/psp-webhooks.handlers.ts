import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { rows as sql } from './psp-cobr.store';
import { PspAnswer, pspProblem, PspRequest, PspRouter } from './psp-http';
import { pool } from '../../../kernel/platform/database/sql';

export type WebhookKind = 'rec' | 'cobr';

const TYPE: Record<WebhookKind, string> = { rec: 'WebhookRecOperacaoInvalida', cobr: 'WebhookCobROperacaoInvalida' };

/**
 * The sandbox PSP's webhook registrations (API Pix tags WebhookRec, WebhookCobR): one URL per
 * client and kind. The PSP POSTs `{recs:[…]}` to `{webhookUrl}/rec` and `{cobsr:[…]}` to
 * `{webhookUrl}/cobr` (SandboxPspCallbacks). PUT is idempotent (a second PUT replaces the URL).
 */
@Injectable()
export class SandboxPspWebhookHandlers {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  register(router: PspRouter): void {
    for (const kind of ['rec', 'cobr'] as const) {
      router.register('PUT', `/webhook${kind}`, (r) => this.put(kind, r));
      router.register('GET', `/webhook${kind}`, (r) => this.get(kind, r));
      router.register('DELETE', `/webhook${kind}`, (r) => this.remove(kind, r));
    }
  }

  async put(kind: WebhookKind, req: PspRequest): Promise<PspAnswer> {
    const url = (req.body as { webhookUrl?: unknown } | null)?.webhookUrl;
    let ok = typeof url === 'string' && url.length <= 2048;
    if (ok) {
      try {
        ok = ['http:', 'https:'].includes(new URL(url as string).protocol);
      } catch {
        ok = false;
      }
    }
    if (!ok)
      return pspProblem(400, TYPE[kind], 'Webhook inválido.', 'A requisição não respeita o schema.', [
        { razao: 'O campo webhookUrl não respeita o schema.', propriedade: 'webhookUrl' },
      ]);
    await sql(
      pool(this.ds),
      `INSERT INTO sandbox_psp_webhooks (kind, client_id, webhook_url, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (kind, client_id) DO UPDATE SET webhook_url = EXCLUDED.webhook_url`,
      [kind, req.clientId, (url as string).replace(/\/+$/, ''), this.clock.now()],
    );
    return { status: 200 };
  }

  async get(kind: WebhookKind, req: PspRequest): Promise<PspAnswer> {
    const rows = await sql(pool(this.ds), `SELECT webhook_url, created_at FROM sandbox_psp_webhooks WHERE kind = $1 AND client_id = $2`, [
      kind,
      req.clientId,
    ]);
    if (!rows[0]) return notFound();
    return { status: 200, body: { webhookUrl: rows[0].webhook_url, criacao: new Date(rows[0].created_at).toISOString() } };
  }

  async remove(kind: WebhookKind, req: PspRequest): Promise<PspAnswer> {
    const rows = await sql(pool(this.ds), `DELETE FROM sandbox_psp_webhooks WHERE kind = $1 AND client_id = $2 RETURNING 1`, [
      kind,
      req.clientId,
    ]);
    return rows.length ? { status: 204 } : notFound();
  }
}

function notFound(): PspAnswer {
  return pspProblem(404, 'NaoEncontrado', 'Não encontrado.', 'Nenhum webhook cadastrado.');
}

/** Where the PSP sends `kind` callbacks (the sandbox has one receiver: the latest registration), or null. */
export async function webhookUrlOf(ds: DataSource, kind: WebhookKind): Promise<string | null> {
  const rows = await sql(pool(ds), `SELECT webhook_url FROM sandbox_psp_webhooks WHERE kind = $1 ORDER BY created_at DESC LIMIT 1`, [kind]);
  return rows[0]?.webhook_url ?? null;
}
