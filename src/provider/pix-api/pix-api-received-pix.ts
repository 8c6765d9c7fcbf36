import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { AcquirerNotification } from '../../../kernel/common/protocols/acquirer-events';
import { AcquirerEvents } from '../acquirer/acquirer-events';
import { PixApiClient, PixApiRejection } from './pix-api-client';
import { decimalStringToCents } from '../../../kernel/common/formats/money';
import * as sql from '../../../kernel/platform/database/sql';
import { PixDevolucaoEvents } from '../pix-devolucoes.port';
import { DevolucaoAnswer, devolucaoOf } from './pix-api-devolucoes';

const LEASE_MS = 60_000;
const BACKOFF_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/** A cob or cobv we asked the PSP for (`pix_api_charges`). */
export interface Charge {
  txid: string;
  kind: 'cob' | 'cobv';
  transactionId: string;
  amountCents: number;
}

/** The columns of `pix_api_charges` a {@link Charge} is read from. */
export const CHARGE_COLUMNS = 'txid, kind, transaction_id, amount_cents';

export function chargeOf(r: Pick<sql.Row<'pix_api_charges'>, 'txid' | 'kind' | 'transaction_id' | 'amount_cents'>): Charge {
  return { txid: r.txid, kind: r.kind as Charge['kind'], transactionId: r.transaction_id, amountCents: Number(r.amount_cents) };
}

interface PixAnswer {
  endToEndId: string;
  txid?: string;
  valor: string;
  horario: string;
  devolucoes?: DevolucaoAnswer[];
}

/**
 * The Pix the PSP says were received, applied once each (BANK_PROVIDER=pix-api). A callback only
 * records its endToEndIds (`pix_api_pix_received`, the first one wins); this worker reads each
 * back (`GET /pix/{e2eid}`), matches its txid to the charge we asked for and its amount, and
 * publishes what the acquirer would have said — `pix_charge.updated` SETTLED for a link's cob
 * (received at the PSP, so in the receiver's account: confirmed and settled at once),
 * `boleto.updated` PAID_PIX for a boleto's cobv — on AcquirerEvents, so links apply it as
 * before. A Pix the PSP does not know, with another txid or another amount is ignored (kept
 * with the reason). PixApiReceivedPixWorker runs it; PixApiChargesPastTime finds the Pix whose
 * callback was lost.
 */
@Injectable()
export class PixApiReceivedPix {
  private readonly logger = new Logger('PixApiReceivedPix');

  constructor(
    private readonly ds: DataSource,
    private readonly client: PixApiClient,
    private readonly events: AcquirerEvents,
    private readonly clock: Clock,
    private readonly devolucoes: PixDevolucaoEvents,
  ) {}

  /**
   * Records the endToEndIds of a callback (one statement). A Pix already read is read again: the
   * PSP calls back again for the same endToEndId when one of its devoluções changes, and the Pix
   * read back then carries them (its charge is applied again too, which changes nothing).
   */
  async record(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await sql.rows(
      this.ds,
      `INSERT INTO pix_api_pix_received AS r (end_to_end_id) SELECT unnest($1::text[])
       ON CONFLICT (end_to_end_id) DO UPDATE SET status = 'PENDING', attempts = 0, next_attempt_at = now() WHERE r.status <> 'PENDING'`,
      [[...new Set(ids)]],
    );
  }

  /**
   * The Pix that paid a cobr (its PAGA attempt's endToEndId): the PSP posts no Pix callback for it
   * (the cobr's callback says it was paid), so it is recorded here once and read back at once
   * (`GET /pix/{e2eid}`: its valor, horario and txid), to be given back by devolução like any Pix
   * received. A read that fails is left PENDING for the worker.
   */
  async recordCobrPayment(e2eid: string): Promise<void> {
    const fresh = await sql.rows(
      this.ds,
      `INSERT INTO pix_api_pix_received (end_to_end_id) VALUES ($1) ON CONFLICT (end_to_end_id) DO NOTHING RETURNING end_to_end_id`,
      [e2eid],
    );
    if (!fresh.length) return;
    await this.apply(e2eid).catch((e: any) =>
      this.logger.warn({ endToEndId: e2eid, error: e?.message }, "a cobr's Pix not read back yet; the worker will"),
    );
  }

  /** Applies the received Pix that are due (leased: replicas share them). */
  async applyDue(limit = 50): Promise<number> {
    const rows = await sql.rows<{ end_to_end_id: string; attempts: number }>(
      this.ds,
      `UPDATE pix_api_pix_received SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $2 / 1000.0)
       WHERE end_to_end_id IN (SELECT end_to_end_id FROM pix_api_pix_received WHERE status = 'PENDING' AND next_attempt_at <= now()
                               ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING end_to_end_id, attempts`,
      [limit, LEASE_MS],
    );
    for (const r of rows) {
      try {
        await this.apply(r.end_to_end_id);
      } catch (e: any) {
        const wait = BACKOFF_MS[Math.min(r.attempts - 1, BACKOFF_MS.length - 1)];
        this.logger.warn(
          { endToEndId: r.end_to_end_id, attempts: r.attempts, error: e?.message },
          'received Pix not applied yet; will retry',
        );
        await sql.rows(
          this.ds,
          `UPDATE pix_api_pix_received SET next_attempt_at = now() + make_interval(secs => $2 / 1000.0), last_error = $3 WHERE end_to_end_id = $1`,
          [r.end_to_end_id, wait, String(e?.message ?? e).slice(0, 500)],
        );
      }
    }
    return rows.length;
  }

  /** Reads one received Pix back and applies it to its charge, or records why not. */
  async apply(e2eid: string): Promise<void> {
    let pix: PixAnswer;
    try {
      pix = await this.client.call<PixAnswer>({
        operation: 'getPix',
        method: 'GET',
        path: `/pix/${encodeURIComponent(e2eid)}`,
        idempotent: true,
      });
    } catch (e) {
      if (e instanceof PixApiRejection && e.problem.status === 404)
        return this.finish(e2eid, 'IGNORED', null, 'the PSP does not know this Pix');
      throw e;
    }
    const charge = pix.txid ? await this.charge(pix.txid) : null;
    const cents = decimalStringToCents(String(pix.valor));
    // the txid too, before the devoluções go out: a Pix Automático payment's billing is found by it (its cobr's txid)
    await sql.rows(
      this.ds,
      `UPDATE pix_api_pix_received SET amount_cents = $2, horario = $3, txid = coalesce($4, txid) WHERE end_to_end_id = $1`,
      [e2eid, cents, pix.horario ? new Date(pix.horario) : null, pix.txid ?? null],
    );
    // devoluções first: a Pix Automático payment's Pix has no charge of ours, and is given back all the same
    await this.devolucoes.dispatch({
      endToEndId: e2eid,
      transactionId: charge?.transactionId ?? null,
      txid: pix.txid ?? null,
      devolucoes: (pix.devolucoes ?? []).map(devolucaoOf),
    });
    if (!charge) return this.finish(e2eid, 'IGNORED', pix.txid ?? null, 'no cob or cobv of ours has this txid (a cobr is its billing)');
    if (cents !== charge.amountCents) {
      this.logger.warn(
        { endToEndId: e2eid, txid: charge.txid, expected: charge.amountCents, received: cents },
        'a Pix with another amount than its charge: not applied',
      );
      return this.finish(e2eid, 'IGNORED', charge.txid, `amount ${cents} differs from the charge's ${charge.amountCents}`);
    }
    const at = pix.horario ?? this.clock.now().toISOString();
    const event: AcquirerNotification =
      charge.kind === 'cob'
        ? {
            eventId: e2eid,
            type: 'pix_charge.updated',
            occurredAt: at,
            data: {
              transactionId: charge.transactionId,
              merchantId: '',
              acquirerId: charge.txid,
              status: 'SETTLED',
              amountCents: cents,
              paidAt: at,
              settledAt: at,
            },
          }
        : {
            eventId: e2eid,
            type: 'boleto.updated',
            occurredAt: at,
            data: {
              transactionId: charge.transactionId,
              merchantId: '',
              acquirerId: charge.txid,
              status: 'PAID_PIX',
              amountCents: cents,
              paidAt: at,
              paidVia: 'PIX',
            },
          };
    const { handledBy } = await this.events.dispatch(event);
    await sql.rows(this.ds, `UPDATE pix_api_charges SET closed_at = coalesce(closed_at, now()) WHERE txid = $1`, [charge.txid]);
    return this.finish(
      e2eid,
      'APPLIED',
      charge.txid,
      handledBy.length ? `applied by ${handledBy.join(', ')}` : 'no consumer knew the transaction',
    );
  }

  private async finish(e2eid: string, status: 'APPLIED' | 'IGNORED', txid: string | null, outcome: string): Promise<void> {
    await sql.rows(
      this.ds,
      `UPDATE pix_api_pix_received SET status = $2, txid = $3, outcome = $4, applied_at = now(), last_error = NULL WHERE end_to_end_id = $1`,
      [e2eid, status, txid, outcome],
    );
  }

  private async charge(txid: string): Promise<Charge | null> {
    const r = await sql.maybeOne<Parameters<typeof chargeOf>[0]>(this.ds, `SELECT ${CHARGE_COLUMNS} FROM pix_api_charges WHERE txid = $1`, [
      txid,
    ]);
    return r && chargeOf(r);
  }
}
