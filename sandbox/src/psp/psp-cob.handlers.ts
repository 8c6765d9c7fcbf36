import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildBrCode } from '../../../kernel/common/formats/brcode';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PspAnswer, pspProblem } from './problems';
import { parseCharge, ParsedCharge, TXID } from './psp-cob.parse';
import { PspCharge, PspCobStore, PspLocation } from './psp-cob.store';
import { chargeView, locationUrl, locView, SANDBOX_RECEIVER } from './psp-cob.view';
import { PspReceiver } from './psp-receiver';
import { PspRequest, SandboxPspServer } from './psp-server';
import { Tx, pool, transaction } from '../../../kernel/platform/database/sql';

/** The line printed on a boleto, named in a cobv's infoAdicionais: the sandbox prints that cobv's QR on it. */
export const BOLETO_LINE_INFO = 'Linha digitavel';

const LOCATION_MAX = 77;

/**
 * The sandbox PSP's immediate charges and charges with a due date (API Pix tags Cob, CobV,
 * PayloadLocation): `PUT|PATCH|GET /cob/{txid}`, `PUT|PATCH|GET /cobv/{txid}`, `POST /loc`,
 * `GET /loc/{id}`. A charge is a row of the sandbox's Pix charges (one state with the acquirer
 * face); its BR Code is dynamic: it carries the location URL, which the sandbox serves openly
 * (SandboxPspLocationsController). PUT again with the same body answers the same charge
 * (a retried call), with another body revises it while it is ATIVA.
 */
@Injectable()
export class PspCobHandlers implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly store: PspCobStore,
    private readonly server: SandboxPspServer,
    private readonly clock: Clock,
    private readonly receiver: PspReceiver,
  ) {}

  onModuleInit(): void {
    for (const kind of ['cob', 'cobv'] as const) {
      this.server.register('PUT', `/${kind}/:txid`, (r) => this.put(kind, r));
      this.server.register('PATCH', `/${kind}/:txid`, (r) => this.patch(kind, r));
      this.server.register('GET', `/${kind}/:txid`, (r) => this.get(kind, r));
    }
    this.server.register('POST', '/loc', (r) => this.postLoc(r));
    this.server.register('GET', '/loc/:id', (r) => this.getLoc(r));
  }

  async put(kind: 'cob' | 'cobv', req: PspRequest): Promise<PspAnswer> {
    const txid = req.params.txid;
    if (!TXID.test(txid)) return invalid(kind, [{ razao: 'O campo txid não respeita o schema.', propriedade: 'txid' }]);
    const hash = createHash('sha256')
      .update(JSON.stringify(req.body ?? null))
      .digest('hex');
    return transaction(this.ds, async (m) => {
      const now = this.clock.now();
      const existing = await this.store.charge(txid, m, true);
      if (!existing && (await this.store.txidTaken(m, txid)))
        return invalid(kind, [{ razao: `O campo ${kind}.txid encontra-se em uso.`, propriedade: 'txid' }]);
      if (existing && existing.kind !== kind)
        return invalid(kind, [{ razao: `O txid ${txid} pertence a uma cobrança de outro tipo.`, propriedade: 'txid' }]);
      if (existing && existing.requestHash === hash) return this.answer(m, existing, 201);
      if (existing && existing.status !== 'PENDING') {
        return invalid(kind, [
          {
            razao: 'A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.',
            propriedade: `${kind}.status`,
          },
        ]);
      }
      const parsed = parseCharge(req.body, {
        kind,
        now,
        today: this.clock.today(),
        keys: this.receiver.keys(),
        ...(existing ? { existing } : {}),
      });
      if ('violacoes' in parsed) return invalid(kind, parsed.violacoes);
      if (parsed.remove) return invalid(kind, [{ razao: 'O campo status não pode ser informado em PUT.', propriedade: `${kind}.status` }]);
      if (existing) return this.revise(m, existing, parsed, hash, now, 201);

      const loc = await this.locationFor(m, kind, parsed.locId, req.clientId, now);
      if ('status' in loc) return loc;
      const boletoId = kind === 'cobv' ? await this.boletoNamed(m, parsed) : null;
      const brCode = this.brCode(loc);
      await this.store.insertCharge(m, {
        txid,
        kind,
        clientId: req.clientId,
        requestHash: hash,
        locId: loc.id,
        boletoId,
        brCode,
        now,
        ...parsed.fields,
      });
      return this.answer(m, (await this.store.charge(txid, m))!, 201);
    });
  }

  async patch(kind: 'cob' | 'cobv', req: PspRequest): Promise<PspAnswer> {
    return transaction(this.ds, async (m) => {
      const existing = await this.store.charge(req.params.txid, m, true);
      if (!existing || existing.kind !== kind) return notFound(kind);
      if (existing.status !== 'PENDING')
        return invalid(kind, [
          { razao: 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.', propriedade: `${kind}.status` },
        ]);
      const now = this.clock.now();
      const parsed = parseCharge(req.body, { kind, now, today: this.clock.today(), keys: this.receiver.keys(), existing });
      if ('violacoes' in parsed) return invalid(kind, parsed.violacoes);
      if (parsed.remove) {
        await this.store.removeCharge(m, existing.txid, now);
        return this.answer(m, (await this.store.charge(existing.txid, m))!, 200);
      }
      const hash = createHash('sha256')
        .update(JSON.stringify(req.body ?? null))
        .digest('hex');
      return this.revise(m, existing, parsed, hash, now, 200);
    });
  }

  async get(kind: 'cob' | 'cobv', req: PspRequest): Promise<PspAnswer> {
    const c = await this.store.charge(req.params.txid);
    if (!c || c.kind !== kind) return notFound(kind);
    const rev = req.query.get('revisao');
    if (rev !== null && (!/^\d+$/.test(rev) || Number(rev) > c.revisao)) {
      return pspProblem(
        400,
        kind === 'cob' ? 'CobConsultaInvalida' : 'CobVConsultaInvalida',
        'Consulta inválida.',
        'A revisão informada não existe para esta cobrança.',
        [{ razao: 'O parâmetro revisao corresponde a uma revisão inexistente para a cobrança.', propriedade: 'revisao' }],
      );
    }
    const loc = (await this.store.location(c.locId))!;
    return { status: 200, body: chargeView(c, loc, this.receiver.base(), await this.store.pixOf(c.txid)) };
  }

  async postLoc(req: PspRequest): Promise<PspAnswer> {
    const tipoCob = (req.body as { tipoCob?: unknown } | null)?.tipoCob;
    if (tipoCob !== 'cob' && tipoCob !== 'cobv') {
      return pspProblem(400, 'PayloadLocationOperacaoInvalida', 'Location inválida.', 'A requisição não respeita o schema.', [
        { razao: 'O campo tipoCob não respeita o schema.', propriedade: 'tipoCob' },
      ]);
    }
    const loc = await this.store.newLocation(pool(this.ds), tipoCob, req.clientId, this.clock.now(), this.tokenLength(tipoCob));
    const view = locView(loc, this.receiver.base());
    return { status: 201, headers: { location: view.location }, body: view };
  }

  async getLoc(req: PspRequest): Promise<PspAnswer> {
    const id = Number(req.params.id);
    const loc = Number.isSafeInteger(id) && id > 0 ? await this.store.location(id) : null;
    if (!loc)
      return pspProblem(404, 'PayloadLocationNaoEncontrado', 'Location não encontrada.', 'Location não encontrada para o id informado.');
    return { status: 200, body: locView(loc, this.receiver.base()) };
  }

  private async revise(m: Tx, c: PspCharge, parsed: ParsedCharge, hash: string, now: Date, status: number): Promise<PspAnswer> {
    if (parsed.locId !== null && parsed.locId !== c.locId) {
      return invalid(c.kind, [
        {
          razao: `O location referenciado por ${c.kind}.loc.id já está sendo utilizado por outra cobrança.`,
          propriedade: `${c.kind}.loc.id`,
        },
      ]);
    }
    await this.store.reviseCharge(m, c.txid, { ...parsed.fields, requestHash: hash, brCode: c.brCode }, now);
    return this.answer(m, (await this.store.charge(c.txid, m))!, status);
  }

  /** The location named by `loc.id`, or a new one: it must exist, be of this type and serve no other charge. */
  private async locationFor(
    m: Tx,
    kind: 'cob' | 'cobv',
    locId: number | null,
    clientId: string,
    now: Date,
  ): Promise<PspLocation | PspAnswer> {
    if (locId === null) return this.store.newLocation(m, kind, clientId, now, this.tokenLength(kind));
    const loc = await this.store.location(locId, m, true);
    if (!loc) return invalid(kind, [{ razao: `O location referenciado por ${kind}.loc.id inexiste.`, propriedade: `${kind}.loc.id` }]);
    if (loc.tipoCob !== kind)
      return invalid(kind, [
        {
          razao: `O location referenciado por ${kind}.loc.id apresenta tipo "${loc.tipoCob}" (deveria ser "${kind}").`,
          propriedade: `${kind}.loc.id`,
        },
      ]);
    if (loc.txid)
      return invalid(kind, [
        { razao: `O location referenciado por ${kind}.loc.id já está sendo utilizado por outra cobrança.`, propriedade: `${kind}.loc.id` },
      ]);
    return loc;
  }

  /** A sandbox boleto whose digitable line the cobv names (infoAdicionais), with the same amount: the cobv is its Pix QR. */
  private async boletoNamed(m: Tx, parsed: ParsedCharge): Promise<string | null> {
    const line = parsed.fields.infoAdicionais?.find((i) => i.nome === BOLETO_LINE_INFO)?.valor.replace(/\D/g, '');
    if (!line) return null;
    const b = await this.store.boletoByLine(m, line);
    return b && b.amountCents === parsed.fields.amountCents ? b.id : null;
  }

  /** Dynamic BR Code: the location URL without its scheme, txid `***`, the value read from the payload. */
  private brCode(loc: PspLocation): string {
    return buildBrCode({
      url: locationUrl(this.receiver.base(), loc).replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''),
      merchantName: SANDBOX_RECEIVER.nome,
      merchantCity: SANDBOX_RECEIVER.cidade,
      singleUse: true,
    });
  }

  /** The longest access token that keeps the location within the standard's 77 characters (at least 20). */
  private tokenLength(kind: 'cob' | 'cobv'): number {
    const prefix = locationUrl(this.receiver.base(), { tipoCob: kind, token: '' }).replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
    return Math.max(20, Math.min(32, LOCATION_MAX - prefix.length));
  }

  private async answer(m: Tx, c: PspCharge, status: number): Promise<PspAnswer> {
    const loc = (await this.store.location(c.locId, m))!;
    return { status, body: chargeView(c, loc, this.receiver.base()) };
  }
}

function invalid(kind: 'cob' | 'cobv', violacoes: { razao: string; propriedade: string }[]): PspAnswer {
  return kind === 'cob'
    ? pspProblem(
        400,
        'CobOperacaoInvalida',
        'Cobrança inválida.',
        'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o schema ou está semanticamente errada.',
        violacoes,
      )
    : pspProblem(
        400,
        'CobVOperacaoInvalida',
        'Cobrança inválida.',
        'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o schema ou está semanticamente errada.',
        violacoes,
      );
}

function notFound(kind: 'cob' | 'cobv'): PspAnswer {
  return kind === 'cob'
    ? pspProblem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', 'Cobrança não encontrada para o txid informado.')
    : pspProblem(404, 'CobVNaoEncontrada', 'Cobrança não encontrada.', 'Cobrança com vencimento não encontrada para o txid informado.');
}
