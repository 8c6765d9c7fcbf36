import { DataSource } from 'typeorm';
import { rows as sql } from './psp-cobr.store';

/** The bank's recurrence status as an API Pix rec status. */
function recStatusOf(s: string): string {
  switch (s) {
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

/**
 * RecNotification items (`recs[]` of a rec callback) for the recurrences with these idTx that
 * were created through API Pix. TEMPORARY minimal rendering until psp-core's rec view is merged.
 */
export async function recNotification(ds: DataSource, idTxs: string[]): Promise<{ idTx: string; body: Record<string, unknown> }[]> {
  if (!idTxs.length) return [];
  const found = await sql(ds.manager, `SELECT id_tx, id_rec, status, updated_at FROM sandbox_bank_recurrences WHERE id_tx = ANY($1) AND id_rec IS NOT NULL`, [idTxs]);
  return found.map((r) => ({
    idTx: r.id_tx,
    body: { idRec: r.id_rec, status: recStatusOf(r.status), atualizacao: [{ status: recStatusOf(r.status), data: new Date(r.updated_at).toISOString() }] },
  }));
}
