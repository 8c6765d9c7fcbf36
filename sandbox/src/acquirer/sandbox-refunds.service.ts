import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CardRefundAnswer, CardRefundStatus } from '../../../kernel/common/protocols/acquirer-refunds';
import { Clock } from '../../../kernel/platform/clock/clock';
import * as sql from '../../../kernel/platform/database/sql';
import { refundStepStatus, sandboxRefundSteps, SandboxRefundStep } from '../cards/sandbox-refunds';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { CaseOutbox, SandboxCaseReports } from './sandbox-case-reports';
import { CASE_TX_COLUMNS, CaseTransaction, RefundRow } from './sandbox-cases.types';

/** Dispute stages after which the chargeback's money has left the merchant (it is no longer refundable). */
export const DEBITED_STAGES = ['CHARGEBACK', 'SECOND_CHARGEBACK', 'PREARBITRATION_LOST', 'DISPUTE_DEFENSE_PERIOD_ENDED'];

/**
 * What can still be refunded of a card transaction: what was captured (a sale's whole amount), less
 * its refunds that may still take money (pending or succeeded; failed and reversed ones gave it
 * back) and its chargebacks that stand. `null`: the transaction is not refundable at all (not
 * captured, voided, refused). Read under the transaction's row lock.
 */
export async function refundableCents(db: sql.Db, tx: CaseTransaction): Promise<number | null> {
  if (tx.status !== 'ACCEPTED' && tx.status !== 'CAPTURED') return null;
  const captured = Number(tx.status === 'CAPTURED' ? tx.captured_cents : tx.amount_cents);
  const [r] = await sql.rows<{ refunded: string; disputed: string }>(
    db,
    `SELECT (SELECT COALESCE(sum(amount_cents), 0) FROM sandbox_acquirer_refunds
              WHERE card_transaction_id = $1 AND kind <> 'REVERSAL_CANCEL' AND status IN ('PENDING', 'SUCCEEDED'))::text AS refunded,
            (SELECT COALESCE(sum(amount_cents), 0) FROM sandbox_acquirer_disputes
              WHERE card_transaction_id = $1 AND stage = ANY($2))::text AS disputed`,
    [tx.id, DEBITED_STAGES],
  );
  return captured - Number(r.refunded) - Number(r.disputed);
}

export interface RefundAsk {
  face: 'generic' | 'adyen';
  /** A refund of `amountCents`, or Adyen's reversal (refund what remains, or cancel an uncaptured authorisation). */
  kind: 'REFUND' | 'REVERSAL';
  cardTransactionId: string;
  /** The idempotency key: our refund id (`generic`), Adyen's `Idempotency-Key` (or a fresh one). */
  key: string;
  /** What makes two asks with one key the same request (Adyen's face checks it; '' for none). */
  hash: string;
  amountCents?: number;
  merchantReference?: string;
  /** Adyen's pspReference of the refund, from its id. */
  pspReferenceOf?: (id: string) => string;
}

export type RefundTaken =
  { refund: RefundRow; replay: boolean } | { refused: 'card_transaction_not_found' | 'not_refundable' | 'refund_exceeds_captured' };

const COLUMNS = `id, card_transaction_id, face, kind, request_key, request_hash, psp_reference, merchant_reference, amount_cents, status,
  reason, plan, steps_played, created_at, updated_at`;

/**
 * Refunds at the sandbox acquirer, for both faces. A refund is taken at once (the sum checked
 * under the card transaction's row lock, so racing refunds never pass what was captured) and
 * plays its outcome one step per tick (`stepDue`), as the amount's test digits say
 * (docs/guide/cards.md). The `generic` face refuses what it cannot take (404, 409, 422); the
 * Adyen face records it as failed and reports it by webhook, as Adyen answers `received` first.
 */
@Injectable()
export class SandboxRefunds {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly reports: SandboxCaseReports,
  ) {}

  /** `POST /v1/card-authorizations/{id}/refunds` of the `generic` protocol. */
  async refundOnService(cardTransactionId: string, refundId: string, amountCents: number): Promise<CardRefundAnswer> {
    const taken = await this.take({ face: 'generic', kind: 'REFUND', cardTransactionId, key: refundId, hash: '', amountCents });
    if ('refused' in taken) {
      const message = {
        card_transaction_not_found: 'No card transaction with this id',
        not_refundable: 'Only a captured (or sold) card transaction can be refunded',
        refund_exceeds_captured: 'The refunds would pass what was captured',
      }[taken.refused];
      throw SandboxAcquirerErrors.error(taken.refused, message);
    }
    const r = taken.refund;
    return {
      refundId: r.request_key,
      acquirerRefundId: r.id,
      status: r.status as CardRefundStatus,
      ...(r.reason ? { reason: r.reason } : {}),
    };
  }

  async take(ask: RefundAsk): Promise<RefundTaken> {
    const known = await this.byKey(this.ds, ask.face, ask.key);
    if (known) return { refund: known, replay: true };
    const taken = await sql.transaction(this.ds, async (db): Promise<RefundTaken> => {
      const tx = await sql.maybeOne<CaseTransaction>(
        db,
        `SELECT ${CASE_TX_COLUMNS} FROM sandbox_acquirer_card_transactions WHERE id = $1 FOR UPDATE`,
        [ask.cardTransactionId],
      );
      if (!tx) return { refused: 'card_transaction_not_found' };
      const raced = await this.byKey(db, ask.face, ask.key);
      if (raced) return { refund: raced, replay: true };
      const decided = ask.kind === 'REVERSAL' ? await this.reversal(db, tx) : await this.refund(db, tx, ask);
      if ('refused' in decided) return decided;
      const id = `rfd_${randomBytes(12).toString('hex')}`;
      const now = this.clock.now();
      const row = await sql.maybeOne<RefundRow>(
        db,
        `INSERT INTO sandbox_acquirer_refunds (id, card_transaction_id, face, kind, request_key, request_hash, psp_reference,
           merchant_reference, amount_cents, status, reason, plan, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
         ON CONFLICT ON CONSTRAINT sandbox_acquirer_refunds_key_uq DO NOTHING
         RETURNING ${COLUMNS}`,
        [
          id,
          tx.id,
          ask.face,
          decided.kind,
          ask.key,
          ask.hash,
          ask.pspReferenceOf?.(id) ?? null,
          ask.merchantReference ?? null,
          decided.amountCents,
          decided.status,
          decided.reason ?? null,
          decided.plan,
          now,
        ],
      );
      // the same key, asked at once for another transaction, won: answer it
      return row ? { refund: row, replay: false } : { refund: (await this.byKey(db, ask.face, ask.key))!, replay: true };
    });
    return taken;
  }

  /** Plays the next step of every refund that has one (one step per refund per tick). */
  async stepDue(limit = 500): Promise<number> {
    const out = new CaseOutbox();
    const n = await sql.transaction(this.ds, async (db) => {
      const due = await sql.rows<RefundRow>(
        db,
        `SELECT ${COLUMNS} FROM sandbox_acquirer_refunds WHERE cardinality(plan) > 0
         ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
      );
      for (const r of due) {
        const { status, reason } = refundStepStatus(r.plan[0]);
        const after = await sql.maybeOne<RefundRow>(
          db,
          `UPDATE sandbox_acquirer_refunds SET status = $2, reason = COALESCE($3, reason), plan = plan[2:], steps_played = steps_played + 1,
             updated_at = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
          [r.id, status, reason ?? null, this.clock.now()],
        );
        const tx = (await sql.maybeOne<CaseTransaction>(
          db,
          `SELECT ${CASE_TX_COLUMNS} FROM sandbox_acquirer_card_transactions WHERE id = $1`,
          [r.card_transaction_id],
        ))!;
        await this.reports.refund(db, { refund: after!, tx, first: r.steps_played === 0, status, reason }, out);
      }
      return due.length;
    });
    await this.reports.flush(out);
    return n;
  }

  private async refund(
    db: sql.Tx,
    tx: CaseTransaction,
    ask: RefundAsk,
  ): Promise<Decided | { refused: 'not_refundable' | 'refund_exceeds_captured' }> {
    const amountCents = ask.amountCents!;
    const room = await refundableCents(db, tx);
    if (room !== null && amountCents <= room)
      return { kind: 'REFUND', amountCents, status: 'PENDING', plan: sandboxRefundSteps(amountCents) };
    const refused = room === null ? 'not_refundable' : 'refund_exceeds_captured';
    if (ask.face === 'generic') return { refused };
    // Adyen answers `received` and reports the refusal by a REFUND webhook with success "false"
    return failed('REFUND', amountCents);
  }

  /** Adyen's reversal: an uncaptured authorisation is cancelled, a captured one refunded in what remains. */
  private async reversal(db: sql.Tx, tx: CaseTransaction): Promise<Decided> {
    if (tx.status === 'PREAUTH') {
      await sql.exec(db, `UPDATE sandbox_acquirer_card_transactions SET status = 'VOIDED', updated_at = $2 WHERE id = $1`, [
        tx.id,
        this.clock.now(),
      ]);
      return { kind: 'REVERSAL_CANCEL', amountCents: Number(tx.amount_cents), status: 'PENDING', plan: ['SUCCEEDED'] };
    }
    const room = await refundableCents(db, tx);
    if (room === null || room <= 0) return failed('REVERSAL_REFUND', Number(tx.amount_cents));
    return { kind: 'REVERSAL_REFUND', amountCents: room, status: 'PENDING', plan: ['SUCCEEDED'] };
  }

  private byKey(db: sql.Db, face: string, key: string): Promise<RefundRow | null> {
    return sql.maybeOne<RefundRow>(db, `SELECT ${COLUMNS} FROM sandbox_acquirer_refunds WHERE face = $1 AND request_key = $2`, [face, key]);
  }
}

interface Decided {
  kind: 'REFUND' | 'REVERSAL_REFUND' | 'REVERSAL_CANCEL';
  amountCents: number;
  status: 'PENDING' | 'FAILED';
  reason?: string;
  plan: readonly SandboxRefundStep[];
}

/** Refused at once (it never counts against what can be refunded), reported failed on the next tick. */
function failed(kind: Decided['kind'], amountCents: number): Decided {
  return { kind, amountCents, status: 'FAILED', reason: 'refund_exceeds_captured', plan: ['FAILED:refund_exceeds_captured'] };
}
