/**
 * One POST to a receiver over node:http / node:https with keep-alive agents. The destination
 * address is checked when the socket is opened: a name is resolved by our own `lookup`, which
 * refuses private, loopback and link-local answers (unless allowed), so a public name that
 * resolves to 10.0.0.1 or 169.254.169.254 is refused at send time, not only at registration;
 * literal addresses are checked before connecting. Redirects are not followed. The timeout
 * covers connect, request and reading the answer; only the first 1 KiB of the answer is kept.
 */
import { LookupAddress, lookup as dnsLookup } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIpLiteral, judgeAddress, stripBrackets } from './address-policy';
import { HttpOutcome, responseSnippet, SNIPPET_MAX_BYTES } from './attempt-outcome';
import { endSpan, startClientSpan } from '../../../kernel/platform/tracing/tracing';

export interface HttpTransportOptions {
  allowPrivateTargets: boolean;
  maxSocketsPerHost: number;
  userAgent: string;
}

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** The most of an answer we read before giving up on the connection (keeps a hostile receiver from streaming forever). */
const MAX_READ_BYTES = 64 * 1024;

class TargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED';
  constructor(readonly range: string) {
    super(`target_not_allowed: the destination resolves to a ${range} address`);
  }
}

class TimeoutError extends Error {
  readonly code = 'ETIMEOUT';
  constructor(ms: number) {
    super(`timeout after ${ms} ms`);
  }
}

class AbortedError extends Error {
  readonly code = 'EABORTED';
  constructor() {
    super('aborted: the worker is shutting down');
  }
}

/** Where a receiver's URL says to connect, read from it once (see `HttpTransport.target`). */
interface Target {
  secure: boolean;
  protocol: string;
  hostname: string;
  port: string | number;
  path: string;
  /** the client span's attributes: host and port, never the path or query */
  spanAttributes: Readonly<Record<string, string | number>>;
}

/** A URL the transport will not send to: not a URL, or an address literal the policy refuses. */
interface Unsendable {
  refused: string;
}

/** Receivers' URLs are few; a transport keeps this many parsed and parses any beyond them on every send. */
const TARGETS_KEPT = 1000;

export function isShutdownAbort(outcome: HttpOutcome): boolean {
  return outcome.kind === 'error' && outcome.error.startsWith('aborted:');
}

export class HttpTransport {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly active = new Set<http.ClientRequest>();
  private readonly targets = new Map<string, Target | Unsendable>();

  constructor(private readonly opts: HttpTransportOptions) {
    const agentOpts = {
      keepAlive: true,
      keepAliveMsecs: 1000,
      maxSockets: opts.maxSocketsPerHost,
      maxFreeSockets: opts.maxSocketsPerHost,
      scheduling: 'lifo' as const,
    };
    this.httpAgent = new http.Agent(agentOpts);
    this.httpsAgent = new https.Agent(agentOpts);
  }

  async post(req: PostRequest): Promise<HttpOutcome> {
    const first = await this.once(req);
    // A kept-alive socket the receiver closed just as we reused it: the request never reached it; try once on a fresh socket.
    if (first.kind === 'error' && (first as any).reusedReset) return this.once(req);
    return first;
  }

  /** Stops every request in flight (shutdown): each answers an `aborted:` error. */
  abortAll(): void {
    for (const r of this.active) r.destroy(new AbortedError());
  }

  close(): void {
    this.abortAll();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private once(req: PostRequest): Promise<HttpOutcome> {
    const started = performance.now();
    const latency = () => Math.max(0, Math.round(performance.now() - started));
    return new Promise<HttpOutcome>((resolve) => {
      let settled = false;
      const done = (o: HttpOutcome) => {
        if (settled) return;
        settled = true;
        endSpan(span, o.kind === 'response' ? o.statusCode : undefined, o.kind === 'error' ? { code: errorCode(o.error) } : undefined);
        clearTimeout(timer);
        this.active.delete(cr);
        resolve(o);
      };
      const t = this.target(req.url);
      if ('refused' in t) {
        settled = true;
        resolve({ kind: 'error', error: t.refused, refused: true, latencyMs: 0 });
        return;
      }
      const headers: Record<string, string> = {
        ...req.headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(req.body)),
        'User-Agent': this.opts.userAgent,
      };
      // a client span per attempt (tracing on), its `traceparent` added to the headers
      const span = startClientSpan('POST webhook', t.spanAttributes, headers, true);
      const cr = (t.secure ? https : http).request({
        protocol: t.protocol,
        hostname: t.hostname,
        port: t.port,
        path: t.path,
        method: 'POST',
        agent: t.secure ? this.httpsAgent : this.httpAgent,
        lookup: this.guardedLookup,
        headers,
      });
      this.active.add(cr);
      const timer = setTimeout(() => cr.destroy(new TimeoutError(req.timeoutMs)), req.timeoutMs);
      cr.on('error', (err: any) => {
        const refused = err instanceof TargetRefusedError || err?.code === 'ETARGETREFUSED';
        const o: HttpOutcome & { reusedReset?: boolean } = { kind: 'error', error: describe(err), refused, latencyMs: latency() };
        if (cr.reusedSocket && err?.code === 'ECONNRESET') o.reusedReset = true;
        done(o);
      });
      cr.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        let read = 0;
        const finish = () =>
          done({
            kind: 'response',
            statusCode: res.statusCode ?? 0,
            retryAfter: headerValue(res.headers['retry-after']),
            snippet: responseSnippet(Buffer.concat(chunks)),
            latencyMs: latency(),
          });
        res.on('data', (c: Buffer) => {
          read += c.length;
          if (kept < SNIPPET_MAX_BYTES + 4) {
            chunks.push(c.subarray(0, SNIPPET_MAX_BYTES + 4 - kept));
            kept += Math.min(c.length, SNIPPET_MAX_BYTES + 4 - kept);
          }
          if (read > MAX_READ_BYTES) {
            res.destroy();
            finish();
          }
        });
        res.on('end', finish);
        res.on('error', () => finish());
        res.on('close', finish);
      });
      cr.end(req.body);
    });
  }

  /**
   * The URL read once: parsed, and an address literal judged by the policy (the verdict depends on
   * the address and this transport's setting only). A name is judged on every new connection, by
   * {@link guardedLookup}. Parsing and judging each send was about 4 % of the worker's CPU.
   */
  private target(url: string): Target | Unsendable {
    const known = this.targets.get(url);
    if (known) return known;
    let t: Target | Unsendable;
    try {
      const u = new URL(url);
      const hostname = stripBrackets(u.hostname);
      const verdict = isIpLiteral(u.hostname) ? judgeAddress(hostname, this.opts.allowPrivateTargets) : { allowed: true as const };
      if (!verdict.allowed) t = { refused: new TargetRefusedError(verdict.range).message };
      else {
        const secure = u.protocol === 'https:';
        const port = u.port || (secure ? 443 : 80);
        const spanAttributes = Object.freeze({ 'http.request.method': 'POST', 'server.address': hostname, 'server.port': Number(port) });
        t = { secure, protocol: u.protocol, hostname, port, path: `${u.pathname}${u.search}`, spanAttributes };
      }
    } catch {
      t = { refused: 'invalid_url' };
    }
    if (this.targets.size < TARGETS_KEPT) this.targets.set(url, t);
    return t;
  }

  /** dns.lookup, refusing the whole answer when any address is not allowed. */
  private readonly guardedLookup = (hostname: string, options: any, callback: (...a: any[]) => void): void => {
    dnsLookup(hostname, options, (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (err) return callback(err, address, family);
      const list = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
      for (const a of list) {
        const v = judgeAddress(a.address, this.opts.allowPrivateTargets);
        if (!v.allowed) return callback(new TargetRefusedError(v.range), address, family);
      }
      callback(null, address, family);
    });
  };
}

/** The code at the head of an outcome's error (`ECONNREFUSED: …`, `timeout after …`), for the span. */
function errorCode(error: string): string {
  return /^[A-Za-z_]+/.exec(error)?.[0] ?? 'error';
}

function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}

function describe(err: any): string {
  if (err instanceof TargetRefusedError || err instanceof TimeoutError || err instanceof AbortedError) return err.message;
  const code = typeof err?.code === 'string' ? err.code : null;
  const msg = typeof err?.message === 'string' ? err.message : String(err);
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}
