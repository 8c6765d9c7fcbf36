import { BreakerRegistry } from '../../platform/resilience/breaker-registry';
import { ResilientHttp } from '../http/resilient-http';
import { PspCaller } from './pix-api-billings';

/**
 * TEMPORARY PSP caller over plain ResilientHttp (PIX_API_URL, breaker `psp.<operation>`), until
 * psp-core's PixApiClient (mTLS, OAuth2) is merged and bound to PIX_API_CALLER instead.
 */
export class InterimPspCaller implements PspCaller {
  private http: ResilientHttp | null = null;

  constructor(
    private readonly baseUrl: () => string | undefined,
    private readonly breakers: BreakerRegistry,
  ) {}

  call<T>(req: { operation: string; method: string; path: string; query?: Record<string, string>; body?: unknown; idempotent: boolean }): Promise<T> {
    const base = this.baseUrl();
    if (!base) return Promise.reject(new Error('PIX_API_URL is not set'));
    this.http ??= new ResilientHttp('psp', { baseUrl: base, timeoutMs: 5000, retryDelaysMs: [200, 600] }, this.breakers);
    const qs = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    return this.http.call<T>({ operation: req.operation, method: req.method as any, path: `${req.path}${qs}`, body: req.body, idempotent: req.idempotent });
  }
}
