import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Boleto bancário on Adyen Checkout v72. The service side records boleto attempts beside card
 * ones (`kind`; a boleto has no capture mode), so an AUTHORISATION webhook is read as a boleto
 * paid rather than a card authorized. The sandbox marks a boleto issued through its Adyen face
 * with the pspReference it answered and the merchant's reference, so paying it sends Adyen's
 * webhook instead of the `service` protocol's notification.
 */
export class AdyenBoletos1764160000000 implements MigrationInterface {
  name = 'AdyenBoletos1764160000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE adyen_payment_attempts ADD COLUMN kind text NOT NULL DEFAULT 'card' CHECK (kind IN ('card', 'boleto'))`);
    await q.query(`ALTER TABLE adyen_payment_attempts ALTER COLUMN capture_mode DROP NOT NULL`);
    await q.query(
      `ALTER TABLE adyen_payment_attempts ADD CONSTRAINT adyen_payment_attempts_capture_mode_of_kind CHECK ((kind = 'card') = (capture_mode IS NOT NULL))`,
    );
    await q.query(`ALTER TABLE sandbox_acquirer_boletos ADD COLUMN psp_reference text, ADD COLUMN merchant_reference text`);
    await q.query(`CREATE UNIQUE INDEX sandbox_acquirer_boletos_psp_uq ON sandbox_acquirer_boletos (psp_reference)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sandbox_acquirer_boletos_psp_uq`);
    await q.query(`ALTER TABLE sandbox_acquirer_boletos DROP COLUMN psp_reference, DROP COLUMN merchant_reference`);
    await q.query(`DELETE FROM adyen_payment_attempts WHERE kind = 'boleto'`);
    await q.query(`ALTER TABLE adyen_payment_attempts DROP CONSTRAINT adyen_payment_attempts_capture_mode_of_kind`);
    await q.query(`ALTER TABLE adyen_payment_attempts ALTER COLUMN capture_mode SET NOT NULL`);
    await q.query(`ALTER TABLE adyen_payment_attempts DROP COLUMN kind`);
  }
}
