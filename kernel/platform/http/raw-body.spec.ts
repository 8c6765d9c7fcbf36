import Fastify from 'fastify';
import { captureRawBody, WithRawBody } from './raw-body';

describe('captureRawBody: the exact bytes of one route', () => {
  const app = () => {
    const f = Fastify();
    captureRawBody(f, { method: 'POST', url: '/events' }, 64);
    const echo = (req: WithRawBody) => ({ raw: req.rawBody?.toString('utf8') ?? null, body: req.body as unknown });
    f.post('/events', async (req) => echo(req));
    f.post('/other', async (req) => echo(req));
    return f;
  };

  it('keeps the bytes as sent on its route, parses them as usual, and leaves other routes alone', async () => {
    const f = app();
    const payload = '{ "a" :1,\n "b": "ç" }';
    const on = await f.inject({ method: 'POST', url: '/events?x=1', headers: { 'content-type': 'application/json' }, payload });
    expect(on.json()).toEqual({ raw: payload, body: { a: 1, b: 'ç' } });
    const off = await f.inject({ method: 'POST', url: '/other', headers: { 'content-type': 'application/json' }, payload });
    expect(off.json()).toEqual({ raw: null, body: { a: 1, b: 'ç' } });
    await f.close();
  });

  it('refuses a body over the limit on its route with 413', async () => {
    const f = app();
    const res = await f.inject({
      method: 'POST',
      url: '/events',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(80) }),
    });
    expect(res.statusCode).toBe(413);
    await f.close();
  });

  it('fails the boot when its route is never registered (a typo would otherwise skip every HMAC check)', async () => {
    const f = Fastify();
    captureRawBody(f, { method: 'POST', url: '/nowhere' }, 64);
    f.post('/events', async () => ({}));
    await expect(f.ready()).rejects.toThrow('no route POST /nowhere');
  });
});
