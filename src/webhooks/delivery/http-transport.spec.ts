import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpTransport } from './http-transport';

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that records each request's path and headers and answers 200. */
async function receiver(): Promise<{ port: number; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
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

  it('answers invalid_url for what is not a URL, every time', async () => {
    const t = new HttpTransport({ allowPrivateTargets: true, maxSocketsPerHost: 2, userAgent: 'test-agent' });
    try {
      for (let i = 0; i < 2; i++)
        expect(await post(t, 'not a url')).toEqual({ kind: 'error', error: 'invalid_url', refused: true, latencyMs: 0 });
    } finally {
      t.close();
    }
  });
});
