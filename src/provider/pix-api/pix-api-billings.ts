import { Injectable } from '@nestjs/common';
import { BankBillingRequest, BankBillingResult } from '../bank/bank-provider.port';
import { ProviderCallError } from '../../platform/http/resilient-http';

/**
 * The billing half of the pix-api adapter (`PUT /cobr/{txid}` per billing, `PATCH` to cancel).
 * Placeholder of the recurrence half's branch; the cobr work replaces this file.
 */
@Injectable()
export class PixApiBillings {
  sendBillings(_billings: BankBillingRequest[]): Promise<BankBillingResult[]> {
    return Promise.reject(new ProviderCallError('provider_unavailable', 'billings over API Pix are not wired in this build'));
  }

  cancelBilling(_idTx: string): Promise<{ idTx: string; status: string }> {
    return Promise.reject(new ProviderCallError('provider_unavailable', 'billings over API Pix are not wired in this build'));
  }
}
