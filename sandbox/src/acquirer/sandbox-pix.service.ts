import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildBrCode } from '../../../kernel/common/formats/brcode';
import { randomChars } from '../../../kernel/common/random-ids';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PixChargeDto } from './acquirer-api.dto';
import { SandboxAcquirerConfig } from './sandbox-acquirer.config';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { SandboxNotifier } from './sandbox-notifier';
import { Row, Tx, transaction } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';

export interface SandboxPixCharge {
  txid: string;
  transactionId: string;
  merchantId: string;
  amountCents: number;
  brCode: string;
  status: 'PENDING' | 'AUTHORIZED' | 'SETTLED' | 'EXPIRED' | 'REMOVED';
  expiresAt: string;
  paidAt: string | null;
  settledAt: string | null;
  /** `acquirer`: made through the acquirer API; `psp`: a cob or cobv made through API Pix. */
  face: 'acquirer' | 'psp';
  kind: 'cob' | 'cobv';
  /** The boleto a cobv is printed on. */
  boletoId: string | null;
}

/**
 * The API Pix face of the same charges (the sandbox PSP): what a payment of one of its charges
 * sets off in the paying transaction (the received Pix, its callback, a boleto it is printed
 * on), and the location URLs of its dynamic BR Codes. Attached at start by the PSP module.
 */
export interface PspPixFace {
  /** In the paying transaction; answers what to do once it committed (deliver the callback). */
  onPaid(m: Tx, charge: SandboxPixCharge): Promise<() => Promise<void>>;
  /** The txid a dynamic BR Code's location URL serves, or null. */
  txidAt(url: string): Promise<string | null>;
}

const COLUMNS = `txid, transaction_id, request_hash, merchant_id, amount_cents, br_code, status, expires_at, paid_at, settled_at, face, kind, boleto_id`;

/** 25 letters and digits: the longest txid a static BR Code carries (field 62-05). */
export function newTxid(prefix = ''): string {
  return prefix + randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 25 - prefix.length);
}

/**
 * Pix charges of the simulated acquirer: a single-use BR Code with amount and txid, paid from
 * the sandbox bank app (or `POST /sandbox/pix/{txid}/pay`), AUTHORIZED at once and SETTLED
 * `SANDBOX_PIX_SETTLE_AFTER_SECONDS` later; unpaid at `expiresAt` (test clock) it EXPIRES.
 */
@Injectable()
export class SandboxPixService {
  private psp: PspPixFace | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly config: SandboxAcquirerConfig,
    private readonly notifier: SandboxNotifier,
  ) {}

  attachPspFace(face: PspPixFace): void {
    this.psp = face;
  }

  /** The txid behind a dynamic BR Code's location URL (API Pix charges), or null. */
  txidAt(url: string): Promise<string | null> {
    return this.psp ? this.psp.txidAt(url) : Promise.resolve(null);
  }

  async create(req: PixChargeDto): Promise<{ txid: string; brCode: string; expiresAt: string; status: 'PENDING' }> {
    const hash = createHash('sha256').update([req.merchantId, req.amountCents, req.expiresInSeconds].join('|')).digest('hex');
    const txid = newTxid();
    const now = this.clock.now();
    const brCode = this.brCode(txid, req.amountCents, req.merchantName);
    await sql.rows(
      this.ds,
      `INSERT INTO sandbox_acquirer_pix_charges (txid, transaction_id, request_hash, merchant_id, amount_cents, payer_name, br_code, status, expires_at, created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,'PENDING',$8,$9,$9) ON CONFLICT (transaction_id) DO NOTHING`,
      [
        txid,
        req.transactionId,
        hash,
        req.merchantId,
        req.amountCents,
        req.payerName ?? null,
        brCode,
        new Date(now.getTime() + req.expiresInSeconds * 1000),
        now,
      ],
    );
    const row = (
      await sql.rows(this.ds, `SELECT ${COLUMNS} FROM sandbox_acquirer_pix_charges WHERE transaction_id = $1`, [req.transactionId])
    )[0];
    if (row.request_hash !== hash)
      throw SandboxAcquirerErrors.error('transaction_id_reused', 'This transactionId was used with another request');
    return { txid: row.txid, brCode: row.br_code, expiresAt: new Date(row.expires_at).toISOString(), status: 'PENDING' };
  }

  /** The seller's name when the charge names one (folded to ASCII, 25 characters), else the acquirer's. */
  brCode(txid: string, amountCents: number, merchantName?: string): string {
    return buildBrCode({
      key: this.config.pixKey,
      amountCents,
      merchantName: merchantName?.trim() || this.config.merchantName,
      merchantCity: this.config.merchantCity,
      txid,
      singleUse: true,
    });
  }

  async find(txid: string): Promise<SandboxPixCharge | null> {
    const rows = await sql.rows<ChargeRow>(this.ds, `SELECT ${COLUMNS} FROM sandbox_acquirer_pix_charges WHERE txid = $1`, [txid]);
    return rows[0] ? toCharge(rows[0]) : null;
  }

  /**
   * The payer's bank confirms the payment: PENDING → AUTHORIZED (and SETTLED when the delay is 0).
   * A charge of the PSP face is in the receiver's account at once (SETTLED, the standard's
   * CONCLUIDA) and sets off the PSP's callback instead of the acquirer's notification.
   */
  async pay(txid: string): Promise<SandboxPixCharge> {
    const ids: string[] = [];
    let after: (() => Promise<void>) | null = null;
    const charge = await transaction(this.ds, async (m) => {
      const rows = await sql.rows<ChargeRow>(m, `SELECT ${COLUMNS} FROM sandbox_acquirer_pix_charges WHERE txid = $1 FOR UPDATE`, [txid]);
      if (!rows[0]) throw SandboxAcquirerErrors.error('pix_charge_not_found', 'No Pix charge with this txid');
      const c = toCharge(rows[0]);
      const now = this.clock.now();
      if (c.status === 'PENDING' && new Date(c.expiresAt) <= now) {
        await this.expireIn(m, [txid], ids);
        throw SandboxAcquirerErrors.error('pix_not_payable', 'This Pix QR code has expired');
      }
      if (c.status !== 'PENDING')
        throw SandboxAcquirerErrors.error('pix_not_payable', `This Pix QR code is ${c.status} and cannot be paid again`);
      if (c.face === 'psp' && this.psp) {
        const res = await sql.rows<ChargeRow>(
          m,
          `UPDATE sandbox_acquirer_pix_charges SET status = 'SETTLED', paid_at = $2, settled_at = $2, updated_at = $2
           WHERE txid = $1 AND status = 'PENDING' RETURNING ${COLUMNS}`,
          [txid, now],
        );
        const paid = toCharge(res[0]);
        after = await this.psp.onPaid(m, paid);
        return paid;
      }
      const settleAt = new Date(now.getTime() + this.config.pixSettleAfterSeconds * 1000);
      const res = await sql.rows<ChargeRow>(
        m,
        `UPDATE sandbox_acquirer_pix_charges SET status = 'AUTHORIZED', paid_at = $2, settle_at = $3, updated_at = $2
         WHERE txid = $1 AND status = 'PENDING' RETURNING ${COLUMNS}`,
        [txid, now, settleAt],
      );
      const paid = toCharge(res[0]);
      ids.push(await this.notifier.enqueue(m, 'pix_charge.updated', notice(paid)));
      return paid;
    });
    await this.notifier.deliverNow(ids);
    if (after) await (after as () => Promise<void>)();
    if (this.config.pixSettleAfterSeconds === 0) await this.settleDue();
    return (await this.find(txid)) ?? charge;
  }

  /** AUTHORIZED charges whose settlement time (test clock) has come become SETTLED. */
  async settleDue(limit = 100): Promise<number> {
    const ids: string[] = [];
    await transaction(this.ds, async (m) => {
      const res = await sql.rows<ChargeRow>(
        m,
        `UPDATE sandbox_acquirer_pix_charges SET status = 'SETTLED', settled_at = $1, updated_at = $1
         WHERE txid IN (SELECT txid FROM sandbox_acquirer_pix_charges WHERE status = 'AUTHORIZED' AND settle_at <= $1
                        ORDER BY settle_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS}`,
        [this.clock.now()],
      );
      for (const r of res) ids.push(await this.notifier.enqueue(m, 'pix_charge.updated', notice(toCharge(r))));
    });
    await this.notifier.deliverNow(ids);
    return ids.length;
  }

  /** PENDING charges past `expiresAt` (test clock) become EXPIRED. */
  async expireDue(limit = 100): Promise<number> {
    const ids: string[] = [];
    await transaction(this.ds, async (m) => {
      const due = await sql.rows<{ txid: string }>(
        m,
        `SELECT txid FROM sandbox_acquirer_pix_charges WHERE status = 'PENDING' AND expires_at <= $1 ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
        [this.clock.now()],
      );
      await this.expireIn(
        m,
        due.map((r) => r.txid),
        ids,
      );
    });
    await this.notifier.deliverNow(ids);
    return ids.length;
  }

  private async expireIn(m: Tx, txids: string[], ids: string[]): Promise<void> {
    if (!txids.length) return;
    const res = await sql.rows<ChargeRow>(
      m,
      `UPDATE sandbox_acquirer_pix_charges SET status = 'EXPIRED', updated_at = $2 WHERE txid = ANY($1) AND status = 'PENDING' RETURNING ${COLUMNS}`,
      [txids, this.clock.now()],
    );
    // The PSP face sends no callback for an expiry (API Pix notifies received Pix only).
    for (const r of res) if (r.face === 'acquirer') ids.push(await this.notifier.enqueue(m, 'pix_charge.updated', notice(toCharge(r))));
  }
}

type ChargeRow = Row<'sandbox_acquirer_pix_charges'>;

function toCharge(r: ChargeRow): SandboxPixCharge {
  return {
    txid: r.txid,
    transactionId: r.transaction_id,
    merchantId: r.merchant_id,
    amountCents: Number(r.amount_cents),
    brCode: r.br_code,
    status: r.status as SandboxPixCharge['status'],
    expiresAt: new Date(r.expires_at).toISOString(),
    paidAt: r.paid_at ? new Date(r.paid_at).toISOString() : null,
    settledAt: r.settled_at ? new Date(r.settled_at).toISOString() : null,
    face: r.face as SandboxPixCharge['face'],
    kind: r.kind as SandboxPixCharge['kind'],
    boletoId: r.boleto_id ?? null,
  };
}

function notice(c: SandboxPixCharge) {
  return {
    transactionId: c.transactionId,
    merchantId: c.merchantId,
    acquirerId: c.txid,
    status: c.status,
    amountCents: c.amountCents,
    ...(c.paidAt ? { paidAt: c.paidAt } : {}),
    ...(c.settledAt ? { settledAt: c.settledAt } : {}),
  };
}
