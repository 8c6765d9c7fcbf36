import { DataSource } from 'typeorm';
import { rows as sql } from './psp-cobr.store';
import { RecRow, recView } from './psp-rec.view';
import { pool } from '../../../kernel/platform/database/sql';

const SELECT = `SELECT r.id_tx, r.id_rec, r.status, r.amount_cents, r.periodicity, r.first_due_date::text AS first_due_date, r.expiration_date::text AS expiration_date,
  r.payer_name, r.payer_tax_id, r.description, r.contrato, r.politica_retentativa, r.loc_id, NULL AS loc_token, NULL AS loc_created_at,
  r.created_at, r.updated_at, r.approved_at
  FROM sandbox_bank_recurrences r WHERE r.id_tx = ANY($1) AND r.id_rec IS NOT NULL`;

/**
 * RecNotification items (`recs[]` of a rec callback) for the recurrences with these idTx that
 * were created through API Pix: the rec as GET /rec/{idRec} shows it (psp-core's recView),
 * narrowed to what the notification carries (id, status, history, ending, activation).
 */
export async function recNotification(ds: DataSource, idTxs: string[]): Promise<{ idTx: string; body: Record<string, unknown> }[]> {
  if (!idTxs.length) return [];
  const found = (await sql(pool(ds), SELECT, [idTxs])) as (RecRow & { id_tx: string })[];
  return found.map((r) => {
    const v = recView(r, '') as Record<string, unknown>;
    const body: Record<string, unknown> = { idRec: v.idRec, status: v.status, atualizacao: v.atualizacao, ativacao: v.ativacao };
    if (v.encerramento) body.encerramento = v.encerramento;
    return { idTx: r.id_tx, body };
  });
}
