import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { BankProvider } from '../../provider/bank/bank-provider.port';
import { BillingsRepository } from '../billings.repository';
import { BillingStatus, BillingTrigger, isCancelableByReceiver } from '../domain/billing.state-machine';
import { BillingDto } from '../dto/billing.dto';
import { PixTransitions } from '../events/pix-transitions';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { providerFailure } from '../provider-errors';
import { billingView } from '../views';
import { transaction } from '../../../kernel/platform/database/sql';

/**
 * DELETE of a billing: CANCELLED_RECEIVER from a cancelable state (PENDING_SEND, SENT, ACTIVE,
 * SEND_FAILED). The provider is told first, whatever the state: a billing being sent right now
 * (or whose failed send did reach it) must not be charged. Idempotent.
 */
@Injectable()
export class CancelBilling {
  constructor(
    private readonly ds: DataSource,
    private readonly billings: BillingsRepository,
    private readonly provider: BankProvider,
    private readonly transitions: PixTransitions,
  ) {}

  async execute(t: TenantContext, billingId: string): Promise<BillingDto> {
    const b = await this.billings.findForTenant(t.tenantId, billingId);
    if (!b) throw PixAutomaticErrors.error('billing_not_found', 'No such billing');
    if (b.status === BillingStatus.CANCELLED_RECEIVER) return billingView(b);
    if (!isCancelableByReceiver(b.status)) throw notCancelable(b.status);
    try {
      await this.provider.cancelBilling(b.idTx, b.recurrenceId);
    } catch (e) {
      throw providerFailure(e);
    }
    const after = await transaction(this.ds, async (m) => {
      const locked = await this.billings.lockForTenant(m, t.tenantId, b.id);
      if (!locked) throw PixAutomaticErrors.error('billing_not_found', 'No such billing');
      return (await this.transitions.billing(m, locked, BillingTrigger.RECEIVER_CANCEL, 'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER'))
        .entity;
    });
    if (after.status !== BillingStatus.CANCELLED_RECEIVER) throw notCancelable(after.status);
    return billingView((await this.billings.findForTenant(t.tenantId, b.id)) ?? after);
  }
}

function notCancelable(status: string) {
  return PixAutomaticErrors.error('billing_not_cancelable', `A ${status} billing cannot be cancelled`);
}
