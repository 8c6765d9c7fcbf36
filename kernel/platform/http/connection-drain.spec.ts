import Fastify, { FastifyInstance } from 'fastify';
import { Agent, request } from 'node:http';
import { connect, Socket } from 'node:net';
import { drainConnectionsOnClose } from './connection-drain';

/**
 * What an HTTP server's close waits for, with and without the drain: Fastify as the apps build it
 * (`return503OnClosing`, `forceCloseConnections: 'idle'`), real sockets, a keep-alive client.
 */
async function server(drained: boolean, hold: Promise<void>): Promise<{ app: FastifyInstance; port: number; entered: Promise<void> }> {
  const app = Fastify({ return503OnClosing: true, forceCloseConnections: 'idle' });
  if (drained) drainConnectionsOnClose(app);
  // resolved once a request is in a handler: a close before that would find the connection idle
  // (a fixed wait was not enough on a loaded CI machine, where the close reset the connection)
  let enter!: () => void;
  const entered = new Promise<void>((r) => (enter = r));
  app.get('/held', async () => {
    enter();
    await hold;
    return { ok: true };
  });
  app.get('/streamed', async (_req, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/plain' });
    reply.raw.write('first part;');
    enter();
    await hold;
    reply.raw.end('last part');
    return reply;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port, entered };
}

/** Resolves with the close's duration, or null when it has not ended within `ms`. */
async function closeWithin(app: FastifyInstance, ms: number): Promise<number | null> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([app.close().then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  return ended ? Date.now() - t0 : null;
}

function silentConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

function get(port: number, path: string, agent: Agent): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('ConnectionDrain: an app closes when its work ends, not when its clients time out', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  it('a connection that sent nothing: cut at close (without the drain, close still waits a second later)', async () => {
    for (const drained of [true, false]) {
      const { app, port } = await server(drained, Promise.resolve());
      const s = await silentConnection(port);
      cleanup.push(() => s.destroy());
      const took = await closeWithin(app, 1000);
      if (drained) expect(took).not.toBeNull();
      else {
        expect(took).toBeNull(); // Node waits for the headers timeout (60 s or more)
        s.destroy();
        await app.close();
      }
    }
  });

  it('a request in flight at close: answered in full with Connection: close, and the close ends with it (without the drain, the kept-alive connection holds it)', async () => {
    for (const drained of [true, false]) {
      let release!: () => void;
      const { app, port, entered } = await server(drained, new Promise((r) => (release = r)));
      const agent = new Agent({ keepAlive: true });
      cleanup.push(() => agent.destroy());
      const answer = get(port, '/held', agent);
      await entered; // the request is in the handler
      const closing = closeWithin(app, 1500);
      setTimeout(release, 100);
      expect(await answer).toEqual({ status: 200, connection: drained ? 'close' : 'keep-alive', body: '{"ok":true}' });
      const took = await closing;
      if (drained) expect(took).not.toBeNull();
      else {
        expect(took).toBeNull();
        agent.destroy();
        await app.close();
      }
    }
  });

  it('an answer whose headers were out before the close: its connection ends once the answer has', async () => {
    let release!: () => void;
    const { app, port, entered } = await server(true, new Promise((r) => (release = r)));
    const agent = new Agent({ keepAlive: true });
    cleanup.push(() => agent.destroy());
    const answer = get(port, '/streamed', agent);
    await entered;
    const closing = closeWithin(app, 1500);
    setTimeout(release, 100);
    expect(await answer).toMatchObject({ status: 200, body: 'first part;last part' });
    expect(await closing).not.toBeNull();
  });
});
