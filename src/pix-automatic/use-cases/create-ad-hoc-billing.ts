import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { Clock } from '../../../kernel/platform/clock/clock';
import { BillingsRepository } from '../billings.repository';
import { adjustDueDate, compareDates } from '../domain/calendar';
import { acceptsBillings } from '../domain/recurrence.state-machine';
import { BillingDto, CreateAdHocBillingDto } from '../dto/billing.dto';
import { BillingSender } from '../engine/billing-sender';
import { billingEvent, OutboundEvents } from '../events/outbound-events';
import { newIdTx } from '../id-tx';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { RecurrencesRepository } from '../recurrences.repository';
import { toCents } from '../sql';
import { billingView } from '../views';
import { transaction } from '../../../kernel/platform/database/sql';

/**
 * An ad hoc billing (extra charge, adjustment, manual retry) on an ACCEPTED or ACTIVE
 * recurrence: created PENDING_SEND with BILLING_REQUESTED, then sent at once; a failed send is
 * retried by the engine like any other.
 */
@Injectable()
export class CreateAdHocBilling {
  constructor(
    private readonly ds: DataSource,
    private readonly recurrences: RecurrencesRepository,
    private readonly billings: BillingsRepository,
    private readonly events: OutboundEvents,
    private readonly sender: BillingSender,
    private readonly clock: Clock,
  ) {}

  async execute(t: TenantContext, dto: CreateAdHocBillingDto): Promise<BillingDto> {
    const created = await transaction(this.ds, async (m) => {
      const r = await this.recurrences.lockForTenant(m, t.tenantId, dto.recurrenceId);
      if (!r) throw PixAutomaticErrors.error('recurrence_not_found', 'No such recurrence');
      if (!acceptsBillings(r.status)) {
        throw PixAutomaticErrors.error(
          'recurrence_not_authorized',
          `The recurrence is ${r.status}; billings need it ACCEPTED or ACTIVE (payer authorization)`,
        );
      }
      const dueDate = adjustDueDate(dto.dueDate, dto.dayAdjustment ?? r.dayAdjustment);
      if (compareDates(dueDate, this.clock.today()) < 0) {
        throw PixAutomaticErrors.error('due_date_in_past', 'The adjusted due date is in the past', {
          details: [{ field: 'dueDate', message: `adjusted to ${dueDate}, before today ${this.clock.today()}`, code: 'notInPast' }],
        });
      }
      const now = this.clock.now();
      const b = await this.billings.insertAdHoc(m, {
        tenantId: t.tenantId,
        recurrenceId: r.id,
        idTx: newIdTx('BL'),
        amountCents: toCents(dto.amount),
        dueDate,
        // Leased to this call while it sends; the engine picks it up if the send fails.
        nextAttemptAt: new Date(now.getTime() + this.sender.leaseMs()),
      });
      await this.events.publishOnce(m, billingEvent(b, 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED'));
      return b;
    });
    await this.sender.send([created]);
    return billingView((await this.billings.findForTenant(t.tenantId, created.id)) ?? created);
  }
}
