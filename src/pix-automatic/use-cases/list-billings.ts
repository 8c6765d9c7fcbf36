import { Injectable } from '@nestjs/common';
import type { TenantContext } from '../../platform/http/tenant-context';
import { page, Page, PageQueryDto } from '../../platform/pagination/pagination';
import { BillingsRepository } from '../billings.repository';
import { BillingDto } from '../dto/billing.dto';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { RecurrencesRepository } from '../recurrences.repository';
import { billingView } from '../views';

@Injectable()
export class ListBillings {
  constructor(
    private readonly recurrences: RecurrencesRepository,
    private readonly billings: BillingsRepository,
  ) {}

  async execute(t: TenantContext, recurrenceId: string, q: PageQueryDto): Promise<Page<BillingDto>> {
    const r = await this.recurrences.findForTenant(t.tenantId, recurrenceId);
    if (!r) throw PixAutomaticErrors.error('recurrence_not_found', 'No such recurrence');
    const [items, total] = await this.billings.listForRecurrence(t.tenantId, r.id, q.limit, q.offset);
    return page(items.map(billingView), total, q);
  }
}
