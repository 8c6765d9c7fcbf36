import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpTransport, isShutdownAbort } from './http-transport';

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 whose handler is the test's; its open sockets are destroyed on close. */
async function server(handler: http.RequestListener): Promise<{ port: number; url: string; close: () => Promise<void> }> {
  const s = http.createServer(handler);
  const sockets = new Set<import('node:net').Socket>();
  s.on('connection', (c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => {
      for (const c of sockets) c.destroy();
      return new Promise<void>((r) => s.close(() => r()));
    },
  };
}

/** A receiver that records each request's path, headers and body and answers 200. */
async function receiver(): Promise<{ port: number; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const rx = await server((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return { port: rx.port, seen, close: rx.close };
}

describe('HttpTransport targets (each URL read once, then reused)', () => {
  const post = (t: HttpTransport, url: string, body = '{"n":1}') =>
    t.post({ url, headers: { 'X-Service-Webhook-Id': 'wh_1' }, body, timeoutMs: 2000 });

  it('sends every request to its own URL, path and query included, the second time from the kept target too', async () => {
    const rx = await receiver();
    const t = new HttpTransport({ allowPrivateTargets: true, maxSocketsPerHost: 2, userAgent: 'test-agent' });
    try {
      const a = `http://127.0.0.1:${rx.port}/hooks/a?tenant=1`;
      const b = `http://127.0.0.1:${rx.port}/hooks/b`;
      for (const url of [a, b, a, b]) expect(await post(t, url, `{"to":"${url}"}`)).toMatchObject({ kind: 'response', statusCode: 200 });
      expect(rx.seen.map((s) => s.path)).toEqual(['/hooks/a?tenant=1', '/hooks/b', '/hooks/a?tenant=1', '/hooks/b']);
      for (const s of rx.seen) {
        expect(s.headers['content-type']).toBe('application/json');
        expect(s.headers['content-length']).toBe(String(Buffer.byteLength(s.body)));
        expect(s.headers['user-agent']).toBe('test-agent');
        expect(s.headers['x-service-webhook-id']).toBe('wh_1');
      }
    } finally {
      t.close();
      await rx.close();
    }
  });

  it('refuses a private address literal every time it is asked, without connecting', async () => {
    const rx = await receiver();
    const t = new HttpTransport({ allowPrivateTargets: false, maxSocketsPerHost: 2, userAgent: 'test-agent' });
    try {
      for (let i = 0; i < 2; i++) {
        expect(await post(t, `http://127.0.0.1:${rx.port}/hooks`)).toEqual({
          kind: 'error',
          error: 'target_not_allowed: the destination resolves to a loopback address',
          refused: true,
          latencyMs: 0,
        });
        expect(await post(t, `http://[::ffff:10.0.0.1]:${rx.port}/hooks`)).toMatchObject({ kind: 'error', refused: true });
      }
      expect(rx.seen).toEqual([]);
    } finally {
      t.close();
      await rx.close();
    }
  });

  it('answers invalid_url for what is not a URL, or not an http(s) one, every time', async () => {
    const t = new HttpTransport({ allowPrivateTargets: true, maxSocketsPerHost: 2, userAgent: 'test-agent' });
    try {
      for (let i = 0; i < 2; i++)
        for (const url of ['not a url', 'ftp://127.0.0.1/hooks', 'file:///etc/passwd'])
          expect(await post(t, url)).toEqual({ kind: 'error', error: 'invalid_url', refused: true, latencyMs: 0 });
    } finally {
      t.close();
    }
  });
});

describe('HttpTransport answers (what a receiver can do to a send)', () => {
  const transport = () => new HttpTransport({ allowPrivateTargets: true, maxSocketsPerHost: 2, userAgent: 'test-agent' });

  it('keeps the status, Retry-After and the first 1 KiB of an answer, and stops reading an endless one after 64 KiB', async () => {
    const rx = await server((req, res) => {
      req.resume();
      res.writeHead(503, { 'retry-after': '7' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      pump(); // never ends
    });
    const t = transport();
    try {
      const o = await t.post({ url: rx.url, headers: {}, body: '{}', timeoutMs: 5000 });
      expect(o).toMatchObject({ kind: 'response', statusCode: 503, retryAfter: '7' });
      if (o.kind !== 'response') throw new Error('unreachable');
      expect(o.snippet!.length).toBeLessThanOrEqual(1100);
      expect(o.snippet!.startsWith('xxxx')).toBe(true);
      expect(o.latencyMs).toBeLessThan(5000); // not the timeout: it gave up reading
    } finally {
      t.close();
      await rx.close();
    }
  });

  it('answers `timeout after N ms` when the receiver never answers, and `aborted:` for a send stopped by shutdown', async () => {
    const rx = await server((req) => req.resume()); // reads, never answers
    const t = transport();
    try {
      const o = await t.post({ url: rx.url, headers: {}, body: '{}', timeoutMs: 300 });
      expect(o).toMatchObject({ kind: 'error', error: 'timeout after 300 ms', refused: false });
      expect(o.latencyMs).toBeGreaterThanOrEqual(290);
      const pending = t.post({ url: rx.url, headers: {}, body: '{}', timeoutMs: 10000 });
      await new Promise((r) => setTimeout(r, 100));
      t.abortAll();
      const aborted = await pending;
      expect(aborted).toMatchObject({ kind: 'error', refused: false });
      expect(isShutdownAbort(aborted)).toBe(true);
    } finally {
      t.close();
      await rx.close();
    }
  });

  it('refuses a name that resolves to loopback when private targets are not allowed, and reports a refused connection by its code', async () => {
    const t = new HttpTransport({ allowPrivateTargets: false, maxSocketsPerHost: 2, userAgent: 'test-agent' });
    const open = transport();
    try {
      expect(await t.post({ url: 'http://localhost:9/hooks', headers: {}, body: '{}', timeoutMs: 2000 })).toMatchObject({
        kind: 'error',
        error: 'target_not_allowed: the destination resolves to a loopback address',
        refused: true,
      });
      const o = await open.post({ url: 'http://127.0.0.1:9/hooks', headers: {}, body: '{}', timeoutMs: 2000 });
      expect(o).toMatchObject({ kind: 'error', refused: false });
      if (o.kind === 'error') expect(o.error).toMatch(/ECONNREFUSED/);
    } finally {
      t.close();
      open.close();
    }
  });
});
