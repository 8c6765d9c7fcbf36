import { PspViolation } from './problems';
import { ChargeFields, PspCharge } from './psp-cob.store';
import { decimalStringToCents } from '../../../kernel/common/formats/money';

/**
 * Reading a cob/cobv request body as the standard's violations list them (CobOperacaoInvalida,
 * CobVOperacaoInvalida): every refused property named, nothing thrown.
 */

const DAY = 86_400_000;
const AMOUNT = /^\d{1,10}\.\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const TXID = /^[a-zA-Z0-9]{26,35}$/;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

export interface ParsedCharge {
  fields: ChargeFields;
  /** `loc.id` when the request names a location made by POST /loc. */
  locId: number | null;
  /** REMOVIDA_PELO_USUARIO_RECEBEDOR asked (PATCH). */
  remove: boolean;
}

export interface ParseContext {
  kind: 'cob' | 'cobv';
  now: Date;
  /** São Paulo's date today (the PSP's clock). */
  today: string;
  /** The receiver's keys at this PSP. */
  keys: string[];
  /** PATCH: the charge revised (absent fields keep its values). */
  existing?: PspCharge;
}

/** The body of PUT (create or revise) or PATCH (revise) of a cob or cobv. */
export function parseCharge(body: unknown, ctx: ParseContext): ParsedCharge | { violacoes: PspViolation[] } {
  const v: PspViolation[] = [];
  const p = ctx.kind; // property prefix, as the standard's violations name them (cob.valor.original)
  const bad = (prop: string, razao: string) => v.push({ razao, propriedade: `${p}.${prop}` });
  const b = obj(body);
  if (!b) return { violacoes: [{ razao: 'O corpo da requisição não é um objeto JSON.', propriedade: p }] };
  const e = ctx.existing;

  const remove = b.status !== undefined;
  if (remove) {
    if (!e) bad('status', 'O campo status não pode ser informado na criação da cobrança.');
    else if (b.status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') bad('status', `O campo ${p}.status não respeita o schema.`);
    else if (Object.keys(b).some((k) => k !== 'status'))
      bad('status', 'Não é permitido remover a cobrança e alterá-la na mesma requisição.');
  }

  const cal = b.calendario === undefined ? null : obj(b.calendario);
  if (b.calendario !== undefined && !cal) bad('calendario', `O objeto ${p}.calendario não respeita o schema.`);
  let expiracaoS = e?.expiracaoS ?? null;
  let dueDate = e?.dueDate ?? null;
  let validade = e?.validadeAposVencimento ?? null;
  if (ctx.kind === 'cob') {
    const x = cal?.expiracao;
    if (x !== undefined && (!Number.isInteger(x) || (x as number) <= 0 || (x as number) > 2_147_483_647))
      bad('calendario.expiracao', `O campo ${p}.calendario.expiracao é igual ou menor que zero.`);
    else if (x !== undefined) expiracaoS = x as number;
    expiracaoS ??= 86400;
  } else {
    const d = cal?.dataDeVencimento;
    if (d === undefined && !e) bad('calendario.dataDeVencimento', `O campo ${p}.calendario.dataDeVencimento não respeita o schema.`);
    else if (d !== undefined && (typeof d !== 'string' || !DATE.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`))))
      bad('calendario.dataDeVencimento', `O campo ${p}.calendario.dataDeVencimento não respeita o schema.`);
    else if (typeof d === 'string' && d < ctx.today)
      bad('calendario.dataDeVencimento', `O campo ${p}.calendario.dataDeVencimento é anterior à data de criação da cobrança.`);
    else if (typeof d === 'string') dueDate = d;
    const va = cal?.validadeAposVencimento;
    if (va !== undefined && (!Number.isInteger(va) || (va as number) < 0))
      bad('calendario.validadeAposVencimento', `O campo ${p}.calendario.validadeAposVencimento é menor do que zero.`);
    else if (va !== undefined) validade = va as number;
    validade ??= 30;
  }

  let amountCents = e?.amountCents ?? 0;
  const valor = b.valor === undefined ? null : obj(b.valor);
  if ((b.valor === undefined && !e) || (b.valor !== undefined && !valor))
    bad('valor.original', `O campo ${p}.valor.original não respeita o schema.`);
  else if (valor) {
    const o = valor.original;
    if (typeof o !== 'string' || !AMOUNT.test(o)) bad('valor.original', `O campo ${p}.valor.original não respeita o schema.`);
    else if (Number(o) === 0) bad('valor.original', `O campo ${p}.valor.original é zero.`);
    else amountCents = decimalStringToCents(o) ?? 0;
  }

  let chave = e?.chave ?? '';
  if (b.chave === undefined && !e) bad('chave', `O campo ${p}.chave não respeita o schema.`);
  else if (b.chave !== undefined) {
    if (typeof b.chave !== 'string' || !b.chave || b.chave.length > 77) bad('chave', `O campo ${p}.chave não respeita o schema.`);
    else if (!ctx.keys.includes(b.chave))
      bad('chave', `O campo ${p}.chave corresponde a uma conta que não pertence a este usuário recebedor.`);
    else chave = b.chave;
  }

  let devedor = e?.devedor ?? null;
  if (b.devedor !== undefined) {
    const d = readPerson(b.devedor, ctx.kind === 'cobv');
    if (!d) bad('devedor', `O objeto ${p}.devedor não respeita o schema.`);
    else devedor = d;
  } else if (ctx.kind === 'cobv' && !e) bad('devedor', `O objeto ${p}.devedor não respeita o schema.`);

  let solicitacaoPagador = e?.solicitacaoPagador ?? null;
  if (b.solicitacaoPagador !== undefined) {
    if (typeof b.solicitacaoPagador !== 'string' || b.solicitacaoPagador.length > 140)
      v.push({ razao: 'O campo solicitacaoPagador não respeita o schema.', propriedade: `${p}.solicitacaoPagador` });
    else solicitacaoPagador = b.solicitacaoPagador;
  }
  let infoAdicionais = e?.infoAdicionais ?? null;
  if (b.infoAdicionais !== undefined) {
    const list = b.infoAdicionais;
    const ok =
      Array.isArray(list) &&
      list.length <= 50 &&
      list.every((i) => {
        const o = obj(i);
        return o && typeof o.nome === 'string' && o.nome.length <= 50 && typeof o.valor === 'string' && o.valor.length <= 200;
      });
    if (!ok) v.push({ razao: 'O objeto infoAdicionais não respeita o schema.', propriedade: `${p}.infoAdicionais` });
    else infoAdicionais = (list as { nome: string; valor: string }[]).map((i) => ({ nome: i.nome, valor: i.valor }));
  }

  let locId: number | null = null;
  if (b.loc !== undefined) {
    const id = obj(b.loc)?.id;
    if (!Number.isSafeInteger(id) || (id as number) <= 0) bad('loc.id', `O location referenciado por ${p}.loc.id inexiste.`);
    else locId = id as number;
  }

  if (v.length) return { violacoes: v };
  const createdAt = e?.createdAt ?? ctx.now;
  const expiresAt =
    ctx.kind === 'cob'
      ? new Date(createdAt.getTime() + expiracaoS! * 1000)
      : new Date(Date.parse(`${dueDate}T23:59:59.999-03:00`) + validade! * DAY);
  return {
    fields: {
      amountCents,
      chave,
      expiracaoS: ctx.kind === 'cob' ? expiracaoS : null,
      dueDate,
      validadeAposVencimento: validade,
      devedor,
      solicitacaoPagador,
      infoAdicionais,
      expiresAt,
    },
    locId,
    remove,
  };
}

/** PessoaFisica / PessoaJuridica (exactly one of cpf, cnpj, with nome); for a cobv, the optional address fields too. */
function readPerson(v: unknown, withAddress: boolean): Record<string, string> | null {
  const o = obj(v);
  if (!o || typeof o.nome !== 'string' || !o.nome.trim() || o.nome.length > 200) return null;
  const cpf = typeof o.cpf === 'string' && /^\d{11}$/.test(o.cpf) ? o.cpf : null;
  const cnpj = typeof o.cnpj === 'string' && /^[0-9A-Z]{14}$/.test(o.cnpj) ? o.cnpj : null;
  if ((o.cpf !== undefined && !cpf) || (o.cnpj !== undefined && !cnpj) || (cpf === null) === (cnpj === null)) return null;
  const out: Record<string, string> = { nome: o.nome, ...(cpf ? { cpf } : { cnpj: cnpj! }) };
  if (withAddress) {
    const max: Record<string, number> = { email: 200, logradouro: 200, cidade: 200, uf: 2, cep: 8 };
    for (const [k, n] of Object.entries(max)) {
      if (o[k] === undefined) continue;
      if (typeof o[k] !== 'string' || (o[k] as string).length > n) return null;
      out[k] = o[k] as string;
    }
  }
  return out;
}
