import { Injectable } from '@nestjs/common';
import { acceptsPayments } from '../domain/link.state-machine';
import { brCodeQrPngDataUrl } from '../../../kernel/common/formats/brcode';
import { formatLine, itfBarcodeSvg } from '../../../kernel/common/formats/boleto';
import { toCents } from '../../../kernel/common/formats/money';
import { FeeSimulation } from '../domain/fees';
import { isPaid } from '../domain/payment-item.state-machine';
import { CheckoutPaymentDto } from '../dto/checkout.dto';
import { optionToApi, quoteAll } from '../fees/fee-quotes';
import { LinksConfig } from '../links.config';
import { LinkErrors, refusingFees } from '../links.errors';
import { LinkLifecycle } from '../links/link-lifecycle';
import { Link } from '../links/link.types';
import { LinksRepository } from '../links/links.repository';
import { MerchantsService } from '../merchants/merchants.service';
import { PaymentLedger } from '../payments/payment-ledger';
import { PaymentItem } from '../payments/payment.types';
import { StartPayment } from '../payments/start-payment';

export interface CheckoutModel {
  link: Link;
  merchantName: string;
  /** The seller's CNPJ or CPF (digits), shown beside its name. */
  merchantTaxId: string | null;
  options: FeeSimulation[];
  sandbox: boolean;
  /** The service's clock (the test clock in sandbox mode), in ms: the page's countdowns count from it. */
  now: number;
}

const PENDING = new Set(['PENDING', 'PREAUTH']);

/** What the hosted checkout page shows and does, by the link's public slug. */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly links: LinksRepository,
    private readonly lifecycle: LinkLifecycle,
    private readonly merchants: MerchantsService,
    private readonly start: StartPayment,
    private readonly ledger: PaymentLedger,
    private readonly config: LinksConfig,
  ) {}

  /** The sandbox's origin for the payer's "pay in the bank app" helpers; none outside sandbox mode. */
  private get bankApp(): string | undefined {
    return this.config.sandbox ? this.config.sandboxPublicUrl : undefined;
  }

  /** A page load: counts one view, then answers what to render (null: no such link). */
  async open(slug: string): Promise<CheckoutModel | null> {
    if (!/^[A-Za-z0-9]{6,32}$/.test(slug)) return null;
    const counted = await this.links.countView(slug);
    if (!counted) return null;
    const link = await this.lifecycle.fresh(counted);
    const owner = await this.merchants.get(link.tenantId, link.ownerMerchantId);
    const options = acceptsPayments(link.status) && link.amountCents !== null ? this.options(link, link.amountCents, owner) : [];
    return {
      link,
      merchantName: owner.name,
      merchantTaxId: owner.taxId,
      options,
      sandbox: this.config.sandbox,
      now: this.lifecycle.now().getTime(),
    };
  }

  /** Installment figures for an amount the payer typed (open-amount links). */
  async quote(slug: string, amount: number) {
    const link = await this.mustFind(slug);
    if (link.amountCents !== null) throw LinkErrors.error('invalid_amount', 'This link has a fixed amount');
    const c = toCents(amount);
    if ((link.minAmountCents !== null && c < link.minAmountCents) || (link.maxAmountCents !== null && c > link.maxAmountCents)) {
      throw LinkErrors.error('invalid_amount', 'The amount is outside what this link accepts');
    }
    const owner = await this.merchants.get(link.tenantId, link.ownerMerchantId);
    return { amount, options: refusingFees('amount', () => this.options(link, c, owner)).map(optionToApi) };
  }

  async pay(slug: string, dto: CheckoutPaymentDto) {
    const { link, item } = await this.start.run(slug, dto);
    return this.view(link, item, true);
  }

  async status(slug: string, paymentId: string) {
    const { link, item } = await this.payment(slug, paymentId);
    return this.view(link, item, false);
  }

  async payment(slug: string, paymentId: string): Promise<{ link: Link; item: PaymentItem }> {
    const link = await this.mustFind(slug);
    const item = await this.ledger.find(paymentId);
    if (!item || item.linkId !== link.id) throw LinkErrors.error('payment_not_found', 'No such payment on this link');
    return { link, item };
  }

  barcodeSvg(item: PaymentItem): string {
    if (item.method !== 'BOLETO' || !item.instrument.barcode) throw LinkErrors.error('payment_not_found', 'This payment has no boleto');
    return itfBarcodeSvg(item.instrument.barcode);
  }

  async view(link: Link, item: PaymentItem, full: boolean) {
    const base = {
      paymentId: item.id,
      status: item.status,
      paid: isPaid(item.status),
      pending: PENDING.has(item.status),
      method: item.method,
      amount: item.amountCents / 100,
      installments: item.installments,
      reason: item.reason,
      receiptUrl: `/checkout/${link.slug}/payments/${item.id}/receipt`,
    };
    if (!full) return base;
    const i = item.instrument;
    if (item.method === 'PIX' && i.brCode) {
      return {
        ...base,
        pix: {
          txid: i.txid,
          brCode: i.brCode,
          qrCode: await brCodeQrPngDataUrl(i.brCode, 280),
          expiresAt: i.expiresAt,
          serverNow: this.lifecycle.now().toISOString(),
          ...(this.bankApp ? { bankAppUrl: `${this.bankApp}/sandbox/pix/${i.txid}` } : {}),
        },
      };
    }
    if (item.method === 'BOLETO' && i.digitableLine) {
      return {
        ...base,
        boleto: {
          boletoId: i.boletoId,
          digitableLine: i.digitableLine,
          formattedLine: formatLine(i.digitableLine),
          dueDate: i.dueDate,
          barcodeUrl: `/checkout/${link.slug}/payments/${item.id}/barcode.svg`,
          printUrl: `/checkout/${link.slug}/payments/${item.id}/boleto`,
          ...(i.downloadUrl ? { downloadUrl: i.downloadUrl } : {}),
          ...(this.bankApp ? { bankAppUrl: `${this.bankApp}/sandbox/boletos/${i.boletoId}` } : {}),
        },
      };
    }
    return base;
  }

  async merchantName(link: Link): Promise<string> {
    return (await this.merchants.get(link.tenantId, link.ownerMerchantId)).name;
  }

  /** The seller as a boleto prints it: name and CNPJ/CPF. */
  async beneficiary(link: Link): Promise<{ name: string; taxId: string | null }> {
    const m = await this.merchants.get(link.tenantId, link.ownerMerchantId);
    return { name: m.name, taxId: m.taxId };
  }

  private options(link: Link, priceCents: number, owner: Parameters<MerchantsService['feeTable']>[0]): FeeSimulation[] {
    return quoteAll(this.merchants.feeTable(owner), priceCents, link.paymentMethods, link.maxInstallments, link.passFee);
  }

  private async mustFind(slug: string): Promise<Link> {
    const l = /^[A-Za-z0-9]{6,32}$/.test(slug) ? await this.links.findBySlug(slug) : null;
    if (!l) throw LinkErrors.error('link_not_found', 'No such payment link');
    return l;
  }
}
