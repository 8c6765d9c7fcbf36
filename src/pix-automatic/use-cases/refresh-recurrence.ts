import { Injectable } from '@nestjs/common';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { BankProvider } from '../../provider/bank/bank-provider.port';
import { isRecurrenceStatus } from '../domain/recurrence.state-machine';
import { RecurrenceStatusDto } from '../dto/recurrence.dto';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { providerFailure } from '../provider-errors';
import { RecurrencesRepository } from '../recurrences.repository';

/** Reads the provider's status and overwrites ours with it; nothing else changes. */
@Injectable()
export class RefreshRecurrence {
  constructor(
    private readonly recurrences: RecurrencesRepository,
    private readonly provider: BankProvider,
  ) {}

  async execute(t: TenantContext, recurrenceId: string): Promise<RecurrenceStatusDto> {
    const r = await this.recurrences.findForTenant(t.tenantId, recurrenceId);
    if (!r) throw PixAutomaticErrors.error('recurrence_not_found', 'No such recurrence');
    let held;
    try {
      held = await this.provider.getRecurrence(r.id);
    } catch (e) {
      throw providerFailure(e);
    }
    if (!isRecurrenceStatus(held?.status))
      throw PixAutomaticErrors.error('provider_error', 'The banking provider answered an unknown status');
    const updated = await this.recurrences.overwriteStatus(t.tenantId, r.id, held.status);
    return { recurrenceId: r.id, status: (updated ?? r).status };
  }
}
