import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import * as sql from '../../../kernel/platform/database/sql';
import { AcquirerEvents } from '../acquirer/acquirer-events';
import { PixApiClient, PixApiRejection } from './pix-api-client';
import { Charge, CHARGE_COLUMNS, chargeOf, PixApiReceivedPix } from './pix-api-received-pix';

/**
 * Open charges past their time (a cob past `calendario.expiracao`, a cobv past its due date) are
 * read back (`GET /cob`, `GET /cobv`): a Pix found there is applied (its callback was lost), an
 * unpaid cob is EXPIRED, and either way the charge is closed.
 */
@Injectable()
export class PixApiChargesPastTime {
  private readonly logger = new Logger('PixApiReceivedPix');

  constructor(
    private readonly ds: DataSource,
    private readonly client: PixApiClient,
    private readonly events: AcquirerEvents,
    private readonly clock: Clock,
    private readonly received: PixApiReceivedPix,
  ) {}

  /** One batch; how many charges were checked. */
  async check(limit = 100): Promise<number> {
    const rows = await sql.rows<Parameters<typeof chargeOf>[0]>(
      this.ds,
      `SELECT ${CHARGE_COLUMNS} FROM pix_api_charges
       WHERE closed_at IS NULL AND ((kind = 'cob' AND expires_at <= $1) OR (kind = 'cobv' AND due_date < $2::date))
       ORDER BY created_at LIMIT ${limit}`,
      [this.clock.now(), this.clock.today()],
    );
    let done = 0;
    for (const c of rows.map(chargeOf)) {
      try {
        await this.settle(c);
        done++;
      } catch (e: any) {
        this.logger.warn({ txid: c.txid, error: e?.message }, 'charge past its time not checked; will retry');
      }
    }
    return done;
  }

  private async settle(c: Charge): Promise<void> {
    let pix: { endToEndId: string }[] = [];
    try {
      const answer = await this.client.call<{ pix?: { endToEndId: string }[] }>({
        operation: c.kind === 'cob' ? 'getCob' : 'getCobv',
        method: 'GET',
        path: `/${c.kind}/${encodeURIComponent(c.txid)}`,
        idempotent: true,
      });
      pix = answer.pix ?? [];
    } catch (e) {
      if (!(e instanceof PixApiRejection && e.problem.status === 404)) throw e;
    }
    if (pix.length) {
      await this.received.record(pix.map((p) => p.endToEndId));
      for (const p of pix) await this.received.apply(p.endToEndId).catch(() => undefined); // left PENDING for the worker if it fails
    } else if (c.kind === 'cob') {
      const at = this.clock.now().toISOString();
      await this.events.dispatch({
        eventId: `expired:${c.txid}`,
        type: 'pix_charge.updated',
        occurredAt: at,
        data: { transactionId: c.transactionId, merchantId: '', acquirerId: c.txid, status: 'EXPIRED', amountCents: c.amountCents },
      });
    }
    // A cobv unpaid past its due date ends with its boleto (the acquirer's expiry).
    await sql.rows(this.ds, `UPDATE pix_api_charges SET closed_at = coalesce(closed_at, now()) WHERE txid = $1`, [c.txid]);
  }
}
