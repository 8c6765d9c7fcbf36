import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Pix that paid a Pix Automático cobr is kept with the received Pix (`pix_api_pix_received`,
 * its txid the cobr's), so a billing is refunded by devolução of it: its billing's refund route
 * and view look it up by txid (as a link's cob or a boleto's cobv is joined by txid).
 */
export class CobrPaidPix1764238000000 implements MigrationInterface {
  name = 'CobrPaidPix1764238000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX pix_api_pix_received_txid_ix ON pix_api_pix_received (txid) WHERE txid IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX pix_api_pix_received_txid_ix`);
  }
}
