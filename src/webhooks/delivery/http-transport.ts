/**
 * One POST to a receiver over undici's HTTP/1.1 client with a keep-alive pool per origin (see
 * docs/decisions/webhooks.md, "the webhook transport on undici"). The destination address is checked
 * when a socket is opened: a name is resolved by our own `lookup`, which refuses private,
 * loopback and link-local answers (unless allowed), so a public name that resolves to 10.0.0.1
 * or 169.254.169.254 is refused at send time, not only at registration; literal addresses are
 * checked before connecting. Redirects are not followed. The timeout covers connect, request and
 * reading the answer; only the first 1 KiB of the answer is kept.
 */
import { LookupAddress, lookup as dnsLookup } from 'node:dns';
import { Agent, Dispatcher } from 'undici';
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
  /** `scheme://host:port`: the pool the request goes to */
  origin: string;
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
  private readonly agent: Agent;
  /** how to stop each request in flight */
  private readonly active = new Set<() => void>();
  private readonly targets = new Map<string, Target | Unsendable>();

  constructor(private readonly opts: HttpTransportOptions) {
    this.agent = new Agent({
      connections: opts.maxSocketsPerHost,
      pipelining: 1,
      // the request's own timer (timeoutMs) bounds every phase; these only back it up
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { lookup: this.guardedLookup },
    });
  }

  /** One attempt. The outcome is always an answer or an error, never a rejection. */
  async post(req: PostRequest): Promise<HttpOutcome> {
    const t = this.target(req.url);
    if ('refused' in t) return { kind: 'error', error: t.refused, refused: true, latencyMs: 0 };
    const started = performance.now();
    const latency = () => Math.max(0, Math.round(performance.now() - started));
    const headers: Record<string, string> = { ...req.headers, 'Content-Type': 'application/json', 'User-Agent': this.opts.userAgent };
    // a client span per attempt (tracing on), its `traceparent` added to the headers
    const span = startClientSpan('POST webhook', t.spanAttributes, headers, true);
    const ac = new AbortController();
    let cause: TimeoutError | AbortedError | null = null;
    const timer = setTimeout(() => {
      cause = new TimeoutError(req.timeoutMs);
      ac.abort(cause);
    }, req.timeoutMs);
    const stop = () => {
      cause ??= new AbortedError();
      ac.abort(cause);
    };
    this.active.add(stop);
    let o: HttpOutcome;
    try {
      const res = await this.agent.request({ origin: t.origin, path: t.path, method: 'POST', headers, body: req.body, signal: ac.signal });
      const snippet = await readSnippet(res.body);
      o = {
        kind: 'response',
        statusCode: res.statusCode,
        retryAfter: headerValue(res.headers['retry-after']),
        snippet: responseSnippet(snippet),
        latencyMs: latency(),
      };
    } catch (err: any) {
      const e = cause ?? err;
      o = {
        kind: 'error',
        error: describe(e),
        refused: e instanceof TargetRefusedError || e?.code === 'ETARGETREFUSED',
        latencyMs: latency(),
      };
    }
    clearTimeout(timer);
    this.active.delete(stop);
    endSpan(span, o.kind === 'response' ? o.statusCode : undefined, o.kind === 'error' ? { code: errorCode(o.error) } : undefined);
    return o;
  }

  /** Stops every request in flight (shutdown): each answers an `aborted:` error. */
  abortAll(): void {
    for (const stop of this.active) stop();
  }

  close(): void {
    this.abortAll();
    void this.agent.destroy().catch(() => undefined);
  }

  /**
   * The URL read once: parsed, and an address literal judged by the policy (the verdict depends on
   * the address and this transport's setting only). A name is judged on every new connection, by
   * {@link guardedLookup}. Parsing and judging on each send was about 4 % of the worker's profile by self
   * time; with the headers copied once instead of twice, the worker's CPU per delivery fell 12–18 %.
   */
  private target(url: string): Target | Unsendable {
    const known = this.targets.get(url);
    if (known) return known;
    const t = this.read(url);
    if (this.targets.size < TARGETS_KEPT) this.targets.set(url, t);
    return t;
  }

  /** What {@link target} keeps for a URL: where to send, or why not (a URL that does not parse, or is not http(s), is `invalid_url`). */
  private read(url: string): Target | Unsendable {
    const u = URL.parse(url);
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) return { refused: 'invalid_url' };
    const hostname = stripBrackets(u.hostname);
    const verdict = isIpLiteral(u.hostname) ? judgeAddress(hostname, this.opts.allowPrivateTargets) : { allowed: true as const };
    if (!verdict.allowed) return { refused: new TargetRefusedError(verdict.range).message };
    const port = u.port || (u.protocol === 'https:' ? 443 : 80);
    const spanAttributes = Object.freeze({ 'http.request.method': 'POST', 'server.address': hostname, 'server.port': Number(port) });
    return { origin: u.origin, path: `${u.pathname}${u.search}`, spanAttributes };
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

/**
 * Reads the answer's body for its first bytes: at most SNIPPET_MAX_BYTES + 4 kept, and at most
 * MAX_READ_BYTES read before the connection is dropped (a hostile receiver cannot stream forever).
 * A body that fails midway still gives what came.
 */
function readSnippet(body: Dispatcher.ResponseData['body']): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let read = 0;
    const finish = () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    body.on('data', (c: Buffer) => {
      read += c.length;
      if (kept < SNIPPET_MAX_BYTES + 4) {
        const part = c.subarray(0, SNIPPET_MAX_BYTES + 4 - kept);
        chunks.push(part);
        kept += part.length;
      }
      if (read > MAX_READ_BYTES) {
        body.destroy();
        finish();
      }
    });
    body.on('end', finish);
    body.on('error', finish);
    body.on('close', finish);
  });
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
