import { Injectable } from '@nestjs/common';
import { BreakerRegistry } from '../platform/resilience/breaker-registry';
import { SelfOrigin } from '../platform/http/self-origin';
import { ProviderCallError, ResilientHttp } from '../platform/http/resilient-http';
import {
  ThreeDsAuthenticateRequest,
  ThreeDsServerError,
  ThreeDsServerPort,
  ThreeDsServerResult,
  ThreeDsSetupRequest,
  ThreeDsSetupResult,
} from './ports/three-ds-server.port';
import { ThreeDsConfig } from './three-ds.config';

/** HTTP client of the 3DS server, through ResilientHttp (breaker `threeDs.<operation>`). */
@Injectable()
export class HttpThreeDsServer extends ThreeDsServerPort {
  private http: ResilientHttp | null = null;

  constructor(
    private readonly config: ThreeDsConfig,
    private readonly breakers: BreakerRegistry,
    private readonly self: SelfOrigin,
  ) {
    super();
  }

  setup(req: ThreeDsSetupRequest): Promise<ThreeDsSetupResult> {
    return this.call({ operation: 'setup', method: 'POST', path: '/setup', body: req, idempotent: false });
  }

  authenticate(req: ThreeDsAuthenticateRequest): Promise<ThreeDsServerResult> {
    return this.call({ operation: 'authenticate', method: 'POST', path: '/authenticate', body: req, idempotent: false });
  }

  result(referenceId: string): Promise<ThreeDsServerResult> {
    return this.call({ operation: 'result', method: 'GET', path: `/transactions/${encodeURIComponent(referenceId)}`, idempotent: true });
  }

  private async call<T>(c: Parameters<ResilientHttp['call']>[0]): Promise<T> {
    try {
      return await this.client().call<T>(c);
    } catch (e) {
      if (e instanceof ProviderCallError && e.code === 'provider_rejected') {
        const code = (e.body as { error?: string } | null)?.error;
        if (e.status === 403 && code === 'merchant_not_found')
          throw new ThreeDsServerError('merchant_not_found', 'The 3DS server does not know this merchant');
        if (e.status === 404 && code === 'reference_not_found')
          throw new ThreeDsServerError('reference_not_found', 'The 3DS server does not know this reference');
        throw new ThreeDsServerError('rejected', `The 3DS server refused ${c.operation} (HTTP ${e.status})`);
      }
      throw new ThreeDsServerError('unavailable', `The 3DS server could not be reached for ${c.operation}`);
    }
  }

  /** Built on first use: the in-process sandbox's address is known only once the server listens. */
  private client(): ResilientHttp {
    if (this.http) return this.http;
    const baseUrl = this.config.serverUrl ?? `${this.self.get()}/sandbox/three-ds`;
    this.http = new ResilientHttp(
      'threeDs',
      { baseUrl, timeoutMs: this.config.timeoutMs, retryDelaysMs: this.config.retryDelaysMs },
      this.breakers,
    );
    return this.http;
  }
}
