import { SANDBOX_RECEIVER } from '../../../kernel/common/protocols/sandbox-receiver';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { SandboxPspCallbacks } from './psp-cobr.events';
import { SandboxCobrStore } from './psp-cobr.store';
import { cobrView, newAttempt, reais, retryPolicyOf } from './psp-cobr.view';
import { PspAnswer, pspProblem, PspRequest, PspRouter } from './psp-http';
import { decimalStringToCents } from '../../../kernel/common/formats/money';

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const ID_REC = /^[a-zA-Z0-9]{29}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const VALUE = /^\d{1,10}\.\d{2}$/;
const ACCOUNT_TYPES = ['CORRENTE', 'POUPANCA', 'PAGAMENTO'];
const MAX_PAGE = 1000;
const OPEN = ['RECEIVED', 'ACTIVE'];
/** The sandbox receiver's CNPJ, shown in `recebedor` (the real PSP shows its customer's). */
export const SANDBOX_RECEIVER_CNPJ = SANDBOX_RECEIVER.cnpj;

type Violation = { razao: string; propriedade: string };

const invalid = (detail: string, violacoes?: Violation[]) =>
  pspProblem(400, 'CobROperacaoInvalida', 'Cobrança inválida.', detail, violacoes);
const notFound = () => pspProblem(404, 'CobRNaoEncontrado', 'Cobrança não encontrada.', 'Cobrança não encontrada para o txid informado.');

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

function isDate(v: unknown): v is string {
  return (
    typeof v === 'string' &&
    DATE.test(v) &&
    !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
    new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)
  );
}

/**
 * The sandbox PSP's cobrança recorrente routes (API Pix 2.9 tag CobR) over the sandbox bank's
 * books: `PUT /cobr/{txid}` creates (CRIADA, activated by the bank's next day run like any
 * billing), `PATCH` cancels before the first settlement day, `GET` one or a page (`inicio`/`fim`
 * on the creation time), `POST /cobr/{txid}/retentativa/{data}` schedules a retry under
 * PERMITE_3R_7D. Every answer and problem is the standard's; bad input is a 400 problem.
 */
@Injectable()
export class SandboxPspCobrHandlers {
  /** Days before the due date a cobr may be created: the Central Bank's window (2 to 10). */
  private readonly window = { minDays: 2, maxDays: 10 };

  constructor(
    private readonly store: SandboxCobrStore,
    private readonly events: SandboxPspCallbacks,
    private readonly clock: Clock,
  ) {}

  register(router: PspRouter): void {
    router.register('PUT', '/cobr/:txid', (r) => this.put(r));
    router.register('PATCH', '/cobr/:txid', (r) => this.patch(r));
    router.register('GET', '/cobr/:txid', (r) => this.get(r));
    router.register('GET', '/cobr', (r) => this.list(r));
    router.register('POST', '/cobr/:txid/retentativa/:data', (r) => this.retry(r));
  }

  async put(req: PspRequest): Promise<PspAnswer> {
    const txid = req.params.txid;
    const b = (req.body ?? {}) as Record<string, any>;
    const v: Violation[] = [];
    if (!TXID.test(txid)) v.push({ razao: 'O campo cobr.txid não respeita o schema.', propriedade: 'cobr.txid' });
    if (typeof b.idRec !== 'string' || !ID_REC.test(b.idRec))
      v.push({ razao: 'O campo cobr.idRec não respeita o schema.', propriedade: 'cobr.idRec' });
    if (!b.calendario || !isDate(b.calendario.dataDeVencimento))
      v.push({ razao: 'O objeto cobr.calendario não respeita o schema.', propriedade: 'cobr.calendario' });
    if (!b.valor || typeof b.valor.original !== 'string' || !VALUE.test(b.valor.original) || Number(b.valor.original) <= 0)
      v.push({ razao: 'O campo cobr.valor não respeita o schema.', propriedade: 'cobr.valor' });
    if (typeof b.ajusteDiaUtil !== 'boolean')
      v.push({ razao: 'O campo cobr.ajusteDiaUtil não respeita o schema.', propriedade: 'cobr.ajusteDiaUtil' });
    const rb = b.recebedor;
    if (
      !rb ||
      typeof rb.conta !== 'string' ||
      !rb.conta ||
      rb.conta.length > 20 ||
      !ACCOUNT_TYPES.includes(rb.tipoConta) ||
      (rb.agencia !== undefined && (typeof rb.agencia !== 'string' || rb.agencia.length > 4))
    ) {
      v.push({ razao: 'O objeto cobr.recebedor não respeita o schema.', propriedade: 'cobr.recebedor' });
    }
    if (b.infoAdicional !== undefined && (typeof b.infoAdicional !== 'string' || b.infoAdicional.length > 140))
      v.push({ razao: 'O campo cobr.infoAdicional não respeita o schema.', propriedade: 'cobr.infoAdicional' });
    if (v.length) return invalid('A cobrança não respeita o schema.', v);

    const today = this.clock.today();
    const due: string = b.calendario.dataDeVencimento;
    if (due < today)
      return invalid('A cobrança é inválida.', [
        {
          razao: 'O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.',
          propriedade: 'cobr.calendario.dataDeVencimento',
        },
      ]);
    if (due < addDays(today, this.window.minDays) || due > addDays(today, this.window.maxDays)) {
      return invalid('A cobrança é inválida.', [
        {
          razao: `A cobrança deve ser enviada entre ${this.window.maxDays} e ${this.window.minDays} dias antes da data de vencimento.`,
          propriedade: 'cobr.calendario.dataDeVencimento',
        },
      ]);
    }
    // One statement: the rec found by idRec, the cobr inserted when the rec is approved.
    // No callback for it: the receiver made it and has the answer.
    const { rec, cobr } = await this.store.insertForRec({
      txid,
      idRec: b.idRec,
      amountCents: decimalStringToCents(String(b.valor.original)) ?? 0,
      dueDate: due,
      ajusteDiaUtil: b.ajusteDiaUtil,
      receiver: { cnpj: SANDBOX_RECEIVER_CNPJ, conta: rb.conta, tipoConta: rb.tipoConta, ...(rb.agencia ? { agencia: rb.agencia } : {}) },
      createdAt: this.clock.now(),
    });
    if (!rec) return invalid('A cobrança é inválida.', [{ razao: 'A recorrência cobr.idRec não existe.', propriedade: 'cobr.idRec' }]);
    if (rec.status !== 'ACCEPTED' && rec.status !== 'ACTIVE')
      return invalid('A cobrança é inválida.', [
        { razao: `A recorrência cobr.idRec não está aprovada (${rec.status}).`, propriedade: 'cobr.idRec' },
      ]);
    if (!cobr) return invalid('A cobrança é inválida.', [{ razao: 'O campo cobr.txid encontra-se em uso.', propriedade: 'cobr.txid' }]);
    return { status: 201, body: cobrView(cobr) };
  }

  async patch(req: PspRequest): Promise<PspAnswer> {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (b.status !== 'CANCELADA')
      return invalid('A cobrança não respeita o schema.', [
        { razao: 'O campo cobr.status não respeita o schema.', propriedade: 'cobr.status' },
      ]);
    const now = this.clock.now();
    const out = await this.store.transaction(async (m): Promise<PspAnswer> => {
      const c = await this.store.lock(m, req.params.txid);
      if (!c) return notFound();
      if (c.status === 'CANCELLED_RECEIVER') return { status: 200, body: cobrView(c) };
      if (!OPEN.includes(c.status)) return invalid(`A cobrança está ${cobrView(c).status} e não pode ser cancelada.`);
      const firstAttempt = c.tentativas[0]?.dataLiquidacao ?? c.dueDate;
      if (this.clock.today() >= firstAttempt)
        return invalid(
          'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.',
        );
      const tentativas = c.tentativas.map((t) =>
        t.status === 'AGENDADA' || t.status === 'SOLICITADA'
          ? { ...t, status: 'CANCELADA', atualizacao: [...t.atualizacao, { status: 'CANCELADA', data: now.toISOString() }] }
          : t,
      );
      const moved = await this.store.move(m, c.txid, 'CANCELLED_RECEIVER', OPEN, {
        encerramento: {
          cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor' },
        },
        tentativas,
        attemptDate: null,
      });
      await this.store.changed(m, [{ txid: c.txid, recurrenceId: c.recurrenceId, what: 'CANCELADA' }], now.toISOString());
      return { status: 200, body: cobrView(moved!) };
    });
    this.events.kick();
    return out;
  }

  async get(req: PspRequest): Promise<PspAnswer> {
    const c = await this.store.find(req.params.txid);
    return c ? { status: 200, body: cobrView(c) } : notFound();
  }

  async list(req: PspRequest): Promise<PspAnswer> {
    const q = req.query;
    const bad = (razao: string, propriedade: string) =>
      pspProblem(400, 'CobRConsultaInvalida', 'Consulta inválida.', 'Os parâmetros da consulta não respeitam o schema.', [
        { razao, propriedade },
      ]);
    const inicio = q.get('inicio');
    const fim = q.get('fim');
    if (!inicio || Number.isNaN(Date.parse(inicio))) return bad('O parâmetro inicio não respeita o schema.', 'inicio');
    if (!fim || Number.isNaN(Date.parse(fim))) return bad('O parâmetro fim não respeita o schema.', 'fim');
    if (Date.parse(fim) < Date.parse(inicio))
      return bad('O timestamp representado pelo parâmetro fim é anterior ao timestamp representado pelo parâmetro inicio.', 'fim');
    const idRec = q.get('idRec') ?? undefined;
    if (idRec !== undefined && !ID_REC.test(idRec)) return bad('O parâmetro idRec não respeita o schema.', 'idRec');
    const page = Number(q.get('paginacao.paginaAtual') ?? '0');
    const perPage = Number(q.get('paginacao.itensPorPagina') ?? '100');
    if (!Number.isInteger(page) || page < 0) return bad('O parâmetro paginacao.paginaAtual é negativo.', 'paginacao.paginaAtual');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PAGE)
      return bad('O parâmetro paginacao.itensPorPagina não respeita o schema.', 'paginacao.itensPorPagina');
    const status = q.get('status') ?? undefined;
    const { items, total } = await this.store.list({ inicio: new Date(inicio), fim: new Date(fim), idRec, status, page, perPage });
    return {
      status: 200,
      body: {
        parametros: {
          inicio: new Date(inicio).toISOString(),
          fim: new Date(fim).toISOString(),
          ...(idRec ? { idRec } : {}),
          ...(status ? { status } : {}),
          paginacao: {
            paginaAtual: page,
            itensPorPagina: perPage,
            quantidadeDePaginas: Math.max(1, Math.ceil(total / perPage)),
            quantidadeTotalDeItens: total,
          },
        },
        cobsr: items.map(cobrView),
      },
    };
  }

  async retry(req: PspRequest): Promise<PspAnswer> {
    const date = req.params.data;
    if (!isDate(date)) return pspProblem(400, 'CobROperacaoInvalida', 'Operação inválida.', 'O parâmetro data não respeita o schema.');
    const now = this.clock.now();
    const today = this.clock.today();
    const out = await this.store.transaction(async (m): Promise<PspAnswer> => {
      const c = await this.store.lock(m, req.params.txid);
      if (!c) return notFound();
      const refuse = (detail: string) => invalid(detail);
      if (retryPolicyOf(c.idRec) !== 'PERMITE_3R_7D')
        return refuse('A política configurada na recorrência não permite retentativa de cobrança.');
      if (c.status !== 'ACTIVE') return refuse(`A cobrança está ${cobrView(c).status}; só uma cobrança ATIVA admite retentativa.`);
      if (date <= today) return refuse('O parâmetro data não corresponde a uma data futura.');
      if (c.tentativas.some((t) => t.status === 'SOLICITADA' || t.status === 'AGENDADA'))
        return refuse('Existe uma tentativa com status SOLICITADA ou AGENDADA.');
      if (c.tentativas.some((t) => t.dataLiquidacao === date)) return refuse('Existe uma tentativa vigente para a data informada.');
      if (c.tentativas.filter((t) => t.tipo === 'NTAG').length >= 3 || date > addDays(c.dueDate, 7))
        return refuse('A política configurada na recorrência não permite mais retentativas (3 em até 7 dias após o vencimento).');
      const moved = await this.store.move(m, c.txid, 'ACTIVE', ['ACTIVE'], {
        tentativas: [...c.tentativas, newAttempt(date, 'NTAG', now)],
        attemptDate: date,
      });
      await this.store.changed(m, [{ txid: c.txid, recurrenceId: c.recurrenceId, what: 'RETENTATIVA' }], now.toISOString());
      return { status: 201, body: cobrView(moved!) };
    });
    this.events.kick();
    return out;
  }
}

export { reais };
