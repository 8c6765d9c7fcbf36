import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { decimalStringToCents } from '../../../kernel/common/formats/money';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PspAnswer, pspProblem, PspViolation } from './problems';
import { PspDevolucaoStore } from './psp-devolucao.store';
import { DevolucaoNatureza, devolucaoPlan, devolucaoView, newRtrId } from './psp-devolucao.view';
import { PspRequest, SandboxPspServer } from './psp-server';

const E2E = /^[a-zA-Z0-9]{32}$/;
const ID = /^[a-zA-Z0-9]{1,35}$/;
const VALOR = /^\d{1,10}\.\d{2}$/;
/** "hoje estabelecida como 90 dias desde a data de liquidação original do pix" */
const WINDOW_MS = 90 * 86_400_000;

interface Solicitada {
  cents: number;
  natureza: DevolucaoNatureza;
  descricao: string | null;
}

/**
 * The sandbox PSP's devoluções (API Pix tag Pix): `PUT /pix/{e2eid}/devolucao/{id}` asks for
 * one (201, EM_PROCESSAMENTO; the same body again answers the same devolução), `GET` reads it.
 * PixDevolucaoInvalida (400) for the standard's violations: the body's schema, the sum over the
 * Pix passing its valor, an `{id}` already used for this e2eid by another request, the 90-day
 * window since the Pix settled; a Pix this PSP did not receive is 404. The tick settles it
 * (PspDevolucaoTicker) and re-sends the Pix's callback with its devoluções.
 */
@Injectable()
export class PspDevolucaoHandlers implements OnModuleInit {
  constructor(
    private readonly server: SandboxPspServer,
    private readonly store: PspDevolucaoStore,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.server.register('PUT', '/pix/:e2eid/devolucao/:id', (r) => this.put(r));
    this.server.register('GET', '/pix/:e2eid/devolucao/:id', (r) => this.get(r));
  }

  async put(req: PspRequest): Promise<PspAnswer> {
    const { e2eid, id } = req.params;
    if (!E2E.test(e2eid)) return pixNotFound();
    const violacoes: PspViolation[] = [];
    if (!ID.test(id)) violacoes.push({ razao: 'O parâmetro {id} não respeita o schema.', propriedade: 'id' });
    const asked = parse(req.body, violacoes);
    if (!asked || violacoes.length) return invalid(violacoes);
    const hash = createHash('sha256')
      .update(JSON.stringify([asked.cents, asked.natureza, asked.descricao]))
      .digest('hex');
    const now = this.clock.now();
    return this.store.transaction(async (m) => {
      const pix = await this.store.lockPix(m, e2eid);
      if (!pix) return pixNotFound();
      const before = await this.store.find(m, e2eid, id);
      if (before) {
        if (before.requestHash === hash) return { status: 201, body: devolucaoView(before) };
        return invalid([
          {
            razao:
              'A presente requisição de devolução apresenta um {id} já utilizado por outra requisição de devolução para o {e2eid} em questão.',
            propriedade: 'id',
          },
        ]);
      }
      if (asked.natureza === 'RETIRADA')
        violacoes.push({
          razao: 'O pix originário não é um Pix Saque nem um Pix Troco: a natureza da devolução deve ser ORIGINAL.',
          propriedade: 'devolucao.natureza',
        });
      if (now.getTime() - pix.paidAt.getTime() > WINDOW_MS)
        violacoes.push({
          razao:
            'A presente requisição de devolução viola a janela de tempo permitida para solicitações de devoluções de um pix (90 dias desde a data de liquidação original do pix).',
          propriedade: 'e2eid',
        });
      if ((await this.store.takenCents(m, e2eid)) + asked.cents > pix.amountCents)
        violacoes.push({
          razao: 'A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.',
          propriedade: 'devolucao.valor',
        });
      if (violacoes.length) return invalid(violacoes);
      const plan = devolucaoPlan(asked.cents);
      const made = await this.store.insert(m, {
        endToEndId: e2eid,
        id,
        rtrId: newRtrId(now),
        amountCents: asked.cents,
        natureza: asked.natureza,
        descricao: asked.descricao,
        requestHash: hash,
        status: 'EM_PROCESSAMENTO',
        outcome: plan.outcome,
        motivo: null,
        ticksLeft: plan.ticks,
        at: now,
      });
      return { status: 201, body: devolucaoView(made) };
    });
  }

  async get(req: PspRequest): Promise<PspAnswer> {
    const { e2eid, id } = req.params;
    const d = E2E.test(e2eid) && ID.test(id) ? await this.store.find(this.store.pool(), e2eid, id) : null;
    if (!d)
      return pspProblem(
        404,
        'PixDevolucaoNaoEncontrada',
        'Devolução não encontrada.',
        'Devolução representada por {id} não encontrada para o e2eid informado.',
      );
    return { status: 200, body: devolucaoView(d) };
  }
}

/** DevolucaoSolicitada: valor (required, above zero), natureza ORIGINAL (default) or RETIRADA, descricao up to 140. */
function parse(body: unknown, violacoes: PspViolation[]): Solicitada | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    violacoes.push({ razao: 'O corpo da requisição não respeita o schema.', propriedade: 'devolucao' });
    return null;
  }
  const b = body as Record<string, unknown>;
  const cents = typeof b.valor === 'string' && VALOR.test(b.valor) ? decimalStringToCents(b.valor) : null;
  if (!cents) violacoes.push({ razao: 'O campo devolucao.valor não respeita o schema.', propriedade: 'devolucao.valor' });
  const natureza = b.natureza ?? 'ORIGINAL';
  if (natureza !== 'ORIGINAL' && natureza !== 'RETIRADA')
    violacoes.push({ razao: 'O campo devolucao.natureza não respeita o schema.', propriedade: 'devolucao.natureza' });
  const descricao = b.descricao ?? null;
  if (descricao !== null && (typeof descricao !== 'string' || descricao.length > 140))
    violacoes.push({ razao: 'O campo devolucao.descricao não respeita o schema.', propriedade: 'devolucao.descricao' });
  return cents ? { cents, natureza: natureza as DevolucaoNatureza, descricao: descricao as string | null } : null;
}

function invalid(violacoes: PspViolation[]): PspAnswer {
  return pspProblem(
    400,
    'PixDevolucaoInvalida',
    'Devolução inválida.',
    'A presente requisição de devolução não respeita o schema ou não faz sentido semanticamente.',
    violacoes,
  );
}

function pixNotFound(): PspAnswer {
  return pspProblem(404, 'PixNaoEncontrado', 'Pix não encontrado.', 'Pix não encontrado para o e2eid informado.');
}
