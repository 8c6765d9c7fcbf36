import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { pspProblem, PspAnswer, PspViolation } from './problems';
import { PspRequest, SandboxPspServer } from './psp-server';
import { REC_SELECT, RecRow, recView, SANDBOX_ISPB } from './psp-rec.view';
import { HttpAdapterHost } from '@nestjs/core';
import { selfOrigin } from '../../../kernel/platform/http/self-origin';
import { SandboxConfig } from '../sandbox.config';
import * as sql from '../../../kernel/platform/database/sql';

const ID_REC = /^[a-zA-Z0-9]{29}$/;
const ID_SOLIC = /^SC[0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const invalid = (violacoes: PspViolation[]) =>
  pspProblem(
    400,
    'SolicRecOperacaoInvalida',
    'Operação inválida.',
    'A solicitação de confirmação de recorrência não respeita o schema.',
    violacoes,
  );
const notFound = () => pspProblem(404, 'NaoEncontrado', 'Não encontrado.', 'Solicitação de recorrência não encontrada.');

interface SolicRow {
  id_solic_rec: string;
  id_rec: string;
  destinatario: Record<string, string>;
  expires_at: Date;
  cancelled_at: Date | null;
  created_at: Date;
  rec_status: string;
  approved_at: Date | null;
  rec_updated_at: Date;
}

/** A solicitation's state, from its recurrence in the sandbox bank (one bank state). */
function statusOf(r: SolicRow, now: Date): 'RECEBIDA' | 'ACEITA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA' {
  if (r.approved_at) return 'ACEITA';
  if (r.rec_status === 'REJECTED') return 'REJEITADA';
  if (r.cancelled_at || r.rec_status.startsWith('CANCELLED')) return 'CANCELADA';
  if (r.rec_status === 'EXPIRED' || new Date(r.expires_at) <= now) return 'EXPIRADA';
  return 'RECEBIDA';
}

function view(r: SolicRow, now: Date, rec: ReturnType<typeof recView>) {
  const status = statusOf(r, now);
  const iso = (d: Date | string) => new Date(d).toISOString();
  const atualizacao = [
    { status: 'CRIADA', data: iso(r.created_at) },
    { status: 'ENVIADA', data: iso(r.created_at) },
    { status: 'RECEBIDA', data: iso(r.created_at) },
    ...(status !== 'RECEBIDA' ? [{ status, data: iso(r.approved_at ?? r.cancelled_at ?? r.rec_updated_at) }] : []),
  ];
  const { idRec, vinculo, calendario, valor, recebedor, politicaRetentativa, atualizacao: recAtualizacao } = rec;
  const recPayload = {
    idRec,
    vinculo,
    calendario,
    valor,
    recebedor: { ...recebedor, ispbParticipante: SANDBOX_ISPB },
    politicaRetentativa,
    atualizacao: recAtualizacao,
  };
  return {
    idSolicRec: r.id_solic_rec,
    idRec: r.id_rec,
    calendario: { dataExpiracaoSolicitacao: iso(r.expires_at) },
    destinatario: r.destinatario,
    status,
    atualizacao,
    recPayload,
  };
}

/**
 * The sandbox PSP's Jornada 1 (`POST /solicrec`, `GET /solicrec/{id}`): the request appears in
 * the payer's sandbox bank, where the payer authorizes or refuses the recurrence as on the
 * authorization page; the solicitation reads ACEITA or REJEITADA from it.
 */
@Injectable()
export class SandboxPspSolicRecHandlers implements OnModuleInit {
  constructor(
    private readonly server: SandboxPspServer,
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly sandbox: SandboxConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    this.server.register('POST', '/solicrec', (r) => this.create(r));
    this.server.register('GET', '/solicrec/:id', (r) => this.get(r.params.id));
  }

  private async create(r: PspRequest): Promise<PspAnswer> {
    const b: any = r.body;
    const v: PspViolation[] = [];
    const bad = (p: string) => v.push({ razao: `O campo solicrec.${p} não respeita o schema.`, propriedade: `solicrec.${p}` });
    if (!b || typeof b !== 'object') return invalid([{ razao: 'O corpo não é um objeto.', propriedade: 'solicrec' }]);
    if (typeof b.idRec !== 'string' || !ID_REC.test(b.idRec)) bad('idRec');
    const exp = b.calendario?.dataExpiracaoSolicitacao;
    if (typeof exp !== 'string' || Number.isNaN(Date.parse(exp)) || Date.parse(exp) <= this.clock.now().getTime())
      bad('calendario.dataExpiracaoSolicitacao');
    const d = b.destinatario;
    if (!d || typeof d !== 'object') bad('destinatario');
    else {
      if (typeof d.conta !== 'string' || !/^\d{1,20}$/.test(d.conta)) bad('destinatario.conta');
      if (typeof d.ispbParticipante !== 'string' || !/^[0-9A-Z]{8}$/.test(d.ispbParticipante)) bad('destinatario.ispbParticipante');
      if (d.agencia !== undefined && (typeof d.agencia !== 'string' || !/^\d{1,4}$/.test(d.agencia))) bad('destinatario.agencia');
      if (!(typeof d.cpf === 'string' && /^\d{11}$/.test(d.cpf)) === !(typeof d.cnpj === 'string' && /^[0-9A-Z]{14}$/.test(d.cnpj)))
        bad('destinatario.cpf');
    }
    if (v.length) return invalid(v);
    const [rec] = await sql.rows(this.ds, `SELECT status, payer_tax_id FROM sandbox_bank_recurrences WHERE id_rec = $1`, [b.idRec]);
    if (!rec) return invalid([{ razao: 'A recorrência informada não existe.', propriedade: 'solicrec.idRec' }]);
    if (rec.status !== 'PENDING')
      return invalid([{ razao: 'A recorrência não está em situação que permita solicitar confirmação.', propriedade: 'solicrec.idRec' }]);
    if (rec.payer_tax_id !== (d.cpf ?? d.cnpj))
      return invalid([{ razao: 'O destinatário não é o devedor da recorrência.', propriedade: 'solicrec.destinatario' }]);
    const seq = Array.from(randomBytes(11), (x) => ALNUM[x % ALNUM.length]).join('');
    const id = `SC${SANDBOX_ISPB}${this.clock.today().replace(/-/g, '')}${seq}`;
    const destinatario = {
      ...(d.cpf ? { cpf: d.cpf } : { cnpj: d.cnpj }),
      conta: d.conta,
      ispbParticipante: d.ispbParticipante,
      ...(d.agencia ? { agencia: d.agencia } : {}),
    };
    await sql.rows(this.ds, `INSERT INTO sandbox_psp_solicrec (id_solic_rec, id_rec, destinatario, expires_at) VALUES ($1, $2, $3, $4)`, [
      id,
      b.idRec,
      JSON.stringify(destinatario),
      exp,
    ]);
    const answer = await this.get(id);
    return { ...answer, status: 201 };
  }

  private async get(id: string): Promise<PspAnswer> {
    if (!ID_SOLIC.test(id)) return notFound();
    const [row] = await sql.rows<SolicRow>(
      this.ds,
      `SELECT s.*, r.status AS rec_status, r.approved_at, r.updated_at AS rec_updated_at FROM sandbox_psp_solicrec s JOIN sandbox_bank_recurrences r ON r.recurrence_id = s.id_rec WHERE s.id_solic_rec = $1`,
      [id],
    );
    if (!row) return notFound();
    const [rec] = await sql.rows<RecRow>(this.ds, `${REC_SELECT} WHERE r.id_rec = $1`, [row.id_rec]);
    return {
      status: 200,
      body: view(row, this.clock.now(), recView(rec, this.sandbox.publicUrl ?? selfOrigin(this.adapterHost))),
    };
  }
}
