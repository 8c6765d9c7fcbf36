import { CodedError } from '../../common/formats/coded-error';
import { registerDomainErrors } from '../errors/app-error';
import { Agent as HttpAgent, IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type CircuitBreaker from 'opossum';
import { BreakerRegistry } from '../resilience/breaker-registry';
import type { BreakerSettings } from '../resilience/breaker-settings';
import { endSpan, startClientSpan } from '../tracing/tracing';

export interface ResilientCall {
  /** Breaker name: one breaker per operation (e.g. `bank.createRecurrence`). */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of a JSON body (an OAuth2 token request). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Idempotent calls are retried at 1 s, 3 s, 9 s (the spec's advice); others are not. */
  idempotent: boolean;
  timeoutMs?: number;
}

export type ProviderCallErrorCode = 'provider_unavailable' | 'provider_error' | 'provider_rejected';

export class ProviderCallError extends CodedError<ProviderCallErrorCode> {
  constructor(
    code: ProviderCallErrorCode,
    message: string,
    readonly status?: number,
    readonly body?: unknown,
    /**
     * For `provider_unavailable`: false when no attempt can have reached the party (the breaker
     * was open, or the connection was refused), so nothing it does can have happened there.
     */
    readonly mayHaveReached = true,
  ) {
    super(code, message);
    this.name = 'ProviderCallError';
  }
}

/** Failures that prove the request never reached the party: an open breaker, a refused connection. */
function neverSent(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'EOPENBREAKER' || code === 'ECONNREFUSED';
}

/** The outcome each half-open breaker's trial is awaited by, shared by every call waiting on it. */
const trials = new WeakMap<CircuitBreaker<any[], any>, Promise<void>>();

/**
 * Resolves when a half-open breaker's trial call ends (the breaker closes or opens again), or
 * after `ms`: the trial is itself bounded by the breaker's timeout, so the bound is a safeguard.
 * One wait per breaker, however many calls wait on it (a listener each would pass the emitter's
 * limit of ten with a day's billings behind one trial).
 */
function trialOutcome(breaker: CircuitBreaker<any[], any>, ms: number): Promise<void> {
  let outcome = trials.get(breaker);
  if (!outcome) {
    outcome = new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        breaker.off('close', done);
        breaker.off('open', done);
        trials.delete(breaker);
        resolve();
      };
      const timer = setTimeout(done, ms + 100);
      breaker.once('close', done);
      breaker.once('open', done);
    });
    trials.set(breaker, outcome);
  }
  return outcome;
}

/** A provider call no use case answered: the spec's 500 with the reason as the code. */
registerDomainErrors<ProviderCallErrorCode>(ProviderCallError, { provider_unavailable: 500, provider_error: 500, provider_rejected: 500 });

export interface ResilientHttpOptions {
  baseUrl: string;
  timeoutMs: number;
  retryDelaysMs: number[];
  /** Headers sent on every call (for example the provider's shared key). */
  headers?: Record<string, string>;
  /** Mutual TLS (API Pix): the client certificate and key, and the CA the party's certificate must chain to. */
  tls?: { cert: string; key: string; ca?: string };
  /** How this party's breakers trip and recover (the edge's `<PREFIX>_BREAKER_*` settings); unset: the registry's defaults. */
  breaker?: BreakerSettings;
  /** The class of dependency /health/ready's summary counts its breakers in; the party's name by default. */
  dependency?: string;
  /**
   * For a party called while someone waits (the acquirer): no retry starts once this long has
   * passed since the call began, so a caller never waits on a retry schedule; what must still
   * happen goes to the job queue. Unset: the retries of `retryDelaysMs` all run.
   */
  deadlineMs?: number;
}

/**
 * HTTP to an outside party (the bank, the acquirer): per-operation opossum breaker, a timeout
 * on every call, and retries with the spec's backoff for idempotent operations only. A 4xx is
 * the provider's answer, not a failure: it neither trips the breaker nor is retried.
 */
export class ResilientHttp {
  /** Kept-alive connections to the party (global fetch costs ~15 % of a recurrence create in web streams alone). */
  private readonly agent: HttpAgent;
  private readonly send: (url: URL, options: RequestOptions, onResponse: (res: IncomingMessage) => void) => ReturnType<typeof httpRequest>;
  /** The party, as span attributes: its host and port, never the path (paths carry ids) or the query. */
  private readonly server: Record<string, string | number>;

  constructor(
    private readonly name: string,
    private readonly opts: ResilientHttpOptions,
    private readonly breakers: BreakerRegistry,
  ) {
    const https = new URL(opts.baseUrl).protocol === 'https:';
    this.agent = https
      ? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, minVersion: 'TLSv1.2', ...(opts.tls ?? {}) })
      : new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
    this.send = https ? httpsRequest : httpRequest;
    const base = new URL(opts.baseUrl);
    this.server = { 'server.address': base.hostname, 'server.port': Number(base.port) || (https ? 443 : 80), 'peer.service': name };
  }

  async call<T>(c: ResilientCall): Promise<T> {
    const breaker = this.breakers.get(`${this.name}.${c.operation}`, (call: ResilientCall) => this.once(call), {
      timeoutMs: c.timeoutMs ?? this.opts.timeoutMs,
      ...this.opts.breaker,
      critical: false,
      dependency: this.opts.dependency ?? this.name,
    });
    const delays = c.idempotent ? this.opts.retryDelaysMs : [];
    const began = Date.now();
    const pastDeadline = (wait: number) => this.opts.deadlineMs !== undefined && Date.now() - began + wait >= this.opts.deadlineMs;
    let reached = false;
    for (let attempt = 0, waited = false; ; attempt++) {
      try {
        const r = (await breaker.fire(c)) as { status: number; body: unknown };
        if (r.status >= 400) {
          throw new ProviderCallError('provider_rejected', `${c.operation} answered ${r.status}`, r.status, r.body);
        }
        return r.body as T;
      } catch (e: any) {
        if (e instanceof ProviderCallError && e.code === 'provider_rejected') throw e;
        reached ||= !neverSent(e);
        // Refused because another call is the half-open breaker's one trial: this call was not
        // sent (so this holds for calls that are not idempotent too). It waits for the trial's
        // outcome rather than its own backoff, which a slow trial outlasts: behind a trial that
        // closes the breaker it goes at once; behind one that fails it meets an open breaker.
        if (!waited && e?.code === 'EOPENBREAKER' && breaker.halfOpen) {
          waited = true;
          await trialOutcome(breaker, c.timeoutMs ?? this.opts.timeoutMs);
          attempt--; // waiting behind the trial is not an attempt
          continue;
        }
        if (breaker.opened || attempt >= delays.length || pastDeadline(delays[attempt])) {
          throw new ProviderCallError(
            'provider_unavailable',
            `${this.name} is unavailable for ${c.operation}: ${breaker.opened ? 'circuit open' : (e?.message ?? 'error')}`,
            undefined,
            undefined,
            reached,
          );
        }
        await sleep(delays[attempt]);
      }
    }
  }

  /**
   * One attempt: 5xx and network errors reject (they count against the breaker); 4xx resolves.
   * The breaker times the call out; the socket is also destroyed shortly after, so a hung
   * party does not keep connections. Each attempt is a client span (when tracing is on) and
   * carries its `traceparent`.
   */
  private once(c: ResilientCall): Promise<{ status: number; body: unknown }> {
    const payload = c.form
      ? Buffer.from(new URLSearchParams(c.form).toString(), 'utf8')
      : c.body !== undefined
        ? Buffer.from(JSON.stringify(c.body), 'utf8')
        : undefined;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(payload
        ? { 'content-type': c.form ? 'application/x-www-form-urlencoded' : 'application/json', 'content-length': String(payload.length) }
        : {}),
      ...this.opts.headers,
      ...c.headers,
    };
    const limitMs = (c.timeoutMs ?? this.opts.timeoutMs) + 50;
    const span = startClientSpan(
      `${c.method} ${this.name}.${c.operation}`,
      { ...this.server, 'http.request.method': c.method, 'payments.operation': c.operation },
      headers,
    );
    return new Promise((resolveOnce, rejectOnce) => {
      let settled = false;
      const resolve = (v: { status: number; body: unknown }) =>
        void (settled || ((settled = true), endSpan(span, v.status), resolveOnce(v)));
      const reject = (e: unknown) =>
        void (settled || ((settled = true), endSpan(span, (e as ProviderCallError)?.status, e ?? 'error'), rejectOnce(e)));
      const req = this.send(new URL(`${this.opts.baseUrl}${c.path}`), { method: c.method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`${c.operation} answered more than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const body = text ? safeJson(text) : null;
          const status = res.statusCode ?? 0;
          if (status >= 500) reject(new ProviderCallError('provider_error', `${c.operation} answered ${status}`, status, body));
          else resolve({ status, body });
        });
      });
      const timer = setTimeout(() => req.destroy(new Error(`${c.operation} took longer than ${limitMs} ms`)), limitMs);
      req.on('close', () => {
        clearTimeout(timer);
        // a connection cut mid-answer: nothing else may settle the call
        setImmediate(() => reject(new Error(`${c.operation}: the connection closed before the answer ended`)));
      });
      req.on('error', reject);
      req.end(payload);
    });
  }
}

/** Connections kept per party (per ResilientHttp). */
const MAX_SOCKETS = 64;
/** An answer larger than this is a broken party, not a result. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

function safeJson(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return t;
  }
}
