import { Injectable } from '@nestjs/common';
import {
  BankAccountLimits,
  BankBillingRequest,
  BankBillingResult,
  BankProvider,
  BankRecurrenceCreated,
  BankRecurrenceRequest,
  BankRecurrenceStatus,
} from '../bank/bank-provider.port';
import { HttpBankProvider } from '../bank/http-bank-provider';
import { PixApiBillings } from './pix-api-billings';
import { PixApiClient } from './pix-api-client';
import { PixApiRecurrences } from './pix-api-recurrences';

/**
 * BankProvider over API Pix (BANK_PROVIDER=pix-api): recurrences by /locrec and /rec, billings by
 * /cobr. API Pix has no account-limits resource: that read keeps going to the service-protocol
 * provider (PROVIDER_URL, by default the sandbox bank's other face).
 */
@Injectable()
export class PixApiBankProvider extends BankProvider {
  readonly name = 'pix-api';

  constructor(
    private readonly psp: PixApiClient,
    private readonly recs: PixApiRecurrences,
    private readonly billings: PixApiBillings,
    private readonly limits: HttpBankProvider,
  ) {
    super();
  }

  maxCallMs(): number {
    return this.psp.maxCallMs();
  }

  override supportsPeriodicity(periodicity: string): boolean {
    return this.recs.supports(periodicity);
  }

  createRecurrence(req: BankRecurrenceRequest): Promise<BankRecurrenceCreated> {
    return this.recs.create(req);
  }

  getRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    return this.recs.get(recurrenceId);
  }

  cancelRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    return this.recs.cancel(recurrenceId);
  }

  sendBillings(billings: BankBillingRequest[]): Promise<BankBillingResult[]> {
    return this.billings.sendBillings(billings);
  }

  cancelBilling(idTx: string): Promise<{ idTx: string; status: string }> {
    return this.billings.cancelBilling(idTx);
  }

  getAccountLimits(accountId: string): Promise<BankAccountLimits> {
    return this.limits.getAccountLimits(accountId);
  }
}
