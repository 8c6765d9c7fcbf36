import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { SandboxUrlConfig } from '../sandbox-url.config';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import { ensureDevCertificates } from '../../../kernel/platform/tls/dev-certificates';
import { BankProviderConfig } from '../bank/bank-provider.config';
import { ProviderCallError, ResilientHttp } from '../../../kernel/platform/http/resilient-http';
import { PixApiConfig } from './pix-api.config';

export interface PixApiCall {
  /** Breaker name under `psp.` (e.g. `psp.putCobr`). */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Retried on 5xx and timeouts (the spec's backoff); a 4xx never is. */
  idempotent: boolean;
}

/** An RFC 7807 problem as API Pix answers it. */
export interface PixApiProblem {
  status: number;
  type?: string;
  title?: string;
  detail?: string;
  violacoes?: { razao: string; propriedade: string; valor?: string }[];
}

/**
 * The PSP refused the call (4xx): its problem, as it said it. Never retried and never a breaker
 * failure (a refusal is an answer); callers map it to our 400/409 with the violations.
 */
export class PixApiRejection extends ProviderCallError {
  constructor(
    readonly operation: string,
    readonly problem: PixApiProblem,
  ) {
    super(
      'provider_rejected',
      `${operation}: the PSP answered ${problem.status}${problem.title ? ` (${problem.title})` : ''}`,
      problem.status,
      problem,
    );
    this.name = 'PixApiRejection';
  }

  /** The problem's name (`CobROperacaoInvalida`), the last segment of its type URI. */
  get problemName(): string {
    return this.problem.type?.split('/').pop() ?? `HTTP${this.problem.status}`;
  }
}

function problemOf(status: number, body: unknown): PixApiProblem {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const violacoes = Array.isArray(b.violacoes)
    ? b.violacoes
        .filter((v): v is { razao: string; propriedade: string } => !!v && typeof v === 'object')
        .map((v) => ({ razao: String(v.razao ?? ''), propriedade: String(v.propriedade ?? '') }))
    : undefined;
  return {
    status,
    type: str(b.type),
    title: str(b.title) ?? str(b.error),
    detail: str(b.detail) ?? str(b.error_description),
    ...(violacoes?.length ? { violacoes } : {}),
  };
}

/**
 * API Pix over mutual TLS with OAuth2 client_credentials (the Central Bank's security manual):
 * the token is asked with HTTP Basic client authentication over the same TLS client
 * certificate, kept until shortly before `expires_in`, and renewed once when the PSP answers 401
 * (the call is then retried once). Breakers per operation (`psp.<operation>`), timeouts and
 * retries are ResilientHttp's. Tokens, the client secret and keys are never logged.
 */
@Injectable()
export class PixApiClient {
  private api: Promise<{ http: ResilientHttp; tokens: ResilientHttp }> | null = null;
  private token: { value: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly config: PixApiConfig,
    private readonly provider: BankProviderConfig,
    private readonly platform: PlatformConfig,
    private readonly sandbox: SandboxUrlConfig,
    private readonly breakers: BreakerRegistry,
  ) {}

  async call<T>(c: PixApiCall): Promise<T> {
    const { http } = await this.connect();
    const qs = c.query && Object.keys(c.query).length ? `?${new URLSearchParams(c.query).toString()}` : '';
    const send = (token: string) =>
      http.call<T>({
        operation: c.operation,
        method: c.method,
        path: `${c.path}${qs}`,
        body: c.body,
        idempotent: c.idempotent,
        headers: { authorization: `Bearer ${token}` },
      });
    const first = await this.accessToken();
    try {
      return await send(first);
    } catch (e) {
      if (!(e instanceof ProviderCallError && e.code === 'provider_rejected' && e.status === 401)) throw this.rejection(c.operation, e);
    }
    // The token expired or was revoked before we thought: renew it once, retry the call once.
    if (this.token?.value === first) this.token = null;
    const renewed = await this.accessToken();
    try {
      return await send(renewed);
    } catch (e) {
      throw this.rejection(c.operation, e);
    }
  }

  /** Longest one call can take with its retries (for leases on work sent to the PSP). */
  maxCallMs(): number {
    const { timeoutMs, retryDelaysMs } = this.provider;
    return 2 * (timeoutMs * (retryDelaysMs.length + 1) + retryDelaysMs.reduce((a, b) => a + b, 0));
  }

  private rejection(operation: string, e: unknown): unknown {
    if (e instanceof ProviderCallError && e.code === 'provider_rejected' && !(e instanceof PixApiRejection))
      return new PixApiRejection(operation, problemOf(e.status ?? 400, e.body));
    return e;
  }

  private accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token.value);
    this.pending ??= this.askToken().finally(() => (this.pending = null));
    return this.pending;
  }

  private async askToken(): Promise<string> {
    const { tokens } = await this.connect();
    const basic = Buffer.from(`${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(this.config.clientSecret)}`).toString(
      'base64',
    );
    let answer: { access_token?: unknown; expires_in?: unknown };
    try {
      answer = await tokens.call({
        operation: 'token',
        method: 'POST',
        path: '',
        form: { grant_type: 'client_credentials', ...(this.config.scopes ? { scope: this.config.scopes } : {}) },
        headers: { authorization: `Basic ${basic}` },
        idempotent: true,
      });
    } catch (e) {
      throw this.rejection('token', e);
    }
    if (typeof answer?.access_token !== 'string' || !answer.access_token)
      throw new ProviderCallError('provider_unavailable', 'The PSP token endpoint answered without an access_token');
    const ttlMs = (typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 60) * 1000;
    // Renewed a little before the PSP's clock says it ends (10 %, at most a minute).
    this.token = { value: answer.access_token, expiresAt: Date.now() + ttlMs - Math.min(60_000, ttlMs / 10) };
    return this.token.value;
  }

  private connect(): Promise<{ http: ResilientHttp; tokens: ResilientHttp }> {
    this.api ??= (async () => {
      const baseUrl = this.config.url ?? this.sandbox.pspUrl;
      if (!baseUrl) throw new Error('PIX_API_URL is unset and no sandbox is configured (SANDBOX_URL)');
      const tokenUrl = this.config.tokenUrl ?? `${baseUrl}/oauth/token`;
      const tls = this.config.url
        ? {
            cert: readFileSync(this.config.certFile!, 'utf8'),
            key: readFileSync(this.config.keyFile!, 'utf8'),
            ...(this.config.caFile ? { ca: readFileSync(this.config.caFile, 'utf8') } : {}),
          }
        : (() => {
            const pki = ensureDevCertificates(join(this.platform.dataDir, 'psp-certs'));
            return { cert: pki.clientCert, key: pki.clientKey, ca: pki.ca };
          })();
      const common = {
        timeoutMs: this.provider.timeoutMs,
        retryDelaysMs: this.provider.retryDelaysMs,
        breaker: this.provider.breaker,
        tls,
        dependency: 'bank', // the API Pix PSP is the bank
      };
      return {
        http: new ResilientHttp('psp', { baseUrl, ...common }, this.breakers),
        tokens: new ResilientHttp('psp', { baseUrl: tokenUrl, ...common }, this.breakers),
      };
    })();
    this.api.catch(() => (this.api = null));
    return this.api;
  }
}
