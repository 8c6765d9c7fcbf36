import { Injectable } from '@nestjs/common';
import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';
import { SandboxUrlConfig } from '../provider/sandbox-url.config';
import { ProviderCallError, ResilientHttp } from '../../kernel/platform/http/resilient-http';
import {
  ThreeDsAuthenticateRequest,
  ThreeDsServerError,
  ThreeDsServerPort,
  ThreeDsServerResult,
  ThreeDsSetupRequest,
  ThreeDsSetupResult,
} from '../provider/three-ds-server.port';
import { ThreeDsConfig } from './three-ds.config';

/** HTTP client of the 3DS server, through ResilientHttp (breaker `threeDs.<operation>`). */
@Injectable()
export class HttpThreeDsServer extends ThreeDsServerPort {
  private http: ResilientHttp | null = null;

  constructor(
    private readonly config: ThreeDsConfig,
    private readonly breakers: BreakerRegistry,
    private readonly sandbox: SandboxUrlConfig,
  ) {
    super();
  }

  setup(req: ThreeDsSetupRequest): Promise<ThreeDsSetupResult> {
    // the generic protocol takes the notification URL at authenticate, not here
    const body = { merchantDocument: req.merchantDocument, cardNumber: req.cardNumber, amountCents: req.amountCents };
    return this.call({ operation: 'setup', method: 'POST', path: '/setup', body, idempotent: false });
  }

  authenticate(req: ThreeDsAuthenticateRequest): Promise<ThreeDsServerResult> {
    return this.call({ operation: 'authenticate', method: 'POST', path: '/authenticate', body: req, idempotent: false });
  }

  result(referenceId: string): Promise<ThreeDsServerResult> {
    return this.call({ operation: 'result', method: 'GET', path: `/transactions/${encodeURIComponent(referenceId)}`, idempotent: true });
  }

  /**
   * One call, answered in the spec's terms: 403 merchant not found, a reference the server does
   * not know, and anything else (refused, down, breaker open) 500 acquirer communication.
   */
  private async call<T>(c: Parameters<ResilientHttp['call']>[0]): Promise<T> {
    try {
      return await this.client().call<T>(c);
    } catch (e) {
      const code =
        e instanceof ProviderCallError && e.code === 'provider_rejected' ? (e.body as { error?: string } | null)?.error : undefined;
      if (code === 'merchant_not_found' && (e as ProviderCallError).status === 403) throw ThreeDsServerError.merchantNotFound();
      if (code === 'reference_not_found' && (e as ProviderCallError).status === 404) throw ThreeDsServerError.unknownReference();
      throw ThreeDsServerError.unavailable();
    }
  }

  /** Built on first use: the in-process sandbox's address is known only once the server listens. */
  private client(): ResilientHttp {
    if (this.http) return this.http;
    const baseUrl = this.config.serverUrl ?? this.sandbox.at('/sandbox/three-ds');
    this.http = new ResilientHttp(
      'threeDs',
      {
        baseUrl,
        timeoutMs: this.config.timeoutMs,
        retryDelaysMs: this.config.retryDelaysMs,
        breaker: this.config.breaker,
        dependency: 'acquirer', // card authentication, beside the acquirer
      },
      this.breakers,
    );
    return this.http;
  }
}
