import { Injectable } from '@nestjs/common';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { page, Page } from '../../../kernel/platform/pagination/pagination';
import { ListRecurrencesQueryDto, RecurrenceDto } from '../dto/recurrence.dto';
import { RecurrencesRepository } from '../recurrences.repository';
import { toCents } from '../sql';
import { recurrenceView } from '../views';

@Injectable()
export class ListRecurrences {
  constructor(private readonly recurrences: RecurrencesRepository) {}

  async execute(t: TenantContext, q: ListRecurrencesQueryDto): Promise<Page<RecurrenceDto>> {
    const [items, total] = await this.recurrences.list(
      t.tenantId,
      {
        payerTaxId: q.payerTaxId,
        amountCents: q.amount === undefined ? undefined : toCents(q.amount),
        firstDueDate: q.firstDueDate,
        status: q.status,
      },
      q.limit,
      q.offset,
    );
    return page(items.map(recurrenceView), total, q);
  }
}
