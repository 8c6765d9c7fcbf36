import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { BankProvider } from '../../provider/bank/bank-provider.port';
import { isTerminal, RecurrenceStatus, RecurrenceTrigger } from '../domain/recurrence.state-machine';
import { RecurrenceDto } from '../dto/recurrence.dto';
import { PixTransitions } from '../events/pix-transitions';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { providerFailure } from '../provider-errors';
import { RecurrencesRepository } from '../recurrences.repository';
import { recurrenceView } from '../views';
import { transaction } from '../../../kernel/platform/database/sql';

/**
 * The receiver cancels: the provider first (so the payer is never charged again), then our
 * recurrence and every billing still cancelable, with their events, in one transaction.
 * Idempotent: cancelling a CANCELLED_RECEIVER recurrence answers it unchanged.
 */
@Injectable()
export class CancelRecurrence {
  constructor(
    private readonly ds: DataSource,
    private readonly recurrences: RecurrencesRepository,
    private readonly provider: BankProvider,
    private readonly transitions: PixTransitions,
  ) {}

  async execute(t: TenantContext, recurrenceId: string): Promise<RecurrenceDto> {
    const r = await this.recurrences.findForTenant(t.tenantId, recurrenceId);
    if (!r) throw PixAutomaticErrors.error('recurrence_not_found', 'No such recurrence');
    if (r.status === RecurrenceStatus.CANCELLED_RECEIVER) return recurrenceView(r);
    if (isTerminal(r.status)) throw notCancelable(r.status);
    try {
      await this.provider.cancelRecurrence(r.id);
    } catch (e) {
      throw providerFailure(e);
    }
    const done = await transaction(this.ds, async (m) => {
      const locked = await this.recurrences.lockForTenant(m, t.tenantId, r.id);
      if (!locked) throw PixAutomaticErrors.error('recurrence_not_found', 'No such recurrence');
      const res = await this.transitions.recurrence(
        m,
        locked,
        RecurrenceTrigger.RECEIVER_CANCEL,
        'PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED',
      );
      // Also when the provider's own cancel event got here first: every open billing goes with it.
      if (res.entity.status === RecurrenceStatus.CANCELLED_RECEIVER) await this.transitions.cancelOpenBillings(m, res.entity);
      return res.entity;
    });
    if (done.status !== RecurrenceStatus.CANCELLED_RECEIVER) throw notCancelable(done.status);
    return recurrenceView((await this.recurrences.findForTenant(t.tenantId, r.id)) ?? done);
  }
}

function notCancelable(status: string) {
  return PixAutomaticErrors.error('recurrence_not_cancelable', `A ${status} recurrence cannot be cancelled`);
}
