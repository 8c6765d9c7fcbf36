import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox moved into its own app, with its own schema and migrations
 * (`sandbox/migrations/`): its tables leave the service's database. The migrations above that
 * made them stay as the history of this database; a new database makes and drops them here.
 * There is no way back: the sandbox app keeps its data in its own schema now.
 */
export class SandboxMovesOut1764300000000 implements MigrationInterface {
  name = 'SandboxMovesOut1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP TABLE IF EXISTS public.sandbox_acquirer_boletos, public.sandbox_acquirer_card_transactions, public.sandbox_acquirer_disputes, public.sandbox_acquirer_notifications, public.sandbox_acquirer_pix_charges, public.sandbox_acquirer_refunds, public.sandbox_adyen_three_ds, public.sandbox_adyen_webhooks, public.sandbox_bank_billings, public.sandbox_bank_events, public.sandbox_bank_recurrences, public.sandbox_psp_devolucoes, public.sandbox_psp_locations, public.sandbox_psp_locrec, public.sandbox_psp_payouts, public.sandbox_psp_pix, public.sandbox_psp_pix_callbacks, public.sandbox_psp_pix_webhooks, public.sandbox_psp_solicrec, public.sandbox_psp_webhooks, public.sandbox_three_ds_transactions CASCADE`,
    );
    await q.query(
      `DROP SEQUENCE IF EXISTS public.sandbox_acquirer_boleto_our_number, public.sandbox_bank_events_id_seq, public.sandbox_psp_locations_id_seq, public.sandbox_psp_locrec_id_seq`,
    );
  }

  async down(): Promise<void> {
    // nothing to restore: the sandbox app's own migrations make its tables in its schema
  }
}
