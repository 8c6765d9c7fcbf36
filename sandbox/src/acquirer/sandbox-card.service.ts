import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { cardBrand, isLuhnValid, normalizePan } from '../../../kernel/common/formats/pan';
import { sandboxAuthorization } from '../cards/sandbox-cards';
import { Clock } from '../../../kernel/platform/clock/clock';
import { CaptureDto, CardAuthorizationDto } from './acquirer-api.dto';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import * as sql from '../../../kernel/platform/database/sql';

export interface SandboxCardAnswer {
  acquirerTransactionId: string;
  status: 'ACCEPTED' | 'PREAUTH' | 'AUTH_REJECTED' | 'FAILED';
  reason?: string;
  authorizationCode?: string;
}

interface Row {
  id: string;
  request_hash: string;
  status: string;
  reason: string | null;
  authorization_code: string | null;
  amount_cents: string;
  captured_cents: string | null;
  business_day: string;
  capture_mode: 'SALE' | 'PREAUTH';
}

const COLUMNS = 'id, request_hash, status, reason, authorization_code, amount_cents, captured_cents, business_day::text, capture_mode';

/**
 * Card authorizations of the simulated acquirer. The outcome follows the test card number
 * (`sandboxAuthorization`); numbers failing Luhn or past their expiry are refused as an issuer
 * would. A repeat of the same `transactionId` answers the stored result (never a second
 * authorization); the same id with another body is a 409.
 */
@Injectable()
export class SandboxCardService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * `forced` is an outcome another face of the acquirer chose from its own test data (the Adyen
   * face's holder-name triggers); the card checks (Luhn, expiry) still come first.
   */
  async authorize(
    req: CardAuthorizationDto,
    forced?: { status: SandboxCardAnswer['status']; reason?: string },
  ): Promise<SandboxCardAnswer> {
    let pan: string;
    try {
      pan = normalizePan(req.card.pan);
    } catch {
      throw SandboxAcquirerErrors.error('invalid_card', 'card.pan must be 12 to 19 digits');
    }
    const hash = requestHash(req, pan);
    const existing = await this.find(req.transactionId);
    if (existing) return this.replay(existing, hash);

    const decided = this.decide(pan, req);
    const outcome = forced && decided.status !== 'AUTH_REJECTED' ? forced : decided;
    const now = this.clock.now();
    const id = `ctx_${randomBytes(12).toString('hex')}`;
    const code = outcome.status === 'ACCEPTED' || outcome.status === 'PREAUTH' ? String(randomInt(0, 1_000_000)).padStart(6, '0') : null;
    const rows: Row[] = await sql.rows(
      this.ds,
      `INSERT INTO sandbox_acquirer_card_transactions
         (id, transaction_id, request_hash, merchant_id, amount_cents, installments, capture_mode, status, reason,
          authorization_code, brand, last4, business_day, created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$14)
       ON CONFLICT (transaction_id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        id,
        req.transactionId,
        hash,
        req.merchantId,
        req.amountCents,
        req.installments,
        req.capture,
        outcome.status,
        outcome.reason ?? null,
        code,
        brandOf(pan),
        pan.slice(-4),
        this.clock.today(),
        now,
      ],
    );
    if (rows[0]) return answer(rows[0]);
    // Lost a race with a concurrent retry of the same transaction: answer what it stored.
    return this.replay((await this.find(req.transactionId))!, hash);
  }

  /** The stored answer for our transaction id (the client's reconciliation lookup). */
  async findByTransaction(transactionId: string): Promise<SandboxCardAnswer> {
    const row = await this.find(transactionId);
    if (!row) throw SandboxAcquirerErrors.error('acquirer_transaction_not_found', 'No card transaction with this transactionId');
    return answer(row);
  }

  async capture(id: string, body: CaptureDto): Promise<{ status: 'CAPTURED'; capturedCents: number }> {
    const row = await this.get(id);
    const amount = body.amountCents ?? Number(row.amount_cents);
    if (row.status === 'CAPTURED') return { status: 'CAPTURED', capturedCents: Number(row.captured_cents) };
    if (row.status !== 'PREAUTH')
      throw SandboxAcquirerErrors.error('capture_not_allowed', `A ${row.status} transaction cannot be captured; only PREAUTH can`);
    if (amount > Number(row.amount_cents)) {
      throw SandboxAcquirerErrors.error('capture_amount_invalid', 'The captured amount cannot exceed the authorized amount');
    }
    const res = await sql.rows(
      this.ds,
      `UPDATE sandbox_acquirer_card_transactions SET status = 'CAPTURED', captured_cents = $2, updated_at = $3
       WHERE id = $1 AND status = 'PREAUTH' RETURNING captured_cents`,
      [id, amount, this.clock.now()],
    );
    if (res[0]) return { status: 'CAPTURED', capturedCents: Number(res[0].captured_cents) };
    return this.capture(id, body); // a concurrent capture or void won: answer from the new state
  }

  /** Reversal on the day of the authorization (day 0, São Paulo time); later it is a refund, not a void. */
  async void(id: string): Promise<{ status: 'VOIDED' }> {
    const row = await this.get(id);
    if (row.status === 'VOIDED') return { status: 'VOIDED' };
    if (!['ACCEPTED', 'PREAUTH', 'CAPTURED'].includes(row.status)) {
      throw SandboxAcquirerErrors.error('void_not_allowed', `A ${row.status} transaction cannot be voided`);
    }
    if (row.business_day !== this.clock.today()) {
      throw SandboxAcquirerErrors.error('void_not_allowed', 'A void is only possible on the day of the authorization');
    }
    const res = await sql.rows(
      this.ds,
      `UPDATE sandbox_acquirer_card_transactions SET status = 'VOIDED', updated_at = $2
       WHERE id = $1 AND status IN ('ACCEPTED', 'PREAUTH', 'CAPTURED') RETURNING id`,
      [id, this.clock.now()],
    );
    if (res.length) return { status: 'VOIDED' };
    return this.void(id);
  }

  private decide(pan: string, req: CardAuthorizationDto): { status: SandboxCardAnswer['status']; reason?: string } {
    if (!isLuhnValid(pan)) return { status: 'AUTH_REJECTED', reason: 'invalid_card' };
    const [year, month] = this.clock.today().split('-').map(Number);
    if (req.card.expYear < year || (req.card.expYear === year && req.card.expMonth < month)) {
      return { status: 'AUTH_REJECTED', reason: 'expired_card' };
    }
    const r = sandboxAuthorization(pan, req.capture === 'PREAUTH' ? 'preauth' : 'sale');
    return r.outcome === 'approved' ? { status: r.status } : { status: r.status, reason: r.reason };
  }

  private replay(row: Row, hash: string): SandboxCardAnswer {
    if (row.request_hash !== hash) {
      throw SandboxAcquirerErrors.error('transaction_id_reused', 'This transactionId was used with another request');
    }
    return answer(row);
  }

  private async find(transactionId: string): Promise<Row | null> {
    const rows: Row[] = await sql.rows(this.ds, `SELECT ${COLUMNS} FROM sandbox_acquirer_card_transactions WHERE transaction_id = $1`, [
      transactionId,
    ]);
    return rows[0] ?? null;
  }

  private async get(id: string): Promise<Row> {
    const rows: Row[] = await sql.rows(this.ds, `SELECT ${COLUMNS} FROM sandbox_acquirer_card_transactions WHERE id = $1`, [id]);
    if (!rows[0]) throw SandboxAcquirerErrors.error('acquirer_transaction_not_found', 'No such card transaction');
    return rows[0];
  }
}

function answer(row: Row): SandboxCardAnswer {
  // A captured or voided pre-authorization still answers its authorization result on replay.
  const status = (
    ['CAPTURED', 'VOIDED'].includes(row.status) ? (row.capture_mode === 'PREAUTH' ? 'PREAUTH' : 'ACCEPTED') : row.status
  ) as SandboxCardAnswer['status'];
  return {
    acquirerTransactionId: row.id,
    status,
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.authorization_code ? { authorizationCode: row.authorization_code } : {}),
  };
}

function brandOf(pan: string): string {
  try {
    return cardBrand(pan);
  } catch {
    return 'unknown';
  }
}

/** What makes two requests "the same": never the card number itself, only its last digits. */
function requestHash(req: CardAuthorizationDto, pan: string): string {
  const canonical = [
    req.merchantId,
    req.amountCents,
    req.installments,
    req.capture,
    pan.slice(-4),
    req.card.expMonth,
    req.card.expYear,
  ].join('|');
  return createHash('sha256').update(canonical).digest('hex');
}
