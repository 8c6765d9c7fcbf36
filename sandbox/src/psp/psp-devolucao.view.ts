import { centsToDecimalString } from '../../../kernel/common/formats/money';
import { randomChars } from '../../../kernel/common/random-ids';

/**
 * Devoluções as API Pix 2.9 writes them (Devolucao), and the sandbox's test data: the last two
 * cent digits of a devolução's valor decide how it ends.
 */

export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
/** DevolucaoNatureza: the receiver asks for ORIGINAL or RETIRADA; MED_* are started by the payer's side. */
export type DevolucaoNatureza = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';
export type MedNatureza = Extract<DevolucaoNatureza, `MED_${string}`>;
export const MED_NATUREZAS: readonly MedNatureza[] = ['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'];

/** Where the Pix came from: a cob/cobv, or a Pix Automático cobr (PixAutomatico's devoluções). */
export type PixOrigin = 'cob' | 'cobr';

/**
 * The naturezas MED may give a Pix back under (DevolucaoNatureza and DevolucaoNaturezaPixAutomatico):
 * a Pix comum MED_OPERACIONAL or MED_FRAUDE; a Pix Automático MED_FRAUDE or MED_PIX_AUTOMATICO.
 */
export const MED_FOR: Record<PixOrigin, readonly MedNatureza[]> = {
  cob: ['MED_OPERACIONAL', 'MED_FRAUDE'],
  cobr: ['MED_FRAUDE', 'MED_PIX_AUTOMATICO'],
};

export interface PspDevolucao {
  endToEndId: string;
  id: string;
  rtrId: string;
  amountCents: number;
  natureza: DevolucaoNatureza;
  descricao: string | null;
  status: DevolucaoStatus;
  motivo: string | null;
  requestedAt: Date;
  settledAt: Date | null;
}

/** Ticks a `…16` devolução stays EM_PROCESSAMENTO (the slow one, for polling). */
export const SLOW_TICKS = 5;
export const NOT_DONE_MOTIVO = 'Conta do pagador encerrada';

/** Test data: `…13` NAO_REALIZADO with NOT_DONE_MOTIVO (after a tick), `…16` DEVOLVIDO after SLOW_TICKS ticks, else DEVOLVIDO after a tick. */
export function devolucaoPlan(amountCents: number): { outcome: 'DEVOLVIDO' | 'NAO_REALIZADO'; ticks: number } {
  switch (amountCents % 100) {
    case 13:
      return { outcome: 'NAO_REALIZADO', ticks: 1 };
    case 16:
      return { outcome: 'DEVOLVIDO', ticks: SLOW_TICKS };
    default:
      return { outcome: 'DEVOLVIDO', ticks: 1 };
  }
}

/** ISPB of the sandbox PSP in the ids it makes. */
export const SANDBOX_ISPB = '99999999';

/** `D` + ISPB + yyyyMMddHHmm (UTC) + 11 letters and digits: the pacs.004's ReturnIdentification (32). */
export function newRtrId(at: Date): string {
  const t = at.toISOString();
  const stamp = t.slice(0, 4) + t.slice(5, 7) + t.slice(8, 10) + t.slice(11, 13) + t.slice(14, 16);
  return `D${SANDBOX_ISPB}${stamp}${randomChars('abcdefghijklmnopqrstuvwxyz0123456789', 11)}`;
}

/** The id the PSP gives a devolução it did not receive a `{id}` for (MED): 35 at most, like DevolucaoId. */
export function newMedId(): string {
  return `MED${randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 29)}`;
}

export function devolucaoView(d: PspDevolucao) {
  return {
    id: d.id,
    rtrId: d.rtrId,
    valor: centsToDecimalString(d.amountCents),
    natureza: d.natureza,
    ...(d.descricao !== null ? { descricao: d.descricao } : {}),
    horario: {
      solicitacao: d.requestedAt.toISOString(),
      ...(d.status === 'DEVOLVIDO' && d.settledAt ? { liquidacao: d.settledAt.toISOString() } : {}),
    },
    status: d.status,
    ...(d.motivo !== null ? { motivo: d.motivo } : {}),
  };
}
