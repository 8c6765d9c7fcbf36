import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { selfOrigin } from '../../../kernel/platform/http/self-origin';
import { addDays, SandboxBankService } from '../bank/sandbox-bank.service';
import { SandboxConfig } from '../sandbox.config';
import { pspProblem, PspViolation } from './problems';
import { PspAnswer, PspRequest, SandboxPspServer } from './psp-server';
import { locationUrl, PERIODICITY_OF, REC_SELECT, RecRow, recView, SANDBOX_ISPB, SANDBOX_RECEIVER } from './psp-rec.view';
import * as sql from '../../../kernel/platform/database/sql';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const VALUE = /^\d{1,10}\.\d{2}$/;
const ID_REC = /^[a-zA-Z0-9]{29}$/;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const invalid = (violacoes: PspViolation[]) =>
  pspProblem(400, 'RecOperacaoInvalida', 'Operação inválida.', 'A recorrência não respeita o schema.', violacoes);
const notFound = () => pspProblem(404, 'NaoEncontrado', 'Não encontrado.', 'Recorrência não encontrada para o idRec informado.');

function isDate(v: unknown): v is string {
  return typeof v === 'string' && DATE.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;

function str(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= max && !CONTROL.test(v);
}

function seq(n: number): string {
  const b = randomBytes(n);
  return Array.from(b, (x) => ALNUM[x % ALNUM.length]).join('');
}

/**
 * The sandbox PSP's recurrence routes (API Pix 2.9 tags Rec and PayloadLocationRec) over the
 * sandbox bank's books: `POST /locrec` makes a location (the QR of Jornada 2; its URL opens the
 * sandbox bank's authorization page), `POST /rec` creates a recurrence (CRIADA) with an idRec
 * of the standard's form, `GET /rec/{idRec}` and `GET /rec?inicio&fim` read, `PATCH` with
 * `status: CANCELADA` is the receiver's cancel. The payer authorizes (APROVADA), refuses
 * (REJEITADA) or cancels in the sandbox bank as on the service face: one bank state.
 */
@Injectable()
export class SandboxPspRecHandlers implements OnModuleInit {
  constructor(
    private readonly server: SandboxPspServer,
    private readonly bank: SandboxBankService,
    private readonly ds: DataSource,
    private readonly sandbox: SandboxConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.server.register('POST', '/locrec', () => this.createLocation());
    this.server.register('GET', '/locrec/:id', (r) => this.getLocation(r));
    this.server.register('POST', '/rec', (r) => this.create(r));
    this.server.register('GET', '/rec/:idRec', (r) => this.get(r.params.idRec));
    this.server.register('PATCH', '/rec/:idRec', (r) => this.revise(r));
    this.server.register('GET', '/rec', (r) => this.list(r));
  }

  private origin(): string {
    return this.sandbox.publicUrl ?? selfOrigin(this.adapterHost);
  }

  private async createLocation(): Promise<PspAnswer> {
    const [l] = await sql.rows(this.ds, `INSERT INTO sandbox_psp_locrec (token) VALUES ($1) RETURNING id, token, created_at`, [
      randomBytes(16).toString('base64url'),
    ]);
    return {
      status: 201,
      body: { id: Number(l.id), location: locationUrl(this.origin(), l.token), criacao: new Date(l.created_at).toISOString() },
    };
  }

  private async getLocation(r: PspRequest): Promise<PspAnswer> {
    if (!/^\d{1,18}$/.test(r.params.id)) return notFound();
    const [l] = await sql.rows(this.ds, `SELECT id, token, id_rec, created_at FROM sandbox_psp_locrec WHERE id = $1`, [r.params.id]);
    if (!l) return notFound();
    return {
      status: 200,
      body: {
        id: Number(l.id),
        location: locationUrl(this.origin(), l.token),
        criacao: new Date(l.created_at).toISOString(),
        ...(l.id_rec ? { idRec: l.id_rec } : {}),
      },
    };
  }

  private validate(b: any): PspViolation[] {
    const v: PspViolation[] = [];
    const bad = (p: string) => v.push({ razao: `O campo rec.${p} não respeita o schema.`, propriedade: `rec.${p}` });
    if (!b || typeof b !== 'object' || Array.isArray(b)) return [{ razao: 'O corpo não é um objeto.', propriedade: 'rec' }];
    const dev = b.vinculo?.devedor;
    if (!str(b.vinculo?.contrato, 35)) bad('vinculo.contrato');
    if (b.vinculo?.objeto !== undefined && !str(b.vinculo.objeto, 35)) bad('vinculo.objeto');
    if (!dev || typeof dev !== 'object') bad('vinculo.devedor');
    else {
      if (!str(dev.nome, 140)) bad('vinculo.devedor.nome');
      const cpf = typeof dev.cpf === 'string' && /^\d{11}$/.test(dev.cpf);
      const cnpj = typeof dev.cnpj === 'string' && /^[0-9A-Z]{14}$/.test(dev.cnpj);
      if (cpf === cnpj) bad(dev.cnpj !== undefined ? 'vinculo.devedor.cnpj' : 'vinculo.devedor.cpf');
    }
    const cal = b.calendario;
    if (!isDate(cal?.dataInicial)) bad('calendario.dataInicial');
    if (cal?.dataFinal !== undefined && (!isDate(cal.dataFinal) || cal.dataFinal < cal.dataInicial)) bad('calendario.dataFinal');
    if (!PERIODICITY_OF[cal?.periodicidade]) bad('calendario.periodicidade');
    if (typeof b.valor?.valorRec !== 'string' || !VALUE.test(b.valor.valorRec) || Number(b.valor.valorRec) <= 0) bad('valor.valorRec');
    if (b.politicaRetentativa !== 'NAO_PERMITE' && b.politicaRetentativa !== 'PERMITE_3R_7D') bad('politicaRetentativa');
    if (b.loc !== undefined && !(Number.isSafeInteger(b.loc) && b.loc > 0)) bad('loc');
    return v;
  }

  private async create(r: PspRequest): Promise<PspAnswer> {
    const b: any = r.body;
    const violations = this.validate(b);
    if (violations.length) return invalid(violations);
    const today = this.clock.today();
    const idRec = `${b.politicaRetentativa === 'PERMITE_3R_7D' ? 'RR' : 'RN'}${SANDBOX_ISPB}${today.replace(/-/g, '')}${seq(11)}`;
    const dev = b.vinculo.devedor;
    const [units, cents] = b.valor.valorRec.split('.');
    // One statement: the location linked (when one is given and still free) and the bank's
    // recurrence inserted in the sandbox bank's own table (one bank state), answered from it.
    const rows = await sql.rows<RecRow>(
      this.ds,
      `WITH loc AS (UPDATE sandbox_psp_locrec SET id_rec = $1 WHERE $13::bigint IS NOT NULL AND id = $13 AND id_rec IS NULL RETURNING id, token, created_at),
       ins AS (
         INSERT INTO sandbox_bank_recurrences (recurrence_id, id_tx, receiver_id, receiver_name, status, amount_cents, periodicity, first_due_date,
           expiration_date, day_adjustment, payer_name, payer_tax_id, description, authorization_deadline, id_rec, contrato, politica_retentativa, loc_id)
         SELECT $1, $1, $2, $3, 'PENDING', $4, $5, $6, $7, 'MOVE_FORWARD_NEXT_BUSINESS_DAY', $8, $9, $10, $11, $1, $12, $14, $13
         WHERE $13::bigint IS NULL OR EXISTS (SELECT 1 FROM loc)
         RETURNING *)
       SELECT ins.id_rec, ins.status, ins.amount_cents, ins.periodicity, ins.first_due_date::text AS first_due_date, ins.expiration_date::text AS expiration_date,
         ins.payer_name, ins.payer_tax_id, ins.description, ins.contrato, ins.politica_retentativa, ins.loc_id, loc.token AS loc_token, loc.created_at AS loc_created_at,
         ins.created_at, ins.updated_at, ins.approved_at
       FROM ins LEFT JOIN loc ON true`,
      [
        idRec,
        r.clientId,
        SANDBOX_RECEIVER.nome,
        Number(units) * 100 + Number(cents),
        PERIODICITY_OF[b.calendario.periodicidade],
        b.calendario.dataInicial,
        b.calendario.dataFinal ?? null,
        dev.nome,
        dev.cpf ?? dev.cnpj,
        b.vinculo.objeto ?? null,
        addDays(today, this.sandbox.authorizationWindowDays),
        b.vinculo.contrato,
        b.loc ?? null,
        b.politicaRetentativa,
      ],
    );
    if (!rows.length) {
      const [l] = await sql.rows(this.ds, `SELECT id_rec FROM sandbox_psp_locrec WHERE id = $1`, [b.loc]);
      return invalid([
        {
          razao: l ? 'A location informada já está vinculada a outra recorrência.' : 'A location informada não existe.',
          propriedade: 'rec.loc',
        },
      ]);
    }
    return { status: 201, body: recView(rows[0], this.origin()) };
  }

  private async find(idRec: string): Promise<RecRow | null> {
    if (!ID_REC.test(idRec)) return null;
    const [row] = await sql.rows<RecRow>(this.ds, `${REC_SELECT} WHERE r.id_rec = $1`, [idRec]);
    return row ?? null;
  }

  private async get(idRec: string): Promise<PspAnswer> {
    const row = await this.find(idRec);
    return row ? { status: 200, body: recView(row, this.origin()) } : notFound();
  }

  private async revise(r: PspRequest): Promise<PspAnswer> {
    const b: any = r.body;
    if (!b || typeof b !== 'object' || b.status !== 'CANCELADA') {
      return invalid([{ razao: 'Somente o cancelamento (status CANCELADA) é aceito por este PSP.', propriedade: 'rec.status' }]);
    }
    const row = await this.find(r.params.idRec);
    if (!row) return notFound();
    if (['PENDING', 'ACCEPTED', 'ACTIVE'].includes(row.status)) await this.bank.receiverCancel(row.id_rec);
    else if (row.status !== 'CANCELLED_RECEIVER') {
      return pspProblem(
        400,
        'RecOperacaoInvalida',
        'Operação inválida.',
        `A recorrência está ${row.status === 'CANCELLED_PAYER' ? 'cancelada pelo pagador' : 'encerrada'} e não pode ser cancelada.`,
      );
    }
    return this.get(row.id_rec);
  }

  private async list(r: PspRequest): Promise<PspAnswer> {
    const inicio = r.query.get('inicio');
    const fim = r.query.get('fim');
    const v: PspViolation[] = [];
    if (!inicio || Number.isNaN(Date.parse(inicio))) v.push({ razao: 'O parâmetro inicio não respeita o schema.', propriedade: 'inicio' });
    if (!fim || Number.isNaN(Date.parse(fim))) v.push({ razao: 'O parâmetro fim não respeita o schema.', propriedade: 'fim' });
    const page = Number(r.query.get('paginacao.paginaAtual') ?? 0);
    const size = Number(r.query.get('paginacao.itensPorPagina') ?? 100);
    if (!Number.isInteger(page) || page < 0) v.push({ razao: 'paginaAtual inválida.', propriedade: 'paginacao.paginaAtual' });
    if (!Number.isInteger(size) || size < 1 || size > 1000)
      v.push({ razao: 'itensPorPagina inválido.', propriedade: 'paginacao.itensPorPagina' });
    if (v.length)
      return pspProblem(400, 'RequisicaoInvalida', 'Requisição inválida.', 'Os parâmetros da consulta não respeitam o schema.', v);
    const taxId = r.query.get('cpf') ?? r.query.get('cnpj');
    const where = `r.id_rec IS NOT NULL AND r.created_at >= $1 AND r.created_at <= $2 ${taxId ? 'AND r.payer_tax_id = $5' : ''}`;
    const params: unknown[] = [inicio, fim, size, page * size, ...(taxId ? [taxId] : [])];
    const rows = await sql.rows<RecRow>(this.ds, `${REC_SELECT} WHERE ${where} ORDER BY r.created_at, r.id_rec LIMIT $3 OFFSET $4`, params);
    const [{ n }] = await sql.rows(
      this.ds,
      `SELECT count(*)::int AS n FROM sandbox_bank_recurrences r WHERE ${where.replace('$5', '$3')}`,
      [inicio, fim, ...(taxId ? [taxId] : [])],
    );
    return {
      status: 200,
      body: {
        parametros: {
          inicio: new Date(inicio!).toISOString(),
          fim: new Date(fim!).toISOString(),
          paginacao: { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: Math.ceil(n / size), quantidadeTotalDeItens: n },
        },
        recs: rows.map((row) => recView(row, this.origin())),
      },
    };
  }
}
