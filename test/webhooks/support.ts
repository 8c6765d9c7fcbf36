import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { EventPublisher, OutboundEvent } from '../../src/webhooks/event-publisher';
import { WebhookEndpointsService } from '../../src/webhooks/endpoints/endpoints.service';
import { http, TestApp } from '../support/test-app';
import { transaction } from '../../kernel/platform/database/sql';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang' | 'destroy';

/** A real HTTP receiver on 127.0.0.1 that records every request; `answer` decides each reply. */
export class Receiver {
  readonly received: Received[] = [];
  answer: (r: Received) => Answer | Promise<Answer> = () => ({ status: 200, body: '{"ok":true}' });
  private server: Server | null = null;
  private readonly sockets = new Set<import('node:net').Socket>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(port = 0): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  /** Closes the server and every connection (the receiver is "down"; the port stays known). */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    for (const sock of this.sockets) sock.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }

  ids(): string[] {
    return this.received.map((r) => String(r.headers['x-service-webhook-id']));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const r: Received = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    this.received.push(r);
    const a = await this.answer(r);
    if (a === 'hang') return;
    if (a === 'destroy') {
      req.socket.destroy();
      return;
    }
    res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
    res.end(a.body ?? '');
  }
}

export async function createTenant(t: TestApp, name = 'Webhook Tenant'): Promise<string> {
  const r = await http(t.url, 'POST', '/admin/tenants', { name, allowedCidrs: ['127.0.0.1'] }, { 'X-Admin-Key': t.adminKey });
  if (r.status !== 201) throw new Error(`tenant create failed: ${r.status} ${r.text}`);
  return r.body.tenantId;
}

/** Publishes events through the app's EventPublisher, all in one transaction (as a feature would). */
export async function publish(t: TestApp, events: OutboundEvent[]): Promise<void> {
  const ds = t.app.get(DataSource);
  const publisher = t.app.get(EventPublisher);
  await transaction(ds, async (m) => {
    for (const e of events) await publisher.publish(m, e);
  });
}

export function endpoints(t: TestApp): WebhookEndpointsService {
  return t.app.get(WebhookEndpointsService);
}

export function acquiringEvent(tenantId: string, n: number, type = 'acquiring.financial_transaction'): OutboundEvent {
  return { tenantId, domain: 'acquiring', type, data: { n, amount: 1000 + n, method: 'PIX', payer: 'João' } };
}

export function pixEvent(tenantId: string, n: number, type = 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED'): OutboundEvent {
  return { tenantId, domain: 'pix-automatic', type, idTx: `RR${String(n).padStart(8, '0')}`, data: { n, amount: 990 } };
}

/** Polls `check` until it returns true (bounded). */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15000, everyMs = 25): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Fast settings for tests: short timeout, lease and breaker reset; a quick poll. */
export const FAST_ENV: Record<string, string> = {
  // Every replica of one database must share the key that encrypts stored secrets.
  WEBHOOK_SECRETS_KEY: 'test-webhook-secrets-key-0123456789abcdef',
  WEBHOOK_POLL_INTERVAL_MS: '20',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MARGIN_MS: '500',
  WEBHOOK_BREAKER_RESET_MS: '300',
};
