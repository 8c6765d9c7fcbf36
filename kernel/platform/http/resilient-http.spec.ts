import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HealthRegistry } from '../health/health-registry';
import { MetricsService } from '../metrics/metrics.service';
import { BreakerRegistry } from '../resilience/breaker-registry';
import { ProviderCallError, ResilientHttp } from './resilient-http';

/** A real local HTTP party whose behaviour each test sets. */
class Party {
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void = (_q, _b, res) => void res.end('{}');
  connections = 0;
  requests = 0;
  private readonly sockets = new Set<Socket>();
  private server: Server = createServer((req, res) => {
    this.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.handler(req, Buffer.concat(chunks).toString('utf8'), res));
  });

  async start(): Promise<string> {
    this.server.on('connection', (s) => {
      this.connections++;
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

describe('ResilientHttp over real HTTP', () => {
  const party = new Party();
  let base: string;
  let http: ResilientHttp;
  let seq = 0;
  const op = () => `op${++seq}`; // a fresh breaker per test

  beforeAll(async () => {
    base = await party.start();
    http = new ResilientHttp(
      'party',
      { baseUrl: base, timeoutMs: 300, retryDelaysMs: [20, 20], headers: { 'x-party-key': 'k1' } },
      new BreakerRegistry(new MetricsService(), new HealthRegistry()),
    );
  });
  afterAll(() => party.stop());

  it('sends the JSON body and headers, answers the parsed JSON, and keeps one connection alive across calls', async () => {
    const seen: { method?: string; url?: string; key?: string; type?: string; body: string }[] = [];
    party.handler = (req, body, res) => {
      seen.push({ method: req.method, url: req.url, key: req.headers['x-party-key'] as string, type: req.headers['content-type'], body });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ echoed: JSON.parse(body || 'null') }));
    };
    const before = party.connections;
    const name = op();
    for (let i = 0; i < 5; i++) {
      await expect(
        http.call({ operation: name, method: 'POST', path: `/things?i=${i}`, body: { i, text: 'São Paulo' }, idempotent: true }),
      ).resolves.toEqual({ echoed: { i, text: 'São Paulo' } });
    }
    expect(seen[4]).toEqual({
      method: 'POST',
      url: '/things?i=4',
      key: 'k1',
      type: 'application/json',
      body: '{"i":4,"text":"São Paulo"}',
    });
    expect(party.connections - before).toBe(1);
  });

  it("a 4xx is the party's answer: provider_rejected with status and body, not retried", async () => {
    party.handler = (_q, _b, res) => void res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"nope"}');
    const before = party.requests;
    const e = await http.call({ operation: op(), method: 'POST', path: '/x', body: {}, idempotent: true }).catch((x) => x);
    expect(e).toBeInstanceOf(ProviderCallError);
    expect(e).toMatchObject({ code: 'provider_rejected', status: 422, body: { error: 'nope' } });
    expect(party.requests - before).toBe(1);
  });

  it('a 5xx is retried on idempotent calls only, then provider_unavailable', async () => {
    party.handler = (_q, _b, res) => void res.writeHead(503).end('busy');
    let before = party.requests;
    await expect(http.call({ operation: op(), method: 'GET', path: '/x', idempotent: true })).rejects.toMatchObject({
      code: 'provider_unavailable',
    });
    expect(party.requests - before).toBe(3);
    before = party.requests;
    await expect(http.call({ operation: op(), method: 'POST', path: '/x', body: {}, idempotent: false })).rejects.toMatchObject({
      code: 'provider_unavailable',
    });
    expect(party.requests - before).toBe(1);
  });

  /**
   * A client with a quick breaker (opens on one failure, half-open after 200 ms), an operation
   * whose breaker a 503 has opened, and that breaker now half-open; the party then answers as
   * `then` says.
   */
  async function halfOpen(then: (res: ServerResponse) => void) {
    const breakers = new BreakerRegistry(new MetricsService(), new HealthRegistry());
    const quick = new ResilientHttp(
      'party',
      {
        baseUrl: base,
        timeoutMs: 2000,
        retryDelaysMs: [20, 20],
        breaker: { resetTimeoutMs: 200, errorThresholdPercentage: 50, volumeThreshold: 1 },
      },
      breakers,
    );
    const name = op();
    party.handler = (_q, _b, res) => void res.writeHead(503).end('down');
    await expect(quick.call({ operation: name, method: 'GET', path: '/x', idempotent: false })).rejects.toMatchObject({
      code: 'provider_unavailable',
    });
    expect(breakers.states()[`party.${name}`]).toBe('open');
    party.handler = (_q, _b, res) => then(res);
    await new Promise((r) => setTimeout(r, 250)); // past the reset timeout
    expect(breakers.states()[`party.${name}`]).toBe('half-open');
    return { quick, name, breakers };
  }

  it('behind a half-open breaker, calls wait for its one trial: a slow trial that succeeds lets them all through', async () => {
    // back, but each answer takes longer than the retries' 20 + 20 ms
    const { quick, name, breakers } = await halfOpen((res) => void setTimeout(() => res.end('{"ok":true}'), 300));
    const before = party.requests;
    const breaker = breakers.get(`party.${name}`, async () => null, { timeoutMs: 1 }); // the existing one
    const listening = breaker.listenerCount('close');
    const calls = Array.from({ length: 20 }, (_, i) =>
      quick.call({ operation: name, method: i % 2 ? 'POST' : 'PUT', path: `/x${i}`, body: {}, idempotent: i % 2 === 0 }),
    );
    await new Promise((r) => setTimeout(r, 100)); // the trial is in flight; the 19 others wait on it
    expect(breaker.listenerCount('close')).toBe(listening + 1); // one wait, not one per call
    await expect(Promise.all(calls)).resolves.toEqual(Array.from({ length: 20 }, () => ({ ok: true })));
    expect(party.requests - before).toBe(20); // the trial, then the 19 that waited for it: nothing sent twice
    expect(breakers.states()[`party.${name}`]).toBe('closed');
    breakers.shutdown();
  });

  it('behind a half-open breaker whose trial fails, the waiting calls fail at once without being sent', async () => {
    const { quick, name, breakers } = await halfOpen((res) => void setTimeout(() => res.writeHead(503).end('still down'), 150));
    const before = party.requests;
    const results = await Promise.allSettled(
      [1, 2, 3].map((i) => quick.call({ operation: name, method: 'GET', path: `/x${i}`, idempotent: true })),
    );
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const waited = results.slice(1).map((r) => (r as PromiseRejectedResult).reason);
    expect(waited).toEqual([
      expect.objectContaining({ code: 'provider_unavailable', mayHaveReached: false }),
      expect.objectContaining({ code: 'provider_unavailable', mayHaveReached: false }),
    ]);
    expect(party.requests - before).toBe(1); // only the trial reached the party
    expect(breakers.states()[`party.${name}`]).toBe('open');
    breakers.shutdown();
  });

  it('a party that never answers: provider_unavailable after the timeout, not later', async () => {
    party.handler = () => undefined; // holds the request open
    const t0 = Date.now();
    await expect(http.call({ operation: op(), method: 'GET', path: '/slow', idempotent: false })).rejects.toMatchObject({
      code: 'provider_unavailable',
    });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('a connection cut in the middle of the answer rejects instead of hanging', async () => {
    party.handler = (req, _b, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => req.socket.destroy(), 20);
    };
    await expect(http.call({ operation: op(), method: 'GET', path: '/cut', idempotent: false, timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'provider_unavailable',
    });
  });
});
