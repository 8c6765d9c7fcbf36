import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PspAnswer, pspProblem } from './problems';
import { PspReceiver } from './psp-receiver';
import { PspCobStore } from './psp-cob.store';
import { pixView, SANDBOX_RECEIVER } from './psp-cob.view';
import { PspRequest, SandboxPspServer } from './psp-server';
import * as sql from '../../../kernel/platform/database/sql';

const E2E = /^[a-zA-Z0-9]{32}$/;

/**
 * The sandbox PSP's received Pix and their webhook (API Pix tags Pix, Webhook): `GET /pix`
 * (inicio/fim, txid, paginated), `GET /pix/{e2eid}`, and `PUT|GET|DELETE /webhook/{chave}`: one
 * callback URL per key of the receiver; the PSP then POSTs `{pix:[…]}` to `{webhookUrl}/pix` for
 * every Pix received with a txid (SandboxPspPixFace). PUT is idempotent (it replaces the URL).
 */
@Injectable()
export class PspPixHandlers implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly store: PspCobStore,
    private readonly server: SandboxPspServer,
    private readonly receiver: PspReceiver,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.server.register('GET', '/pix', (r) => this.list(r));
    this.server.register('GET', '/pix/:e2eid', (r) => this.one(r));
    this.server.register('PUT', '/webhook/:chave', (r) => this.putWebhook(r));
    this.server.register('GET', '/webhook/:chave', (r) => this.getWebhook(r));
    this.server.register('DELETE', '/webhook/:chave', (r) => this.deleteWebhook(r));
  }

  async one(req: PspRequest): Promise<PspAnswer> {
    const p = E2E.test(req.params.e2eid) ? await this.store.pix(req.params.e2eid) : null;
    if (!p) return pspProblem(404, 'PixNaoEncontrado', 'Pix não encontrado.', 'Pix não encontrado para o e2eid informado.');
    return { status: 200, body: pixView(p) };
  }

  async list(req: PspRequest): Promise<PspAnswer> {
    const q = req.query;
    const violacoes: { razao: string; propriedade: string }[] = [];
    const date = (name: string) => {
      const v = q.get(name);
      const d = v && /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : null;
      if (!d || Number.isNaN(d.getTime())) violacoes.push({ razao: `O parâmetro ${name} não respeita o schema.`, propriedade: name });
      return d;
    };
    const int = (name: string, dflt: number, min: number, max: number) => {
      const v = q.get(name);
      if (v === null) return dflt;
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!(n >= min && n <= max)) violacoes.push({ razao: `O parâmetro ${name} não respeita o schema.`, propriedade: name });
      return n;
    };
    const inicio = date('inicio');
    const fim = date('fim');
    const page = int('paginacao.paginaAtual', 0, 0, 1_000_000);
    const perPage = int('paginacao.itensPorPagina', 100, 1, 1000);
    const txid = q.get('txid') ?? undefined;
    if (txid !== undefined && !/^[a-zA-Z0-9]{1,35}$/.test(txid))
      violacoes.push({ razao: 'O parâmetro txid não respeita o schema.', propriedade: 'txid' });
    const txIdPresente = q.get('txIdPresente');
    const devolucaoPresente = q.get('devolucaoPresente');
    for (const [name, v] of [
      ['txIdPresente', txIdPresente],
      ['devolucaoPresente', devolucaoPresente],
    ] as const)
      if (v !== null && v !== 'true' && v !== 'false')
        violacoes.push({ razao: `O parâmetro ${name} não respeita o schema.`, propriedade: name });
    if (q.get('cpf') !== null && q.get('cnpj') !== null)
      violacoes.push({ razao: 'Ambos os parâmetros cpf e cnpj estão preenchidos.', propriedade: 'cpf' });
    if (inicio && fim && fim < inicio)
      violacoes.push({
        razao: 'O timestamp representado pelo parâmetro fim é anterior ao timestamp representado pelo parâmetro inicio.',
        propriedade: 'fim',
      });
    if (violacoes.length)
      return pspProblem(400, 'PixConsultaInvalida', 'Consulta inválida.', 'Os parâmetros de consulta não respeitam o schema.', violacoes);
    const { total, items } = await this.store.listPix({
      inicio: inicio!,
      fim: fim!,
      txid,
      txIdPresente: txIdPresente === null ? undefined : txIdPresente === 'true',
      devolucaoPresente: devolucaoPresente === null ? undefined : devolucaoPresente === 'true',
      page,
      perPage,
    });
    return {
      status: 200,
      body: {
        parametros: {
          inicio: inicio!.toISOString(),
          fim: fim!.toISOString(),
          ...(txid ? { txid } : {}),
          paginacao: {
            paginaAtual: page,
            itensPorPagina: perPage,
            quantidadeDePaginas: Math.max(1, Math.ceil(total / perPage)),
            quantidadeTotalDeItens: total,
          },
        },
        pix: items.map(pixView),
        // The standard's PixConsultados lists `cobs` as required (a slip in 2.9.0: the list is `pix`).
        cobs: [],
      },
    };
  }

  async putWebhook(req: PspRequest): Promise<PspAnswer> {
    const chave = req.params.chave;
    if (!this.receiver.keys().includes(chave)) {
      return invalidWebhook([
        { razao: 'O parâmetro {chave} não corresponde a uma chave DICT pertencente a este usuário recebedor.', propriedade: 'chave' },
      ]);
    }
    const url = (req.body as { webhookUrl?: unknown } | null)?.webhookUrl;
    if (!validUrl(url)) return invalidWebhook([{ razao: 'Campo webhook.webhookUrl não respeita o schema.', propriedade: 'webhookUrl' }]);
    await sql.rows(
      this.ds,
      `INSERT INTO sandbox_psp_pix_webhooks (chave, client_id, webhook_url, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (chave) DO UPDATE SET webhook_url = EXCLUDED.webhook_url, client_id = EXCLUDED.client_id`,
      [chave, req.clientId, url.replace(/\/+$/, ''), this.clock.now()],
    );
    return { status: 200 };
  }

  async getWebhook(req: PspRequest): Promise<PspAnswer> {
    const rows = await sql.rows(this.ds, `SELECT webhook_url, created_at FROM sandbox_psp_pix_webhooks WHERE chave = $1`, [
      req.params.chave,
    ]);
    if (!rows[0]) return webhookNotFound();
    return {
      status: 200,
      body: {
        webhookUrl: rows[0].webhook_url,
        chave: req.params.chave,
        cnpj: SANDBOX_RECEIVER.cnpj,
        criacao: new Date(rows[0].created_at).toISOString(),
      },
    };
  }

  async deleteWebhook(req: PspRequest): Promise<PspAnswer> {
    const rows = await sql.rows(this.ds, `DELETE FROM sandbox_psp_pix_webhooks WHERE chave = $1 RETURNING 1`, [req.params.chave]);
    return rows.length ? { status: 204 } : webhookNotFound();
  }
}

function validUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length > 2048) return false;
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

function invalidWebhook(violacoes: { razao: string; propriedade: string }[]): PspAnswer {
  return pspProblem(
    400,
    'WebhookOperacaoInvalida',
    'Webhook inválido.',
    'A requisição busca criar um webhook sem respeitar o schema ou apresenta semântica inválida.',
    violacoes,
  );
}

function webhookNotFound(): PspAnswer {
  return pspProblem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', 'O webhook denotado por {chave} não se encontra estabelecido.');
}
