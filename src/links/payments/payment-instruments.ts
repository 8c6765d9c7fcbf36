import { Injectable } from '@nestjs/common';
import { ProviderCallError } from '../../../kernel/platform/http/resilient-http';
import { AcquirerPort } from '../../provider/acquirer.port';
import { CardCharges } from '../../provider/acquirer/card-charges';
import { PixChargeRefused, PixChargesPort } from '../../provider/pix-charges.port';
import { LinksConfig } from '../links.config';
import { LinkErrors } from '../links.errors';
import { PaymentLedger } from './payment-ledger';
import { PaymentItem } from './payment.types';
import { NewPaymentItem } from './payments.repository';

/** A card the checkout checked (Luhn, brand, expiry, CVV); its number goes to the acquirer and is never stored. */
export interface CheckedCard {
  pan: string;
  brand: string;
  expMonth: number;
  expYear: number;
  cvv: string;
  holderName: string;
}

/**
 * The instrument of a priced, held checkout attempt: a card charge (authorized through
 * CardCharges), a Pix charge (PixChargesPort: the acquirer's QR or a cob at the PSP) or a boleto
 * with its Pix QR. Each records the item through the ledger; a provider's refusal is the item's
 * FAILED status or the payer's 4xx/503, as each method answers it.
 */
@Injectable()
export class PaymentInstruments {
  constructor(
    private readonly ledger: PaymentLedger,
    private readonly acquirer: AcquirerPort,
    private readonly charges: CardCharges,
    private readonly pixCharges: PixChargesPort,
    private readonly config: LinksConfig,
  ) {}

  async card(base: NewPaymentItem, c: CheckedCard, merchantId: string): Promise<PaymentItem> {
    const instrument = { brand: c.brand, last4: c.pan.slice(-4) };
    // Kept until the answer is recorded: if this process dies meanwhile, LinksHousekeeping asks the acquirer.
    await this.ledger.savePendingCard({ ...base, instrument }, this.config.cardHoldSeconds);
    const r = await this.charges.authorize({
      transactionId: base.id,
      merchantId,
      amountCents: base.amountCents,
      installments: base.installments,
      capture: 'SALE',
      card: { pan: c.pan, expMonth: c.expMonth, expYear: c.expYear, cvv: c.cvv, holderName: c.holderName },
    });
    if (r.status === 'UNKNOWN')
      // it may be authorized at the acquirer: the pending attempt stays for LinksHousekeeping to settle
      throw LinkErrors.error(
        'provider_unavailable',
        'We could not confirm this card payment yet; do not pay again: it is confirmed or released within minutes',
        {
          headers: { 'Retry-After': String(this.config.cardHoldSeconds) },
        },
      );
    // The issuer's authorization code goes on the payer's receipt beside the last four digits.
    const approved = r.authorizationCode ? { ...instrument, authorizationCode: r.authorizationCode } : instrument;
    return this.ledger.record(
      { ...base, status: r.status, reason: r.reason ?? null, acquirerId: r.acquirerTransactionId || null, instrument: approved },
      null,
    );
  }

  async pix(
    base: NewPaymentItem,
    merchantId: string,
    expiresInSeconds: number,
    holdUntil: Date,
    merchantName: string,
  ): Promise<PaymentItem> {
    let charge;
    try {
      charge = await this.pixCharges.createCharge({
        transactionId: base.id,
        merchantId,
        merchantName,
        amountCents: base.amountCents,
        payerName: base.payer.name,
        ...(base.payer.taxId ? { payerTaxId: base.payer.taxId } : {}),
        expiresInSeconds,
      });
    } catch (e) {
      throw pixFailure(e);
    }
    return this.ledger.record(
      { ...base, acquirerId: charge.txid, instrument: { txid: charge.txid, brCode: charge.brCode, expiresAt: charge.expiresAt } },
      holdUntil,
    );
  }

  /**
   * The acquirer issues the boleto; its Pix QR comes from PixChargesPort (the acquirer's own QR,
   * none when the acquirer prints none (Adyen), or with pix-api a cobv at the PSP with the
   * boleto's due date). The acquirer's download link, when it gives one, is kept for the payer. Issuing refused or down: a
   * FAILED item, as before; the PSP refusing or down for the QR: 400/409 or 503 (the boleto,
   * never shown, expires unpaid).
   */
  async boleto(base: NewPaymentItem, merchantId: string, dueDate: string, holdUntil: Date): Promise<PaymentItem> {
    const payer = { name: base.payer.name, taxId: base.payer.taxId! };
    let b;
    try {
      b = await this.acquirer.createBoleto({ transactionId: base.id, merchantId, amountCents: base.amountCents, dueDate, payer });
    } catch (e) {
      if (!(e instanceof ProviderCallError)) throw e;
      return this.ledger.record(
        { ...base, status: 'FAILED', reason: e.code === 'provider_rejected' ? 'issuing_rejected' : 'acquirer_unavailable' },
        null,
      );
    }
    let pix;
    try {
      pix = await this.pixCharges.boletoPix({
        transactionId: base.id,
        merchantId,
        amountCents: base.amountCents,
        dueDate: b.dueDate,
        payer,
        boleto: b,
      });
    } catch (e) {
      throw pixFailure(e);
    }
    return this.ledger.record(
      {
        ...base,
        acquirerId: b.boletoId,
        instrument: {
          boletoId: b.boletoId,
          digitableLine: b.digitableLine,
          barcode: b.barcode,
          dueDate: b.dueDate,
          ...(pix.brCode ? { pixBrCode: pix.brCode } : {}),
          ...(b.downloadUrl ? { downloadUrl: b.downloadUrl } : {}),
        },
      },
      holdUntil,
    );
  }
}

/** A Pix charge that could not be made, as the payer sees it: 503 to retry, or the PSP's refusal with its violations. */
function pixFailure(e: unknown): unknown {
  if (e instanceof PixChargeRefused) {
    return LinkErrors.error(e.status === 400 ? 'pix_charge_rejected' : 'pix_charge_refused', e.message, {
      details: e.violations.map((v) => ({ field: v.field, message: v.message, code: e.problem })),
    });
  }
  if (e instanceof ProviderCallError)
    return LinkErrors.error('provider_unavailable', 'Pix is unavailable right now; try again shortly or pay another way', {
      headers: { 'Retry-After': '5' },
    });
  return e;
}
