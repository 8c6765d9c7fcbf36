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

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.calls++;
    if (this.mode === 'down' || !this.target) {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      return;
    }
    const url = new URL(req.url ?? '/', this.target);
    const up = request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}
