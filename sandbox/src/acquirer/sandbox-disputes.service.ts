import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CardDisputeStage } from '../../../kernel/common/protocols/acquirer-refunds';
import { Clock } from '../../../kernel/platform/clock/clock';
import * as sql from '../../../kernel/platform/database/sql';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { CaseOutbox, SandboxCaseReports } from './sandbox-case-reports';
import { CASE_TX_COLUMNS, CaseTransaction, DisputeRow } from './sandbox-cases.types';
import { refundableCents } from './sandbox-refunds.service';

/**
 * The dispute sequences the sandbox plays, one stage per tick, in the order a scheme plays them
 * (Adyen's dispute event codes; Visa's pre-arbitration follows a reversed chargeback).
 */
export const DISPUTE_SEQUENCES = {
  chargeback_won: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED'],
  chargeback_lost: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED'],
  rfi: ['REQUEST_FOR_INFORMATION'],
  second_chargeback: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK'],
  prearbitration_won: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'PREARBITRATION_WON'],
  prearbitration_lost: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'PREARBITRATION_LOST'],
} as const satisfies Record<string, readonly CardDisputeStage[]>;

export type DisputeSequence = keyof typeof DISPUTE_SEQUENCES;
export const DISPUTE_SEQUENCE_NAMES = Object.keys(DISPUTE_SEQUENCES) as DisputeSequence[];

/** A scheme's fraud reason (card absent) by brand: code and words. */
const REASONS: Record<string, { code: string; text: string }> = {
  VISA: { code: '10.4', text: 'Other Fraud-Card Absent Environment' },
  MASTERCARD: { code: '4837', text: 'No Cardholder Authorization' },
  AMEX: { code: 'F29', text: 'Card Not Present' },
};
const reasonOf = (brand: string) => REASONS[brand.toUpperCase()] ?? REASONS.VISA;

/** Days from the dispute's opening (test clock) to the end of its defence period. */
export const DEFENCE_DAYS = 20;
const DAY_MS = 86_400_000;

export interface OpenedDispute {
  disputeId: string;
  acquirerTransactionId: string;
  face: 'generic' | 'adyen';
  sequence: DisputeSequence;
  stages: CardDisputeStage[];
  amountCents: number;
  reasonCode: string;
  defendBy: string;
}

/** How the route names the disputed payment. */
export interface DisputedPayment {
  kind: 'acquirerTransactionId' | 'pspReference' | 'paymentReference';
  value: string;
}

const WHERE: Record<DisputedPayment['kind'], string> = {
  acquirerTransactionId: 'id = $1',
  pspReference: 'psp_reference = $1',
  // the service's payment id: its transactionId on the service protocol, its `reference` on Adyen
  paymentReference: 'transaction_id = $1 OR merchant_reference = $1',
};

const COLUMNS = 'id, card_transaction_id, face, sequence, amount_cents, reason_code, stage, plan, defend_by, created_at, updated_at';

/**
 * Disputes the sandbox plays on a card payment, on the face it was made on (Adyen's dispute
 * webhooks for a payment made on the Adyen face, `card_dispute.updated` otherwise). The disputed
 * amount is what is still refundable; a chargeback that stands lowers what can be refunded.
 */
@Injectable()
export class SandboxDisputes {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly reports: SandboxCaseReports,
  ) {}

  async open(by: DisputedPayment, sequence: DisputeSequence): Promise<OpenedDispute> {
    const row = await sql.transaction(this.ds, async (db) => {
      const tx = await sql.maybeOne<CaseTransaction>(
        db,
        `SELECT ${CASE_TX_COLUMNS} FROM sandbox_acquirer_card_transactions WHERE ${WHERE[by.kind]}
         ORDER BY status IN ('ACCEPTED', 'CAPTURED') DESC, created_at DESC LIMIT 1 FOR UPDATE`,
        [by.value],
      );
      if (!tx) throw SandboxAcquirerErrors.error('acquirer_transaction_not_found', 'No card transaction with this id or reference');
      const room = await refundableCents(db, tx);
      if (room === null || room <= 0) {
        throw SandboxAcquirerErrors.error('not_disputable', 'Only a captured payment with money not yet refunded can be disputed');
      }
      const now = this.clock.now();
      return (await sql.maybeOne<DisputeRow>(
        db,
        `INSERT INTO sandbox_acquirer_disputes (id, card_transaction_id, face, sequence, amount_cents, reason_code, plan, defend_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING ${COLUMNS}`,
        [
          `dsp_${randomBytes(12).toString('hex')}`,
          tx.id,
          tx.psp_reference ? 'adyen' : 'generic',
          sequence,
          room,
          reasonOf(tx.brand).code,
          DISPUTE_SEQUENCES[sequence],
          new Date(now.getTime() + DEFENCE_DAYS * DAY_MS),
          now,
        ],
      ))!;
    });
    return {
      disputeId: row.id,
      acquirerTransactionId: row.card_transaction_id,
      face: row.face as OpenedDispute['face'],
      sequence,
      stages: [...DISPUTE_SEQUENCES[sequence]],
      amountCents: Number(row.amount_cents),
      reasonCode: row.reason_code,
      defendBy: new Date(row.defend_by).toISOString(),
    };
  }

  /** Plays the next stage of every dispute that has one (one stage per dispute per tick). */
  async stepDue(limit = 500): Promise<number> {
    const out = new CaseOutbox();
    const n = await sql.transaction(this.ds, async (db) => {
      const due = await sql.rows<DisputeRow>(
        db,
        `SELECT ${COLUMNS} FROM sandbox_acquirer_disputes WHERE cardinality(plan) > 0 ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
      );
      for (const d of due) {
        const stage = d.plan[0] as CardDisputeStage;
        const after = (await sql.maybeOne<DisputeRow>(
          db,
          `UPDATE sandbox_acquirer_disputes SET stage = plan[1], plan = plan[2:], updated_at = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
          [d.id, this.clock.now()],
        ))!;
        const tx = (await sql.maybeOne<CaseTransaction>(
          db,
          `SELECT ${CASE_TX_COLUMNS} FROM sandbox_acquirer_card_transactions WHERE id = $1`,
          [d.card_transaction_id],
        ))!;
        const refs = await sql.rows<{ ref: string }>(
          db,
          `SELECT merchant_reference AS ref FROM sandbox_acquirer_refunds
           WHERE card_transaction_id = $1 AND merchant_reference IS NOT NULL ORDER BY created_at`,
          [tx.id],
        );
        await this.reports.dispute(
          db,
          { dispute: after, tx, stage, reasonText: reasonOf(tx.brand).text, refundReferences: refs.map((r) => r.ref) },
          out,
        );
      }
      return due.length;
    });
    await this.reports.flush(out);
    return n;
  }
}
