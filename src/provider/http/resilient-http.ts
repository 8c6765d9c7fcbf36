import { setTimeout as sleep } from 'node:timers/promises';
import { BreakerRegistry } from '../../platform/resilience/breaker-registry';

export interface ResilientCall {
  /** Breaker name: one breaker per operation (e.g. `bank.createRecurrence`). */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Idempotent calls are retried at 1 s, 3 s, 9 s (the spec's advice); others are not. */
  idempotent: boolean;
  timeoutMs?: number;
}

export class ProviderCallError extends Error {
  constructor(
    readonly code: 'provider_unavailable' | 'provider_error' | 'provider_rejected',
    message: string,
    readonly status?: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ProviderCallError';
  }
}

export interface ResilientHttpOptions {
  baseUrl: string;
  timeoutMs: number;
  retryDelaysMs: number[];
  /** Headers sent on every call (for example the provider's shared key). */
  headers?: Record<string, string>;
}

/**
 * HTTP to an outside party (the bank, the acquirer): per-operation opossum breaker, a timeout
 * on every call, and retries with the spec's backoff for idempotent operations only. A 4xx is
 * the provider's answer, not a failure: it neither trips the breaker nor is retried.
 */
export class ResilientHttp {
  constructor(
    private readonly name: string,
    private readonly opts: ResilientHttpOptions,
    private readonly breakers: BreakerRegistry,
  ) {}

  async call<T>(c: ResilientCall): Promise<T> {
    const breaker = this.breakers.get(`${this.name}.${c.operation}`, (call: ResilientCall) => this.once(call), {
      timeoutMs: c.timeoutMs ?? this.opts.timeoutMs,
      critical: false,
    });
    const delays = c.idempotent ? this.opts.retryDelaysMs : [];
    for (let attempt = 0; ; attempt++) {
      try {
        const r = (await breaker.fire(c)) as { status: number; body: unknown };
        if (r.status >= 400) {
          throw new ProviderCallError('provider_rejected', `${c.operation} answered ${r.status}`, r.status, r.body);
        }
        return r.body as T;
      } catch (e: any) {
        if (e instanceof ProviderCallError && e.code === 'provider_rejected') throw e;
        if (breaker.opened || attempt >= delays.length) {
          throw new ProviderCallError('provider_unavailable', `${this.name} is unavailable for ${c.operation}: ${breaker.opened ? 'circuit open' : (e?.message ?? 'error')}`);
        }
        await sleep(delays[attempt]);
      }
    }
  }

  /** One attempt: 5xx and network errors reject (they count against the breaker); 4xx resolves. */
  private async once(c: ResilientCall): Promise<{ status: number; body: unknown }> {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), (c.timeoutMs ?? this.opts.timeoutMs) + 50);
    try {
      const res = await fetch(`${this.opts.baseUrl}${c.path}`, {
        method: c.method,
        headers: { accept: 'application/json', ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}), ...this.opts.headers, ...c.headers },
        body: c.body !== undefined ? JSON.stringify(c.body) : undefined,
        signal: ctrl.signal,
      });
      const text = await res.text();
      const body = text ? safeJson(text) : null;
      if (res.status >= 500) throw new ProviderCallError('provider_error', `${c.operation} answered ${res.status}`, res.status, body);
      return { status: res.status, body };
    } finally {
      clearTimeout(timer);
    }
  }
}

function safeJson(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return t;
  }
}
