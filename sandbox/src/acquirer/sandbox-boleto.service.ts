import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildBoleto } from '../../../kernel/common/formats/boleto';
import { Clock } from '../../../kernel/platform/clock/clock';
import { BoletoDto } from './acquirer-api.dto';
import { SandboxAcquirerConfig } from './sandbox-acquirer.config';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { SandboxNotifier } from './sandbox-notifier';
import { pspReferenceOf } from './adyen/sandbox-adyen-checkout';
import { SandboxAdyenWebhooks } from './adyen/sandbox-adyen-webhooks';
import { newTxid, SandboxPixService } from './sandbox-pix.service';
import { AsText, Row, Tx, transaction } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';

export interface SandboxBoleto {
  boletoId: string;
  transactionId: string;
  merchantId: string;
  amountCents: number;
  dueDate: string;
  digitableLine: string;
  barcode: string;
  pixTxid: string;
  pixBrCode: string;
  status: 'PENDING' | 'PAID' | 'PAID_PIX' | 'EXPIRED' | 'CANCELED';
  paidAt: string | null;
}

const COLUMNS = `id, transaction_id, request_hash, merchant_id, amount_cents, due_date::text, digitable_line, barcode, pix_txid, pix_br_code, status, paid_at,
  psp_reference, merchant_reference`;

/** A boleto issued through the Adyen face: the merchant's `reference`, reported back in its webhooks. */
export interface AdyenFaceIssue {
  merchantReference: string;
}
const AGENCY = '1234';
const WALLET = '09';
const ACCOUNT = '0012345';

/**
 * Boletos of the simulated acquirer: FEBRABAN barcode and 47-digit line (due-date factor after
 * the 2025 rollover), with a Pix QR printed on it. Paid by bank clearing (PAID) or through its
 * QR (PAID_PIX) while the due date has not passed (test clock); EXPIRED the day after. A
 * boleto issued through the Adyen face (it has a pspReference) reports its payment as Adyen's
 * AUTHORISATION webhook and its expiry as OFFER_CLOSED, instead of the `service` notification.
 */
@Injectable()
export class SandboxBoletoService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly config: SandboxAcquirerConfig,
    private readonly notifier: SandboxNotifier,
    private readonly pix: SandboxPixService,
    private readonly adyen: SandboxAdyenWebhooks,
  ) {}

  async create(
    req: BoletoDto,
    face?: AdyenFaceIssue,
  ): Promise<Omit<SandboxBoleto, 'transactionId' | 'merchantId' | 'amountCents' | 'pixTxid' | 'paidAt'>> {
    if (req.dueDate < this.clock.today()) throw SandboxAcquirerErrors.error('boleto_not_payable', 'The due date is in the past');
    const hash = createHash('sha256').update([req.merchantId, req.amountCents, req.dueDate, req.payer.taxId].join('|')).digest('hex');
    const existing = await this.byTransaction(req.transactionId);
    if (!existing) {
      const ourNumber = Number((await sql.rows(this.ds, `SELECT nextval('sandbox_acquirer_boleto_our_number') AS n`))[0].n);
      // Bradesco-style free field: agency (4), wallet (2), our number (11), account (7), 0.
      const freeField = AGENCY + WALLET + String(ourNumber).padStart(11, '0') + ACCOUNT + '0';
      const b = buildBoleto({ bankCode: this.config.boletoBankCode, amountCents: req.amountCents, dueDate: req.dueDate, freeField });
      const pixTxid = newTxid('BOL');
      const now = this.clock.now();
      const id = `bol_${randomBytes(12).toString('hex')}`;
      await sql.rows(
        this.ds,
        `INSERT INTO sandbox_acquirer_boletos (id, transaction_id, request_hash, merchant_id, amount_cents, due_date, payer_name, payer_tax_id,
           our_number, barcode, digitable_line, pix_txid, pix_br_code, status, created_at, updated_at, psp_reference, merchant_reference)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,'PENDING',$14,$14,$15,$16) ON CONFLICT (transaction_id) DO NOTHING`,
        [
          id,
          req.transactionId,
          hash,
          req.merchantId,
          req.amountCents,
          req.dueDate,
          req.payer.name,
          req.payer.taxId,
          ourNumber,
          b.barcode,
          b.line,
          pixTxid,
          this.pix.brCode(pixTxid, req.amountCents),
          now,
          face ? pspReferenceOf(id) : null,
          face?.merchantReference ?? null,
        ],
      );
    }
    const row = (
      await sql.rows<BoletoRow>(this.ds, `SELECT ${COLUMNS} FROM sandbox_acquirer_boletos WHERE transaction_id = $1`, [req.transactionId])
    )[0];
    if (row.request_hash !== hash)
      throw SandboxAcquirerErrors.error('transaction_id_reused', 'This transactionId was used with another request');
    const b = toBoleto(row);
    return {
      boletoId: b.boletoId,
      digitableLine: b.digitableLine,
      barcode: b.barcode,
      dueDate: b.dueDate,
      pixBrCode: b.pixBrCode,
      status: b.status,
    };
  }

  /** By its id, or by the pspReference the Adyen face answered for it. */
  async find(id: string): Promise<SandboxBoleto | null> {
    const rows = await sql.rows<BoletoRow>(this.ds, `SELECT ${COLUMNS} FROM sandbox_acquirer_boletos WHERE id = $1 OR psp_reference = $1`, [
      id,
    ]);
    return rows[0] ? toBoleto(rows[0]) : null;
  }

  async findBy(column: 'pix_txid' | 'digitable_line', value: string): Promise<SandboxBoleto | null> {
    const rows = await sql.rows<BoletoRow>(this.ds, `SELECT ${COLUMNS} FROM sandbox_acquirer_boletos WHERE ${column} = $1`, [value]);
    return rows[0] ? toBoleto(rows[0]) : null;
  }

  /**
   * Paid by bank clearing (PAID) or through the Pix QR printed on it (PAID_PIX). When the QR
   * printed on it is a cobv of the PSP face (BANK_PROVIDER=pix-api), paying by Pix pays that
   * cobv (which marks the boleto); paid by clearing, its cobv is removed by the PSP.
   */
  async pay(idOrPsp: string, via: 'BANK' | 'PIX'): Promise<SandboxBoleto> {
    const id = (await this.find(idOrPsp))?.boletoId ?? idOrPsp;
    if (via === 'PIX') {
      const cobv = (
        await sql.rows(this.ds, `SELECT txid FROM sandbox_acquirer_pix_charges WHERE boleto_id = $1 AND status = 'PENDING' LIMIT 1`, [id])
      )[0];
      if (cobv) {
        await this.pix.pay(cobv.txid);
        return (await this.find(id))!;
      }
    }
    const ids: string[] = [];
    const paid = await transaction(this.ds, async (m) => {
      const rows = await sql.rows<BoletoRow>(m, `SELECT ${COLUMNS} FROM sandbox_acquirer_boletos WHERE id = $1 FOR UPDATE`, [id]);
      if (!rows[0]) throw SandboxAcquirerErrors.error('boleto_not_found', 'No boleto with this id');
      const b = toBoleto(rows[0]);
      if (b.status === 'PENDING' && b.dueDate < this.clock.today()) {
        await this.expireIn(m, [id], ids);
        throw SandboxAcquirerErrors.error('boleto_not_payable', 'This boleto is past its due date');
      }
      if (b.status !== 'PENDING') throw SandboxAcquirerErrors.error('boleto_not_payable', `This boleto is ${b.status} and cannot be paid`);
      const res = await sql.rows<BoletoRow>(
        m,
        `UPDATE sandbox_acquirer_boletos SET status = $2, paid_at = $3, updated_at = $3 WHERE id = $1 AND status = 'PENDING' RETURNING ${COLUMNS}`,
        [id, via === 'PIX' ? 'PAID_PIX' : 'PAID', this.clock.now()],
      );
      const done = toBoleto(res[0]);
      await this.reportIn(m, res[0], ids);
      await sql.rows(
        m,
        `UPDATE sandbox_acquirer_pix_charges SET status = 'REMOVED', removed_by = 'PSP', updated_at = $2 WHERE boleto_id = $1 AND status = 'PENDING'`,
        [id, this.clock.now()],
      );
      return done;
    });
    await this.delivered(ids);
    return paid;
  }

  /**
   * In the transaction that paid the cobv printed on this boleto: the boleto is PAID_PIX too (one
   * bank). Answers the notifications to deliver after commit (none if it was no longer PENDING).
   */
  async paidByItsCobvIn(m: Tx, boletoId: string): Promise<string[]> {
    const res = await sql.rows<BoletoRow>(
      m,
      `UPDATE sandbox_acquirer_boletos SET status = 'PAID_PIX', paid_at = $2, updated_at = $2 WHERE id = $1 AND status = 'PENDING' RETURNING ${COLUMNS}`,
      [boletoId, this.clock.now()],
    );
    const ids: string[] = [];
    if (res.length) await this.reportIn(m, res[0], ids);
    if (res.length && res[0].psp_reference) this.adyen.kick(); // may run before the commit: the face's outbox tick sends it then
    return ids;
  }

  /** PENDING boletos whose due date has passed (test clock, São Paulo day) become EXPIRED. */
  async expireDue(limit = 100): Promise<number> {
    const ids: string[] = [];
    await transaction(this.ds, async (m) => {
      const due = await sql.rows<{ id: string }>(
        m,
        `SELECT id FROM sandbox_acquirer_boletos WHERE status = 'PENDING' AND due_date < $1::date ORDER BY due_date LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
        [this.clock.today()],
      );
      await this.expireIn(
        m,
        due.map((r) => r.id),
        ids,
      );
    });
    await this.delivered(ids);
    return ids.length;
  }

  private async byTransaction(transactionId: string) {
    return (await sql.rows(this.ds, `SELECT id FROM sandbox_acquirer_boletos WHERE transaction_id = $1`, [transactionId]))[0] ?? null;
  }

  private async expireIn(m: Tx, boletoIds: string[], ids: string[]): Promise<void> {
    if (!boletoIds.length) return;
    const res = await sql.rows<BoletoRow>(
      m,
      `UPDATE sandbox_acquirer_boletos SET status = 'EXPIRED', updated_at = $2 WHERE id = ANY($1) AND status = 'PENDING' RETURNING ${COLUMNS}`,
      [boletoIds, this.clock.now()],
    );
    for (const r of res) await this.reportIn(m, r, ids);
  }

  /**
   * The boleto's new status told to the service: Adyen's webhook for a boleto of the Adyen face
   * (AUTHORISATION with success when paid, OFFER_CLOSED when it expired unpaid), otherwise the
   * `service` notification, whose id is added to `ids` for `deliverNow`.
   */
  private async reportIn(m: Tx, r: BoletoRow, ids: string[]): Promise<void> {
    const b = toBoleto(r);
    if (!r.psp_reference) {
      ids.push(await this.notifier.enqueue(m, 'boleto.updated', notice(b)));
      return;
    }
    const eventCode = b.status === 'EXPIRED' ? 'OFFER_CLOSED' : b.status === 'CANCELED' ? 'CANCELLATION' : 'AUTHORISATION';
    await this.adyen.enqueueIn(m, `${r.psp_reference}:${eventCode}`, {
      pspReference: r.psp_reference,
      merchantAccountCode: b.merchantId,
      merchantReference: r.merchant_reference ?? '',
      eventCode,
      eventDate: this.clock.now().toISOString(),
      success: 'true',
      amount: { currency: 'BRL', value: b.amountCents },
      paymentMethod: 'boletobancario',
      additionalData: {},
    });
  }

  /** After commit: the `service` notifications now, the Adyen face's outbox on its next pass. */
  private async delivered(ids: string[]): Promise<void> {
    this.adyen.kick();
    await this.notifier.deliverNow(ids);
  }
}

type BoletoRow = AsText<Row<'sandbox_acquirer_boletos'>, 'due_date'>;

function toBoleto(r: BoletoRow): SandboxBoleto {
  return {
    boletoId: r.id,
    transactionId: r.transaction_id,
    merchantId: r.merchant_id,
    amountCents: Number(r.amount_cents),
    dueDate: r.due_date,
    digitableLine: r.digitable_line,
    barcode: r.barcode,
    pixTxid: r.pix_txid,
    pixBrCode: r.pix_br_code,
    status: r.status as SandboxBoleto['status'],
    paidAt: r.paid_at ? new Date(r.paid_at).toISOString() : null,
  };
}

function notice(b: SandboxBoleto) {
  return {
    transactionId: b.transactionId,
    merchantId: b.merchantId,
    acquirerId: b.boletoId,
    status: b.status,
    amountCents: b.amountCents,
    ...(b.paidAt ? { paidAt: b.paidAt } : {}),
    ...(b.status === 'PAID' ? { paidVia: 'BANK' as const } : b.status === 'PAID_PIX' ? { paidVia: 'PIX' as const } : {}),
  };
}
