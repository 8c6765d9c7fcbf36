import { Injectable } from '@nestjs/common';
import { RefundTotals } from '../../../kernel/common/contracts/refundable-payments.port';
import { PixDevolucoes } from '../../provider/pix-devolucoes.port';
import { BillingStatus } from '../domain/billing.state-machine';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { page, Page, PageQueryDto } from '../../../kernel/platform/pagination/pagination';
import { BillingsRepository } from '../billings.repository';
import { BillingDto } from '../dto/billing.dto';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { RecurrencesRepository } from '../recurrences.repository';
import { billingView } from '../views';

/** A recurrence's billings, each with what went back of it (RefundTotals: refunds, MED) and what still can. */
@Injectable()
export class ListBillings {
  constructor(
    private readonly recurrences: RecurrencesRepository,
    private readonly billings: BillingsRepository,
    private readonly refunds: RefundTotals,
    private readonly devolucoes: PixDevolucoes,
  ) {}

  async execute(t: TenantContext, recurrenceId: string, q: PageQueryDto): Promise<Page<BillingDto>> {
    const r = await this.recurrences.findForTenant(t.tenantId, recurrenceId);
    if (!r) throw PixAutomaticErrors.error('recurrence_not_found', 'No such recurrence');
    const [items, total] = await this.billings.listForRecurrence(t.tenantId, r.id, q.limit, q.offset);
    const totals = await this.refunds.of(items.filter((b) => b.status === BillingStatus.COMPLETED).map((b) => b.id));
    const views = items.map((b) =>
      billingView(b, { total: totals.get(b.id), paidByPix: this.devolucoes.enabled && b.status === BillingStatus.COMPLETED }),
    );
    return page(views, total, q);
  }
}
