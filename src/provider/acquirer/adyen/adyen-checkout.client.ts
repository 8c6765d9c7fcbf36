import { Injectable } from '@nestjs/common';
import { BreakerRegistry } from '../../../../kernel/platform/resilience/breaker-registry';
import { ResilientHttp } from '../../../../kernel/platform/http/resilient-http';
import { SandboxUrlConfig } from '../../sandbox-url.config';
import { AcquirerConfig } from '../acquirer.config';
import { AdyenConfig, SANDBOX_ADYEN_CHECKOUT_PATH } from './adyen.config';

/**
 * HTTP to Adyen Checkout v72 (`ADYEN_CHECKOUT_URL`, by default the sandbox's Adyen face):
 * `X-API-Key` on every call, an `Idempotency-Key` on every POST that creates, one breaker per operation
 * (`acquirer.<operation>`), the acquirer's timeout and retry delays. Adyen's 4xx come back as
 * ProviderCallError `provider_rejected` with Adyen's `ServiceError` as the body: never retried,
 * never counted against the breaker.
 */
@Injectable()
export class AdyenCheckoutClient {
  private http: ResilientHttp | null = null;

  constructor(
    readonly config: AdyenConfig,
    private readonly acquirer: AcquirerConfig,
    private readonly breakers: BreakerRegistry,
    private readonly sandbox: SandboxUrlConfig,
  ) {}

  /** A POST; with an idempotency key it is retried on 5xx and timeouts (Adyen answers a repeat with the first answer). */
  post<T>(operation: string, path: string, body: object, idempotencyKey?: string): Promise<T> {
    return this.client().call<T>({
      operation,
      method: 'POST',
      path,
      body,
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
      idempotent: idempotencyKey !== undefined,
    });
  }

  private client(): ResilientHttp {
    this.http ??= new ResilientHttp(
      'acquirer',
      {
        baseUrl: this.config.checkoutUrl ?? this.sandbox.at(SANDBOX_ADYEN_CHECKOUT_PATH),
        timeoutMs: this.acquirer.timeoutMs,
        retryDelaysMs: this.acquirer.retryDelaysMs,
        deadlineMs: this.acquirer.deadlineMs,
        breaker: this.acquirer.breaker,
        headers: { 'x-api-key': this.config.apiKey },
      },
      this.breakers,
    );
    return this.http;
  }
}
