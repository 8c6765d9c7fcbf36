import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import * as sql from '../../../kernel/platform/database/sql';
import type { Row } from '../../../kernel/platform/database/sql';

export type SandboxStatus = 'SETUP' | 'FRICTIONLESS' | 'CHALLENGE_PENDING' | 'CHALLENGE_COMPLETE';

export interface SandboxTransaction {
  referenceId: string;
  merchantDocument: string;
  status: SandboxStatus;
  outcome: string | null;
  brand: string | null;
  /** The card's last four digits, shown on the challenge page (no more of the number is kept). */
  last4: string | null;
  amountCents: number | null;
  acsTransactionId: string | null;
  dsTransactionId: string | null;
  transStatus: 'Y' | 'N' | 'U' | 'C' | null;
  eci: string | null;
  cavv: string | null;
  eciAfterY: string | null;
  eciAfterN: string | null;
  notificationUrl: string | null;
  otpAttempts: number;
}

type TransactionRow = Row<'sandbox_three_ds_transactions'>;

function toTx(r: TransactionRow): SandboxTransaction {
  return {
    referenceId: r.reference_id,
    merchantDocument: r.merchant_document,
    status: r.status as SandboxStatus,
    outcome: r.outcome,
    brand: r.brand,
    last4: r.last4,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    acsTransactionId: r.acs_transaction_id,
    dsTransactionId: r.ds_transaction_id,
    transStatus: r.trans_status as SandboxTransaction['transStatus'],
    eci: r.eci,
    cavv: r.cavv,
    eciAfterY: r.eci_after_challenge_y,
    eciAfterN: r.eci_after_challenge_n,
    notificationUrl: r.notification_url,
    otpAttempts: r.otp_attempts,
  };
}

/** The sandbox 3DS server's store (its own table; no card number). */
@Injectable()
export class SandboxThreeDsRepository {
  constructor(private readonly ds: DataSource) {}

  async create(referenceId: string, merchantDocument: string, brand: string, last4: string, now: Date): Promise<void> {
    await sql.rows<TransactionRow>(
      this.ds,
      `INSERT INTO sandbox_three_ds_transactions (reference_id, merchant_document, status, brand, last4, created_at, updated_at)
       VALUES ($1, $2, 'SETUP', $3, $4, $5, $5)`,
      [referenceId, merchantDocument, brand, last4, now],
    );
  }

  async find(referenceId: string): Promise<SandboxTransaction | null> {
    const r = await sql.rows<TransactionRow>(this.ds, `SELECT * FROM sandbox_three_ds_transactions WHERE reference_id = $1`, [referenceId]);
    return r[0] ? toTx(r[0]) : null;
  }

  async findByAcs(acsTransactionId: string): Promise<SandboxTransaction | null> {
    const r = await sql.rows<TransactionRow>(this.ds, `SELECT * FROM sandbox_three_ds_transactions WHERE acs_transaction_id = $1`, [
      acsTransactionId,
    ]);
    return r[0] ? toTx(r[0]) : null;
  }

  async saveDeviceData(referenceId: string, data: Record<string, unknown>, now: Date): Promise<boolean> {
    const r = await sql.rows<TransactionRow>(
      this.ds,
      `UPDATE sandbox_three_ds_transactions SET device_data = $2, updated_at = $3 WHERE reference_id = $1 AND status = 'SETUP' RETURNING reference_id`,
      [referenceId, JSON.stringify(data), now],
    );
    return r.length === 1;
  }

  /** SETUP → FRICTIONLESS or CHALLENGE_PENDING, once. */
  async authenticate(
    referenceId: string,
    a: Pick<
      SandboxTransaction,
      | 'status'
      | 'outcome'
      | 'amountCents'
      | 'acsTransactionId'
      | 'dsTransactionId'
      | 'transStatus'
      | 'eci'
      | 'cavv'
      | 'eciAfterY'
      | 'eciAfterN'
      | 'notificationUrl'
    >,
    now: Date,
  ): Promise<SandboxTransaction | null> {
    const r = await sql.rows<TransactionRow>(
      this.ds,
      `UPDATE sandbox_three_ds_transactions
          SET status = $2, outcome = $3, amount_cents = $4, acs_transaction_id = $5, ds_transaction_id = $6, trans_status = $7,
              eci = $8, cavv = $9, eci_after_challenge_y = $10, eci_after_challenge_n = $11, notification_url = $12, updated_at = $13
        WHERE reference_id = $1 AND status = 'SETUP' RETURNING *`,
      [
        referenceId,
        a.status,
        a.outcome,
        a.amountCents,
        a.acsTransactionId,
        a.dsTransactionId,
        a.transStatus,
        a.eci,
        a.cavv,
        a.eciAfterY,
        a.eciAfterN,
        a.notificationUrl,
        now,
      ],
    );
    return r[0] ? toTx(r[0]) : null;
  }

  async wrongOtp(acsTransactionId: string, now: Date): Promise<SandboxTransaction | null> {
    const r = await sql.rows<TransactionRow>(
      this.ds,
      `UPDATE sandbox_three_ds_transactions SET otp_attempts = otp_attempts + 1, updated_at = $2
        WHERE acs_transaction_id = $1 AND status = 'CHALLENGE_PENDING' AND otp_attempts < 3 RETURNING *`,
      [acsTransactionId, now],
    );
    return r[0] ? toTx(r[0]) : null;
  }

  /** CHALLENGE_PENDING → CHALLENGE_COMPLETE, once. */
  async completeChallenge(
    acsTransactionId: string,
    transStatus: 'Y' | 'N',
    eci: string,
    cavv: string | null,
    now: Date,
  ): Promise<SandboxTransaction | null> {
    const r = await sql.rows<TransactionRow>(
      this.ds,
      `UPDATE sandbox_three_ds_transactions SET status = 'CHALLENGE_COMPLETE', trans_status = $2, eci = $3, cavv = $4, updated_at = $5
        WHERE acs_transaction_id = $1 AND status = 'CHALLENGE_PENDING' RETURNING *`,
      [acsTransactionId, transStatus, eci, cavv, now],
    );
    return r[0] ? toTx(r[0]) : null;
  }
}
