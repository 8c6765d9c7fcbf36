import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RefundTotals } from '../../../kernel/common/contracts/refundable-payments.port';
import { Page, page } from '../../../kernel/platform/pagination/pagination';
import { CardErrors } from '../cards.errors';
import { CardPaymentDto, CreateCardPaymentDto } from '../dto/card-payment.dto';
import { CardPaymentsRepository } from './card-payments.repository';
import { paymentView } from './card-payment.view';
import { CreateCardPayment } from './create-card-payment';
import { SettleCardPayment } from './settle-card-payment';

/** The card payment routes, as views. */
@Injectable()
export class CardPaymentsService {
  constructor(
    private readonly ds: DataSource,
    private readonly payments: CardPaymentsRepository,
    private readonly creator: CreateCardPayment,
    private readonly settler: SettleCardPayment,
    private readonly refunds: RefundTotals,
  ) {}

  async create(tenantId: string, dto: CreateCardPaymentDto, requestId: string): Promise<CardPaymentDto> {
    return paymentView(await this.creator.execute(tenantId, dto, requestId));
  }

  async capture(tenantId: string, paymentId: string, amount?: number): Promise<CardPaymentDto> {
    return paymentView(await this.settler.capture(tenantId, paymentId, amount));
  }

  async void(tenantId: string, paymentId: string): Promise<CardPaymentDto> {
    return paymentView(await this.settler.void(tenantId, paymentId));
  }

  async get(tenantId: string, paymentId: string): Promise<CardPaymentDto> {
    const p = await this.payments.find(this.ds, tenantId, paymentId);
    if (!p) throw CardErrors.error('payment_not_found', 'No such card payment for this tenant');
    return paymentView(p, (await this.refunds.of([p.id])).get(p.id) ?? null);
  }

  async list(tenantId: string, q: { limit: number; offset: number }): Promise<Page<CardPaymentDto>> {
    const [items, total] = await this.payments.list(tenantId, q.limit, q.offset);
    const refunded = await this.refunds.of(items.map((p) => p.id));
    return page(
      items.map((p) => paymentView(p, refunded.get(p.id) ?? null)),
      total,
      q,
    );
  }
}
