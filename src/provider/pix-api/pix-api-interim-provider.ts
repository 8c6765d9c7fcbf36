import { BankAccountLimits, BankBillingRequest, BankBillingResult, BankProvider, BankRecurrenceCreated, BankRecurrenceRequest, BankRecurrenceStatus } from '../bank/bank-provider.port';
import { PixApiBillings } from './pix-api-billings';

/**
 * TEMPORARY, until psp-core's PixApiBankProvider is merged: with BANK_PROVIDER=pix-api, billings
 * go to the PSP on API Pix (`PUT`/`PATCH /cobr/{txid}`, PixApiBillings) while recurrences still
 * go through the `service` adapter. psp-core's provider delegates its billing half the same way.
 */
export class InterimPixApiBankProvider extends BankProvider {
  constructor(
    private readonly recurrences: BankProvider,
    private readonly billings: PixApiBillings,
  ) {
    super();
  }

  maxCallMs(): number {
    return Math.max(this.recurrences.maxCallMs(), this.billings.maxCallMs());
  }

  createRecurrence(req: BankRecurrenceRequest): Promise<BankRecurrenceCreated> {
    return this.recurrences.createRecurrence(req);
  }

  getRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    return this.recurrences.getRecurrence(recurrenceId);
  }

  cancelRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    return this.recurrences.cancelRecurrence(recurrenceId);
  }

  sendBillings(billings: BankBillingRequest[]): Promise<BankBillingResult[]> {
    return this.billings.sendBillings(billings);
  }

  cancelBilling(idTx: string): Promise<{ idTx: string; status: string }> {
    return this.billings.cancelBilling(idTx);
  }

  getAccountLimits(accountId: string): Promise<BankAccountLimits> {
    return this.recurrences.getAccountLimits(accountId);
  }
}
