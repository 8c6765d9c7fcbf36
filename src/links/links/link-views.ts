import { Injectable } from '@nestjs/common';
import { RefundTotal, RefundTotals } from '../../../kernel/common/contracts/refundable-payments.port';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { PixDevolucoes } from '../../provider/pix-devolucoes.port';
import { LinkDto } from '../dto/link.dto';
import { PaymentItemDto } from '../dto/payment.dto';
import { Link } from './link.types';
import { linkToDto, paymentToDto } from './link.mapper';
import type { PaymentJson } from './links.repository';

const PAID_BY_PIX = new Set(['PIX:AUTHORIZED', 'PIX:SETTLED', 'BOLETO:PAID_PIX']);
/** A card sale of a link (refunded at the acquirer), or a boleto paid by bank clearing (by a payout the tenant confirms). */
const PAID_ELSEWHERE = new Set(['CARD:ACCEPTED', 'CARD:CAPTURED', 'BOLETO:PAID']);

/**
 * Links and their payments as the routes answer them, with what went back (the refunds module's
 * RefundTotals): each payment's refunded, disputed (MED) and refundable amounts, and the link's
 * totals, `totalPaid` net of them.
 */
@Injectable()
export class LinkViews {
  constructor(
    private readonly platform: PlatformConfig,
    private readonly refunds: RefundTotals,
    private readonly devolucoes: PixDevolucoes,
  ) {}

  async links(links: Link[]): Promise<LinkDto[]> {
    const totals = await this.refunds.ofParents(links.map((l) => l.id));
    return links.map((l) => this.link(l, totals.get(l.id)));
  }

  link(l: Link, t: RefundTotal | undefined): LinkDto {
    const d = linkToDto(l, this.platform.publicUrl);
    const refunded = t?.refundedCents ?? 0;
    const disputed = t?.disputedCents ?? 0;
    return {
      ...d,
      totalPaid: (l.totalPaidCents - refunded - disputed) / 100,
      totalRefunded: refunded / 100,
      totalDisputed: disputed / 100,
    };
  }

  async payments(payments: PaymentJson[]): Promise<PaymentItemDto[]> {
    const totals = await this.refunds.of(payments.map((p) => p.id));
    return payments.map((p) => {
      const t = totals.get(p.id);
      const paid = `${p.method}:${p.status}`;
      const refundable = PAID_ELSEWHERE.has(paid) || (this.devolucoes.enabled && PAID_BY_PIX.has(paid));
      return {
        ...paymentToDto(p),
        refundedAmount: (t?.refundedCents ?? 0) / 100,
        disputedAmount: (t?.disputedCents ?? 0) / 100,
        refundableAmount: t ? t.refundableCents / 100 : refundable ? Number(p.amount_cents) / 100 : 0,
      };
    });
  }
}
