import { SANDBOX_RECEIVER as RECEIVER } from '../../../kernel/common/protocols/sandbox-receiver';
import { centsToDecimalString } from '../../../kernel/common/formats/money';
import { PspCharge, PspLocation, PspPix } from './psp-cob.store';
import { devolucaoView } from './psp-devolucao.view';

/**
 * The sandbox PSP's answers in the standard's shapes (CobGerada/CobCompleta, CobVGerada/
 * CobVCompleta, PayloadLocation, Pix, CobPayload, CobVPayload).
 */

/** The receiver as its PSP knows it (the sandbox's single customer). */
export const SANDBOX_RECEIVER = {
  cnpj: RECEIVER.cnpj,
  nome: RECEIVER.name,
  logradouro: 'Avenida Paulista, 1000',
  cidade: RECEIVER.city,
  uf: 'SP',
  cep: '01310100',
};

export type CobrancaStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

/**
 * The bank's charge status as API Pix names it. Unpaid past its time (`calendario.expiracao`, or
 * the due date plus `validadeAposVencimento`) the PSP removes it: REMOVIDA_PELO_PSP.
 */
export function cobrancaStatus(c: Pick<PspCharge, 'status' | 'removedBy'>): CobrancaStatus {
  switch (c.status) {
    case 'PENDING':
      return 'ATIVA';
    case 'AUTHORIZED':
    case 'SETTLED':
      return 'CONCLUIDA';
    case 'EXPIRED':
      return 'REMOVIDA_PELO_PSP';
    case 'REMOVED':
      return c.removedBy === 'USUARIO_RECEBEDOR' ? 'REMOVIDA_PELO_USUARIO_RECEBEDOR' : 'REMOVIDA_PELO_PSP';
  }
}

/** The open URL a payer's bank reads the charge at (`/{pixUrlAccessToken}` or `/cobv/{pixUrlAccessToken}`). */
export function locationUrl(base: string, loc: Pick<PspLocation, 'tipoCob' | 'token'>): string {
  return `${base}/sandbox/qr/${loc.tipoCob === 'cobv' ? 'cobv/' : ''}${loc.token}`;
}

const iso = (d: Date) => d.toISOString();
const dec = (cents: number) => centsToDecimalString(cents);

export function locView(loc: PspLocation, base: string) {
  return {
    id: loc.id,
    location: locationUrl(base, loc),
    tipoCob: loc.tipoCob,
    criacao: iso(loc.createdAt),
    ...(loc.txid ? { txid: loc.txid } : {}),
  };
}

export function pixView(p: PspPix) {
  return {
    endToEndId: p.endToEndId,
    txid: p.txid,
    valor: dec(p.amountCents),
    componentesValor: { original: { valor: dec(p.amountCents) } },
    chave: p.chave,
    horario: iso(p.paidAt),
    ...(p.infoPagador ? { infoPagador: p.infoPagador } : {}),
    ...(p.devolucoes?.length ? { devolucoes: p.devolucoes.map(devolucaoView) } : {}),
  };
}

function common(c: PspCharge) {
  return {
    txid: c.txid,
    revisao: c.revisao,
    status: cobrancaStatus(c),
    chave: c.chave,
    ...(c.solicitacaoPagador ? { solicitacaoPagador: c.solicitacaoPagador } : {}),
    ...(c.infoAdicionais?.length ? { infoAdicionais: c.infoAdicionais } : {}),
  };
}

/** The receiver's data, also at the top level: the standard's DadosRecebedor lists them as required there. */
function receiver() {
  const { logradouro, cidade, uf, cep } = SANDBOX_RECEIVER;
  return { recebedor: { ...SANDBOX_RECEIVER }, logradouro, cidade, uf, cep };
}

/** PUT/PATCH answer (CobGerada, CobVGerada) and, with `pix`, GET answer (CobCompleta, CobVCompleta). */
export function chargeView(c: PspCharge, loc: PspLocation, base: string, pix?: PspPix[]) {
  const location = locationUrl(base, loc);
  const calendario =
    c.kind === 'cob'
      ? { criacao: iso(c.createdAt), expiracao: c.expiracaoS! }
      : { criacao: iso(c.createdAt), dataDeVencimento: c.dueDate!, validadeAposVencimento: c.validadeAposVencimento ?? 30 };
  return {
    calendario,
    ...common(c),
    loc: { ...locView(loc, base), txid: c.txid },
    location,
    ...(c.devedor ? { devedor: c.devedor } : {}),
    ...(c.kind === 'cobv' ? receiver() : {}),
    valor: c.kind === 'cob' ? { original: dec(c.amountCents), modalidadeAlteracao: 0 } : { original: dec(c.amountCents) },
    pixCopiaECola: c.brCode,
    ...(pix ? { pix: pix.map(pixView) } : {}),
  };
}

/** What the location serves (CobPayload / CobVPayload): the charge as the payer's bank shows it. */
export function payloadView(c: PspCharge, now: Date) {
  const { nome, cpf, cnpj } = c.devedor ?? {};
  const devedor = nome ? { nome, ...(cpf ? { cpf } : { cnpj }) } : undefined;
  if (c.kind === 'cob') {
    return {
      calendario: { criacao: iso(c.createdAt), apresentacao: iso(now), expiracao: c.expiracaoS! },
      ...common(c),
      ...(devedor ? { devedor } : {}),
      valor: { original: dec(c.amountCents), modalidadeAlteracao: 0 },
    };
  }
  return {
    calendario: {
      criacao: iso(c.createdAt),
      apresentacao: iso(now),
      dataDeVencimento: c.dueDate!,
      validadeAposVencimento: c.validadeAposVencimento ?? 30,
    },
    ...common(c),
    devedor,
    ...receiver(),
    valor: { original: dec(c.amountCents), final: dec(c.amountCents) },
  };
}
