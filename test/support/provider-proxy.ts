import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A switchable HTTP hop between the service and its provider (the sandbox bank): `up` forwards,
 * `down` answers 503 like a provider in trouble. It is started before the app (PROVIDER_URL must
 * be known at boot) and pointed at the app once it listens.
 */
export class ProviderProxy {
  private server: Server;
  target = '';
  mode: 'up' | 'down' = 'up';
  calls = 0;
  /** When set, answers a request itself when the rule returns an answer (status and JSON body); else forwards. */
  rule: ((req: IncomingMessage, body: string) => { status: number; body: unknown } | null) | null = null;
  /** When set, every forwarded exchange is recorded here (request and answer bodies as text). */
  exchanges: Exchange[] | null = null;
  /**
   * With `exchanges`: called with each recorded exchange before its answer goes back; it may wait
   * (an answer that arrives late) or answer something else (an answer lost on the way back).
   */
  onAnswer: ((e: Exchange) => Promise<{ status: number; body: unknown } | void> | { status: number; body: unknown } | void) | null = null;

  /** While set, requests wait here before they are forwarded (deliveries held back until the test lets them go). */
  gate: Promise<void> | null = null;

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.calls++;
    if (this.gate) {
      void this.gate.then(() => this.pass(req, res));
      return;
    }
    this.pass(req, res);
  }

  private pass(req: IncomingMessage, res: ServerResponse): void {
    if (this.mode === 'down' || !this.target) {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      return;
    }
    if (this.rule || this.exchanges) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const answer = this.rule?.(req, body.toString('utf8')) ?? null;
        if (answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
          return;
        }
        this.forward(req, res, body);
      });
      return;
    }
    this.forward(req, res);
  }

  private forward(req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
    const url = new URL(req.url ?? '/', this.target);
    const up = request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (r) => {
      if (!this.exchanges) {
        res.writeHead(r.statusCode ?? 502, r.headers);
        return void r.pipe(res);
      }
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', async () => {
        const answer = Buffer.concat(chunks);
        const e: Exchange = {
          method: req.method ?? '',
          path: url.pathname,
          headers: req.headers as Record<string, string>,
          request: body?.toString('utf8') ?? '',
          status: r.statusCode ?? 0,
          answer: answer.toString('utf8'),
        };
        this.exchanges?.push(e);
        const other = await this.onAnswer?.(e);
        if (other) res.writeHead(other.status, { 'content-type': 'application/json' }).end(JSON.stringify(other.body));
        else {
          const { 'transfer-encoding': _chunked, ...headers } = r.headers;
          res.writeHead(r.statusCode ?? 502, { ...headers, 'content-length': String(answer.length) }).end(answer);
        }
      });
    });
    up.on('error', () => res.writeHead(502).end());
    if (body) up.end(body);
    else req.pipe(up);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  request: string;
  status: number;
  answer: string;
}
