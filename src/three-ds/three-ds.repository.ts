import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ThreeDsAuthenticationFacts, ThreeDsResults } from '../../kernel/common/contracts/three-ds-results.port';
import { ThreeDsServerResult } from '../provider/three-ds-server.port';
import { ThreeDsStatus } from './three-ds.state-machine';
import { Row, Tx } from '../../kernel/platform/database/sql';
import * as sql from '../../kernel/platform/database/sql';

export interface ThreeDsRecord {
  id: string;
  tenantId: string;
  documentId: string;
  amountCents: number;
  currency: 'BRL';
  status: ThreeDsStatus;
  referenceId: string | null;
  cardFingerprint: string | null;
  brand: string | null;
  last4: string | null;
  requestId: string | null;
  transStatus: 'Y' | 'N' | 'U' | 'C' | null;
  eci: string | null;
  cavv: string | null;
  dsTransactionId: string | null;
  acsTransactionId: string | null;
  challengeUrl: string | null;
  returnUrl: string | null;
  paymentId: string | null;
  expiresAt: Date;
}

export interface NewThreeDs {
  id: string;
  tenantId: string;
  tokenHash: Buffer;
  documentId: string;
  amountCents: number;
  now: Date;
  expiresAt: Date;
}

type AuthenticationRow = Row<'three_ds_authentications'>;

function toRecord(r: AuthenticationRow): ThreeDsRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    documentId: r.document_id,
    amountCents: Number(r.amount_cents),
    currency: 'BRL',
    status: r.status as ThreeDsStatus,
    referenceId: r.reference_id,
    cardFingerprint: r.card_fingerprint,
    brand: r.brand,
    last4: r.last4,
    requestId: r.request_id,
    transStatus: r.trans_status as ThreeDsRecord['transStatus'],
    eci: r.eci,
    cavv: r.cavv,
    dsTransactionId: r.ds_transaction_id,
    acsTransactionId: r.acs_transaction_id,
    challengeUrl: r.challenge_url,
    returnUrl: r.return_url,
    paymentId: r.payment_id,
    expiresAt: r.expires_at,
  };
}

/** Port: 3DS authentications. Transitions are conditional UPDATEs over the allowed sources. */
export abstract class ThreeDsRepository {
  abstract insert(a: NewThreeDs): Promise<void>;
  /** The tenant's authentication for a live (unexpired) token. */
  abstract findByToken(tenantId: string, tokenHash: Buffer, now: Date): Promise<ThreeDsRecord | null>;
  abstract findByReference(referenceId: string): Promise<ThreeDsRecord | null>;
  abstract recordSetup(
    id: string,
    from: ThreeDsStatus[],
    s: { referenceId: string; cardFingerprint: string; brand: string; last4: string },
    now: Date,
  ): Promise<boolean>;
  abstract recordAuthentication(
    id: string,
    from: ThreeDsStatus[],
    to: ThreeDsStatus,
    a: { requestId: string; returnUrl: string; result: ThreeDsServerResult },
    now: Date,
  ): Promise<ThreeDsRecord | null>;
  abstract recordChallengeResult(
    id: string,
    from: ThreeDsStatus[],
    to: ThreeDsStatus,
    result: ThreeDsServerResult,
    now: Date,
  ): Promise<ThreeDsRecord | null>;
}

@Injectable()
export class SqlThreeDsRepository extends ThreeDsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async insert(a: NewThreeDs): Promise<void> {
    await sql.rows<AuthenticationRow>(
      this.ds,
      `INSERT INTO three_ds_authentications (id, tenant_id, token_hash, document_id, amount_cents, status, created_at, updated_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'INITIALIZED', $6, $6, $7)`,
      [a.id, a.tenantId, a.tokenHash, a.documentId, a.amountCents, a.now, a.expiresAt],
    );
  }

  async findByToken(tenantId: string, tokenHash: Buffer, now: Date): Promise<ThreeDsRecord | null> {
    const r = await sql.rows<AuthenticationRow>(
      this.ds,
      `SELECT * FROM three_ds_authentications WHERE token_hash = $1 AND tenant_id = $2 AND expires_at > $3`,
      [tokenHash, tenantId, now],
    );
    return r[0] ? toRecord(r[0]) : null;
  }

  async findByReference(referenceId: string): Promise<ThreeDsRecord | null> {
    const r = await sql.rows<AuthenticationRow>(this.ds, `SELECT * FROM three_ds_authentications WHERE reference_id = $1`, [referenceId]);
    return r[0] ? toRecord(r[0]) : null;
  }

  async recordSetup(
    id: string,
    from: ThreeDsStatus[],
    s: { referenceId: string; cardFingerprint: string; brand: string; last4: string },
    now: Date,
  ): Promise<boolean> {
    const r = await sql.rows<AuthenticationRow>(
      this.ds,
      `UPDATE three_ds_authentications SET status = 'SETUP_COMPLETE', reference_id = $3, card_fingerprint = $4, brand = $5, last4 = $6, updated_at = $7
        WHERE id = $1 AND status = ANY($2) RETURNING id`,
      [id, from, s.referenceId, s.cardFingerprint, s.brand, s.last4, now],
    );
    return r.length === 1;
  }

  async recordAuthentication(
    id: string,
    from: ThreeDsStatus[],
    to: ThreeDsStatus,
    a: { requestId: string; returnUrl: string; result: ThreeDsServerResult },
    now: Date,
  ): Promise<ThreeDsRecord | null> {
    const r = await sql.rows<AuthenticationRow>(
      this.ds,
      `UPDATE three_ds_authentications
          SET status = $3, request_id = $4, return_url = $5, trans_status = $6, eci = $7, cavv = $8, ds_transaction_id = $9,
              acs_transaction_id = $10, challenge_url = $11, updated_at = $12
        WHERE id = $1 AND status = ANY($2) AND request_id IS NULL
        RETURNING *`,
      [
        id,
        from,
        to,
        a.requestId,
        a.returnUrl,
        a.result.transStatus,
        a.result.eci ?? null,
        a.result.cavv ?? null,
        a.result.dsTransactionId,
        a.result.acsTransactionId ?? null,
        a.result.challengeUrl ?? null,
        now,
      ],
    );
    return r[0] ? toRecord(r[0]) : null;
  }

  async recordChallengeResult(
    id: string,
    from: ThreeDsStatus[],
    to: ThreeDsStatus,
    result: ThreeDsServerResult,
    now: Date,
  ): Promise<ThreeDsRecord | null> {
    const r = await sql.rows<AuthenticationRow>(
      this.ds,
      `UPDATE three_ds_authentications SET status = $3, trans_status = $4, eci = $5, cavv = $6, updated_at = $7
        WHERE id = $1 AND status = ANY($2) RETURNING *`,
      [id, from, to, result.transStatus, result.eci ?? null, result.cavv ?? null, now],
    );
    return r[0] ? toRecord(r[0]) : null;
  }
}

/** The three-ds module's binding of the cards' ThreeDsResults port. */
@Injectable()
export class SqlThreeDsResults extends ThreeDsResults {
  async lockByDsTransactionId(m: Tx, tenantId: string, dsTransactionId: string): Promise<ThreeDsAuthenticationFacts | null> {
    const r = await sql.rows<AuthenticationRow>(
      m,
      `SELECT id, status, trans_status, eci, cavv, ds_transaction_id, acs_transaction_id, amount_cents, card_fingerprint, payment_id
         FROM three_ds_authentications WHERE ds_transaction_id = $1 AND tenant_id = $2 FOR UPDATE`,
      [dsTransactionId, tenantId],
    );
    if (!r[0]) return null;
    const a = r[0];
    return {
      id: a.id,
      status: a.status,
      transStatus: a.trans_status as ThreeDsAuthenticationFacts['transStatus'],
      eci: a.eci,
      cavv: a.cavv,
      dsTransactionId, // the row was found by it
      amountCents: Number(a.amount_cents),
      cardFingerprint: a.card_fingerprint,
      challenged: a.acs_transaction_id !== null,
      paymentId: a.payment_id,
    };
  }

  async markUsed(m: Tx, authenticationId: string, paymentId: string): Promise<boolean> {
    const r = await sql.rows<AuthenticationRow>(
      m,
      `UPDATE three_ds_authentications SET payment_id = $2 WHERE id = $1 AND payment_id IS NULL RETURNING id`,
      [authenticationId, paymentId],
    );
    return r.length === 1;
  }
}
