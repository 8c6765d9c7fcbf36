import { Injectable } from '@nestjs/common';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import { ResilientHttp } from '../../../kernel/platform/http/resilient-http';
import { BankProviderConfig } from './bank-provider.config';
import {
  BankAccountLimits,
  BankBillingRequest,
  BankBillingResult,
  BankProvider,
  BankRecurrenceCreated,
  BankRecurrenceRequest,
  BankRecurrenceStatus,
} from './bank-provider.port';
import { PROVIDER_KEY_HEADER } from '../../../kernel/common/protocols/provider-events';
import { SandboxUrlConfig } from '../sandbox-url.config';

/**
 * The banking provider over HTTP: one opossum breaker per operation (`bank.<operation>` in
 * /health/ready and /metrics), a timeout on every call, and the configured retries on the
 * idempotent ones. Every call is idempotent on the provider's side (keyed by our ids), so all
 * are retried, except the limits read a caller waits on.
 */
@Injectable()
export class HttpBankProvider extends BankProvider {
  private client: ResilientHttp | null = null;

  constructor(
    private readonly config: BankProviderConfig,
    private readonly breakers: BreakerRegistry,
    private readonly sandbox: SandboxUrlConfig,
  ) {
    super();
  }

  /** Built on first use: the default base URL is the sandbox app's bank (SANDBOX_URL). */
  private http(): ResilientHttp {
    if (!this.client) {
      const baseUrl = this.config.url ?? this.sandbox.at('/sandbox/bank');
      this.client = new ResilientHttp(
        'bank',
        {
          baseUrl,
          timeoutMs: this.config.timeoutMs,
          retryDelaysMs: this.config.retryDelaysMs,
          breaker: this.config.breaker,
          headers: { [PROVIDER_KEY_HEADER]: this.config.apiKey },
        },
        this.breakers,
      );
    }
    return this.client;
  }

  maxCallMs(): number {
    const { timeoutMs, retryDelaysMs } = this.config;
    return timeoutMs * (retryDelaysMs.length + 1) + retryDelaysMs.reduce((a, b) => a + b, 0);
  }

  createRecurrence(req: BankRecurrenceRequest): Promise<BankRecurrenceCreated> {
    return this.http().call({ operation: 'createRecurrence', method: 'POST', path: '/recurrences', body: req, idempotent: true });
  }

  getRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    return this.http().call({
      operation: 'getRecurrence',
      method: 'GET',
      path: `/recurrences/${encodeURIComponent(recurrenceId)}`,
      idempotent: true,
    });
  }

  cancelRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    return this.http().call({
      operation: 'cancelRecurrence',
      method: 'POST',
      path: `/recurrences/${encodeURIComponent(recurrenceId)}/cancel`,
      idempotent: true,
    });
  }

  async sendBillings(billings: BankBillingRequest[]): Promise<BankBillingResult[]> {
    if (!billings.length) return [];
    const r = await this.http().call<{ results: BankBillingResult[] }>({
      operation: 'sendBillings',
      method: 'POST',
      path: '/billings/batch',
      body: { billings },
      idempotent: true,
    });
    return r.results;
  }

  cancelBilling(idTx: string, recurrenceId: string): Promise<{ idTx: string; status: string }> {
    return this.http().call({
      operation: 'cancelBilling',
      method: 'POST',
      path: `/billings/${encodeURIComponent(idTx)}/cancel`,
      body: { recurrenceId },
      idempotent: true,
    });
  }

  getAccountLimits(accountId: string): Promise<BankAccountLimits> {
    // A read for a waiting caller: one attempt (no 1 s/3 s/9 s backoff), the breaker still applies.
    return this.http().call({
      operation: 'getAccountLimits',
      method: 'GET',
      path: `/accounts/${encodeURIComponent(accountId)}/limits`,
      idempotent: false,
    });
  }
}
