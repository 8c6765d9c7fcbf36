import { createServer, Server } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import { selfOrigin, whenListening } from './self-origin';

/** What the two helpers read of Nest: the adapter's HTTP server. */
const hostOf = (server: Server) => ({ httpAdapter: { getHttpServer: () => server } }) as unknown as HttpAdapterHost;

function listen(server: Server, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false)); // no IPv6 on this machine
    server.listen(0, host, () => resolve(true));
  });
}

describe('selfOrigin: the origin this server is reached at, from its socket', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  const served = () => {
    const s = createServer((_req, res) => res.end('here'));
    servers.push(s);
    return s;
  };

  it.each([
    ['127.0.0.1', /^http:\/\/127\.0\.0\.1:\d+$/],
    ['0.0.0.0', /^http:\/\/127\.0\.0\.1:\d+$/],
    ['::', /^http:\/\/\[::1\]:\d+$/],
    ['::1', /^http:\/\/\[::1\]:\d+$/],
  ])('listening on %s: %s, and a request to it is answered', async (host, shape) => {
    const s = served();
    if (!(await listen(s, host))) return; // this machine has no IPv6 loopback
    const origin = selfOrigin(hostOf(s));
    expect(origin).toMatch(shape);
    await expect((await fetch(origin)).text()).resolves.toBe('here');
  });

  it('before listen it refuses to guess', () => {
    expect(() => selfOrigin(hostOf(served()))).toThrow(/not listening yet/);
  });

  it('whenListening resolves at listen, and at once for a server already listening', async () => {
    const s = served();
    let resolved = false;
    const waiting = whenListening(hostOf(s)).then(() => (resolved = true));
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
    await listen(s, '127.0.0.1');
    await waiting;
    expect(resolved).toBe(true);
    await expect(whenListening(hostOf(s))).resolves.toBeUndefined();
  });
});
