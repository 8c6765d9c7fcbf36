import { SANDBOX_RECEIVER as RECEIVER } from '../../../kernel/common/protocols/sandbox-receiver';

/** Sandbox bank rows as API Pix recurrences (RecGerada / RecCompleta). Pure. */
export interface RecRow {
  id_rec: string;
  status: string;
  amount_cents: string | number;
  periodicity: string;
  first_due_date: string;
  expiration_date: string | null;
  payer_name: string;
  payer_tax_id: string;
  description: string | null;
  contrato: string | null;
  politica_retentativa: string;
  loc_id: string | number | null;
  loc_token: string | null;
  loc_created_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  approved_at: Date | string | null;
}

/** The columns recView reads, with the rec's location. */
export const REC_SELECT = `SELECT r.id_rec, r.status, r.amount_cents, r.periodicity, r.first_due_date::text AS first_due_date, r.expiration_date::text AS expiration_date,
  r.payer_name, r.payer_tax_id, r.description, r.contrato, r.politica_retentativa, r.loc_id, l.token AS loc_token, l.created_at AS loc_created_at,
  r.created_at, r.updated_at, r.approved_at
  FROM sandbox_bank_recurrences r LEFT JOIN sandbox_psp_locrec l ON l.id = r.loc_id`;

/** The standard's five periodicities and ours (the sandbox bank keeps ours: one bank state). */
export const PERIODICITY_OF: Readonly<Record<string, string>> = {
  SEMANAL: 'WEEKLY',
  MENSAL: 'MONTHLY',
  TRIMESTRAL: 'QUARTERLY',
  SEMESTRAL: 'BIANNUAL',
  ANUAL: 'ANNUAL',
};
const PERIODICIDADE_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(PERIODICITY_OF).map(([k, v]) => [v, k]));

/** The receiver the sandbox PSP answers for (the platform's account at this PSP). */
export const SANDBOX_RECEIVER = { cnpj: RECEIVER.cnpj, nome: RECEIVER.name };
/** The sandbox PSP's ISPB (8 characters) in the ids it makes. */
export const SANDBOX_ISPB = '99999008';
/** The payers' PSP in the sandbox (the bank app where they authorize). */
export const SANDBOX_PAYER_ISPB = '99999004';

export function reais(cents: number | string): string {
  const c = Number(cents);
  return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
}

export function recStatusOf(bank: string): 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA' {
  switch (bank) {
    case 'PENDING':
      return 'CRIADA';
    case 'ACCEPTED':
    case 'ACTIVE':
      return 'APROVADA';
    case 'REJECTED':
      return 'REJEITADA';
    case 'EXPIRED':
      return 'EXPIRADA';
    default:
      return 'CANCELADA';
  }
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function locationUrl(origin: string, token: string): string {
  return `${origin}/sandbox/bank/locrec/${token}`;
}

function atualizacao(r: RecRow) {
  const out = [{ status: 'CRIADA', data: iso(r.created_at) }];
  if (r.approved_at) out.push({ status: 'APROVADA', data: iso(r.approved_at) });
  const now = recStatusOf(r.status);
  if (now !== 'CRIADA' && now !== 'APROVADA') out.push({ status: now, data: iso(r.updated_at) });
  return out;
}

function encerramento(r: RecRow) {
  switch (r.status) {
    case 'CANCELLED_RECEIVER':
      return {
        cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor.' },
      };
    case 'CANCELLED_PAYER':
      return {
        cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB', descricao: 'Cancelamento solicitado pelo usuário pagador.' },
      };
    case 'REJECTED':
      return { rejeicao: { codigo: 'AP13', descricao: 'Recorrência rejeitada pelo usuário pagador.' } };
    default:
      return undefined;
  }
}

/** The rec as GET /rec/{idRec} answers it (RecCompleta); `origin` makes the location URL. */
export function recView(r: RecRow, origin: string) {
  const devedor = r.payer_tax_id.length === 11 ? { cpf: r.payer_tax_id, nome: r.payer_name } : { cnpj: r.payer_tax_id, nome: r.payer_name };
  const end = encerramento(r);
  return {
    idRec: r.id_rec,
    vinculo: { objeto: r.description ?? undefined, contrato: r.contrato ?? undefined, devedor },
    calendario: {
      dataInicial: r.first_due_date,
      ...(r.expiration_date ? { dataFinal: r.expiration_date } : {}),
      periodicidade: PERIODICIDADE_OF[r.periodicity] ?? 'MENSAL',
    },
    valor: { valorRec: reais(r.amount_cents) },
    recebedor: { cnpj: SANDBOX_RECEIVER.cnpj, nome: SANDBOX_RECEIVER.nome },
    status: recStatusOf(r.status),
    politicaRetentativa: r.politica_retentativa,
    ...(r.loc_id != null && r.loc_token
      ? {
          loc: {
            criacao: iso(r.loc_created_at ?? r.created_at),
            id: Number(r.loc_id),
            location: locationUrl(origin, r.loc_token),
            idRec: r.id_rec,
          },
        }
      : {}),
    // the payer's PSP (the sandbox bank, ISPB 99999004) once the payer answered
    ...(r.approved_at || r.status === 'REJECTED'
      ? {
          pagador: {
            ispbParticipante: SANDBOX_PAYER_ISPB,
            ...(r.payer_tax_id.length === 11 ? { cpf: r.payer_tax_id } : { cnpj: r.payer_tax_id }),
          },
        }
      : {}),
    atualizacao: atualizacao(r),
    ...(end ? { encerramento: end } : {}),
    ativacao: { tipoJornada: r.approved_at ? 'JORNADA_2' : 'AGUARDANDO_DEFINICAO' },
  };
}
