import { Injectable } from '@nestjs/common';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import {
  AcquirerPort,
  BoletoRequest,
  BoletoResult,
  CardAuthorizationRequest,
  CardAuthorizationResult,
  CardRefundRequest,
  CardRefundResult,
  PixChargeRequest,
  PixChargeResult,
} from '../acquirer.port';
import { ProviderCallError, ResilientHttp } from '../../../kernel/platform/http/resilient-http';
import { AcquirerConfig } from './acquirer.config';
import { SandboxUrlConfig } from '../sandbox-url.config';
import type { CardRefundAnswer, CardRefundCall } from '../../../kernel/common/protocols/acquirer-refunds';

/** Path of the sandbox acquirer under the sandbox app's origin (SANDBOX_URL). */
export const SANDBOX_ACQUIRER_PATH = '/sandbox/acquirer';

/**
 * The acquirer over HTTP (`ACQUIRER_URL`, by default the sandbox app at SANDBOX_URL). Every operation
 * has its own breaker (`acquirer.<operation>`). All creates carry our transaction id, which the
 * acquirer treats as an idempotency key, so they are safe to retry at 1 s, 3 s, 9 s.
 */
@Injectable()
export class HttpAcquirer extends AcquirerPort {
  private http: ResilientHttp | null = null;

  constructor(
    private readonly config: AcquirerConfig,
    private readonly breakers: BreakerRegistry,
    private readonly sandbox: SandboxUrlConfig,
  ) {
    super();
  }

  /** Resolved on first use: the default needs the listening socket. */
  baseUrl(): string {
    return this.config.url ?? this.sandbox.at(SANDBOX_ACQUIRER_PATH);
  }

  private client(): ResilientHttp {
    this.http ??= new ResilientHttp(
      'acquirer',
      {
        baseUrl: this.baseUrl(),
        timeoutMs: this.config.timeoutMs,
        retryDelaysMs: this.config.retryDelaysMs,
        deadlineMs: this.config.deadlineMs,
        breaker: this.config.breaker,
        headers: { 'x-acquirer-key': this.config.apiKey },
      },
      this.breakers,
    );
    return this.http;
  }

  authorizeCard(req: CardAuthorizationRequest): Promise<CardAuthorizationResult> {
    return this.client().call({ operation: 'authorizeCard', method: 'POST', path: '/v1/card-authorizations', body: req, idempotent: true });
  }

  capture(acquirerTransactionId: string, amountCents?: number): Promise<{ status: 'CAPTURED' }> {
    return this.client().call({
      operation: 'capture',
      method: 'POST',
      path: `/v1/card-authorizations/${encodeURIComponent(acquirerTransactionId)}/capture`,
      body: amountCents === undefined ? {} : { amountCents },
      idempotent: true,
    });
  }

  void(acquirerTransactionId: string): Promise<{ status: 'VOIDED' }> {
    return this.client().call({
      operation: 'void',
      method: 'POST',
      path: `/v1/card-authorizations/${encodeURIComponent(acquirerTransactionId)}/void`,
      body: {},
      idempotent: true,
    });
  }

  /** `acquirer-refunds.ts` (common/protocols): idempotent by our refund id, so retried like a create. */
  async refundCard(req: CardRefundRequest): Promise<CardRefundResult> {
    const call: CardRefundCall = { refundId: req.refundId, amountCents: req.amountCents };
    const a = await this.client().call<CardRefundAnswer>({
      operation: 'refundCard',
      method: 'POST',
      path: `/v1/card-authorizations/${encodeURIComponent(req.acquirerTransactionId)}/refunds`,
      body: call,
      idempotent: true,
    });
    // REVERSED cannot be a first answer; anything the protocol does not name is taken as pending
    const status = a.status === 'SUCCEEDED' || a.status === 'FAILED' ? a.status : 'PENDING';
    return { acquirerRefundId: a.acquirerRefundId, status, ...(a.reason ? { reason: a.reason } : {}) };
  }

  /** The protocol's lookup is definitive: what it found is voided, and nothing found means nothing was authorized. */
  async cancelUnanswered(transactionId: string): Promise<void> {
    const found = await this.findCardAuthorization(transactionId);
    if (found?.acquirerTransactionId && (found.status === 'ACCEPTED' || found.status === 'PREAUTH'))
      await this.void(found.acquirerTransactionId);
  }

  async findCardAuthorization(transactionId: string): Promise<CardAuthorizationResult | null> {
    try {
      return await this.client().call<CardAuthorizationResult>({
        operation: 'findCardAuthorization',
        method: 'GET',
        path: `/v1/card-authorizations?transactionId=${encodeURIComponent(transactionId)}`,
        idempotent: true,
      });
    } catch (e) {
      if (e instanceof ProviderCallError && e.code === 'provider_rejected' && e.status === 404) return null;
      throw e;
    }
  }

  createPixCharge(req: PixChargeRequest): Promise<PixChargeResult> {
    return this.client().call({ operation: 'createPixCharge', method: 'POST', path: '/v1/pix-charges', body: req, idempotent: true });
  }

  createBoleto(req: BoletoRequest): Promise<BoletoResult> {
    return this.client().call({ operation: 'createBoleto', method: 'POST', path: '/v1/boletos', body: req, idempotent: true });
  }
}
