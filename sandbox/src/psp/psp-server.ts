import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, Server } from 'node:https';
import { ConnectionDrain } from '../../../kernel/platform/http/connection-drain';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { AppLogger } from '../../../kernel/platform/logging/app-logger';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { ensureDevCertificates } from '../../../kernel/platform/tls/dev-certificates';
import { SandboxConfig } from '../sandbox.config';
import { PspAnswer, PspProblems } from './problems';
import { SandboxPspConfig } from './sandbox-psp.config';

export type { PspAnswer } from './problems';

export interface PspRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  /** The OAuth2 client the bearer token was issued to. */
  clientId: string;
}

export type PspHandler = (req: PspRequest) => Promise<PspAnswer>;

interface Route {
  method: string;
  parts: string[];
  handler: PspHandler;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The sandbox PSP's HTTPS server, apart from the main HTTP server because API Pix is spoken over
 * mutual TLS: a client without a certificate signed by the development CA is refused during the
 * handshake (TLS 1.2 at least). OAuth2 client_credentials at `POST /oauth/token` (HTTP Basic
 * client id and secret), a bearer token on every other route. Routes are registered by the
 * handler classes (`register('PUT', '/cobr/:txid', fn)`); bodies are JSON.
 */
@Injectable()
export class SandboxPspServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly routes: Route[] = [];
  private readonly observers = new Set<(req: PspRequest, answer: PspAnswer) => void>();
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private server: Server | null = null;
  private connections: ConnectionDrain | null = null;
  private listening: string | undefined;
  /** Tokens issued since start (the sandbox's own statistics, for tests and the operator). */
  tokensIssued = 0;

  constructor(
    private readonly config: SandboxPspConfig,
    private readonly sandbox: SandboxConfig,
    private readonly platform: PlatformConfig,
    private readonly log: AppLogger,
  ) {}

  register(method: string, pattern: string, handler: PspHandler): void {
    this.routes.push({ method: method.toUpperCase(), parts: pattern.split('/').filter(Boolean), handler });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.sandbox.enabled) return;
    const pki = ensureDevCertificates(join(this.platform.dataDir, 'psp-certs'), this.config.certHosts);
    this.server = createServer(
      { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
      (req, res) => void this.handle(req, res),
    );
    this.connections = new ConnectionDrain(this.server);
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.config.port, this.config.host, () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    const url = `https://${this.config.host === '0.0.0.0' ? '127.0.0.1' : this.config.host}:${port}`;
    this.listening = url;
    this.log.log(`sandbox PSP (API Pix over mutual TLS) on ${url}`);
  }

  /** Revokes every token issued (a PSP may do so at any time; clients must ask again). */
  revokeAllTokens(): void {
    this.tokens.clear();
  }

  /** The URL it listens on, once listening. */
  url(): string | undefined {
    return this.listening;
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    // every connection, TLS handshakes included (closeAllConnections sees only those past it)
    this.connections?.destroyAll();
    await new Promise((r) => this.server!.close(r));
    this.server = null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let answer: PspAnswer;
    try {
      answer = await this.answer(req);
    } catch (e: any) {
      this.log.error(`sandbox PSP: ${req.method} ${req.url?.split('?')[0]} failed: ${e?.message ?? e}`);
      answer = PspProblems.internal();
    }
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    // An answer without a body claims no media type: a strict client would try to parse an
    // empty string as JSON (API Pix's `PUT /webhookrec`… answer 200 with no content).
    const headers = Object.entries(answer.headers ?? {}).filter(([k]) => body || k.toLowerCase() !== 'content-type');
    res.writeHead(answer.status, {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...Object.fromEntries(headers),
      ...(body ? { 'content-length': Buffer.byteLength(body) } : {}),
    });
    res.end(body);
  }

  private async answer(req: IncomingMessage): Promise<PspAnswer> {
    const url = new URL(req.url ?? '/', 'https://psp.invalid');
    const raw = await readBody(req);
    if (raw === null) return PspProblems.tooLarge();
    if (req.method === 'POST' && url.pathname === '/oauth/token') return this.token(req, raw);

    const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? this.tokens.get(bearer) : undefined;
    if (!token || token.expiresAt <= Date.now()) {
      if (bearer) this.tokens.delete(bearer);
      return PspProblems.unauthorized();
    }
    const found = this.match(req.method ?? 'GET', url.pathname);
    if (found === 'method') return PspProblems.methodNotAllowed();
    if (!found) return PspProblems.notFound();
    let body: unknown = undefined;
    if (raw.length) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return PspProblems.invalidRequest('O corpo da requisição não é um JSON válido.');
      }
    }
    const request: PspRequest = {
      method: req.method!,
      path: url.pathname,
      params: found.params,
      query: url.searchParams,
      body,
      clientId: token.clientId,
    };
    const answer = await found.route.handler(request);
    for (const o of this.observers) o(request, answer);
    return answer;
  }

  /** Sees every request a route handled and its answer (the sandbox's inspector; contract tests). */
  observe(fn: (req: PspRequest, answer: PspAnswer) => void): () => void {
    this.observers.add(fn);
    return () => this.observers.delete(fn);
  }

  /** OAuth2 client_credentials (RFC 6749 §4.4): HTTP Basic client authentication. */
  private token(req: IncomingMessage, raw: Buffer): PspAnswer {
    const basic = /^Basic (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? splitOnce(Buffer.from(basic, 'base64').toString('utf8'), ':') : ['', ''];
    const form = new URLSearchParams(raw.toString('utf8'));
    const invalidClient = { status: 401, headers: { 'www-authenticate': 'Basic realm="sandbox-psp"' }, body: { error: 'invalid_client' } };
    if (!id || id !== this.config.clientId || !sameSecret(secret, this.config.clientSecret)) return invalidClient;
    if (form.get('grant_type') !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type' } };
    const accessToken = randomBytes(32).toString('base64url');
    this.tokensIssued++;
    this.tokens.set(accessToken, { clientId: id, expiresAt: Date.now() + this.config.tokenTtlS * 1000 });
    if (this.tokens.size > 10000) for (const [k, v] of this.tokens) if (v.expiresAt <= Date.now()) this.tokens.delete(k);
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: { access_token: accessToken, token_type: 'Bearer', expires_in: this.config.tokenTtlS, scope: form.get('scope') ?? '' },
    };
  }

  private match(method: string, path: string): { route: Route; params: Record<string, string> } | 'method' | null {
    const parts = path.split('/').filter(Boolean);
    let pathMatched = false;
    for (const route of this.routes) {
      if (route.parts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const want = route.parts[i];
        if (want.startsWith(':')) {
          try {
            params[want.slice(1)] = decodeURIComponent(parts[i]);
          } catch {
            ok = false;
          }
        } else ok = want === parts[i];
      }
      if (!ok) continue;
      pathMatched = true;
      if (route.method === method.toUpperCase()) return { route, params };
    }
    return pathMatched ? 'method' : null;
  }
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && y.length > 0 && timingSafeEqual(x, y);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The peer certificate's subject CN (for logs): who connected over mutual TLS. */
export function peerName(req: IncomingMessage): string {
  const cn = (req.socket as TLSSocket).getPeerCertificate?.()?.subject?.CN;
  return (Array.isArray(cn) ? cn[0] : cn) ?? 'unknown';
}
