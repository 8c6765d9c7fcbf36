import Fastify from 'fastify';
import { createServer } from 'node:http';
import { EnvReader } from '../config/env';
import { installTracingHooks } from './http-tracing';
import { startTracing, stopTracing } from './tracing';
import { tracingConfig } from './tracing.config';

// A request the sampler leaves out must have the shape of one it traces: the span slot is on
// every request from its construction (request decorators), not added to a sampled
// few, which would give requests two shapes for every property read on them to tell apart.
const LATE = Symbol('late'); // symbols are listed in the order they were added, after string keys

/** An app whose route answers the own keys of its Fastify request and of the raw response, as the handler sees them. */
function keysApp() {
  const f = Fastify();
  installTracingHooks(f);
  f.get('/keys', (req, reply) => {
    (req as unknown as Record<symbol, unknown>)[LATE] = 1; // a field added while the request runs
    return { req: Reflect.ownKeys(req).map(String), res: Reflect.ownKeys(reply.raw).map(String) };
  });
  return f;
}

describe('tracing hooks: request and response shape', () => {
  it('every request carries the span slot from its construction, traced or not', async () => {
    const f = keysApp(); // no tracer started: every request is left out
    const keys = (await f.inject({ method: 'GET', url: '/keys' })).json<{ req: string[] }>().req;
    await f.close();
    expect(keys).toContain('Symbol(otelSpan)');
    expect(keys.indexOf('Symbol(otelSpan)')).toBeLessThan(keys.indexOf('Symbol(late)'));
  });

  it('a traced request and its response have the same own keys as a left-out one (nothing added to the sampled few)', async () => {
    const f = keysApp();
    const left = (await f.inject({ method: 'GET', url: '/keys' })).json();
    // a collector that takes everything, so the traced request's span is exported for real
    const collector = createServer((req, res) => req.resume().on('end', () => res.end()));
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const { port } = collector.address() as { port: number };
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_TRACES_SAMPLER: 'always_on' };
    expect(startTracing(tracingConfig.read(new EnvReader(env, 'test', null)))).toBe(true);
    try {
      const traced = (await f.inject({ method: 'GET', url: '/keys' })).json();
      // the route template's slot is the app's HTTP hooks' (installHttpHooks decorates it on every request)
      traced.req = traced.req.filter((k: string) => k !== 'Symbol(routeTemplate)');
      expect(traced).toEqual(left);
    } finally {
      await f.close();
      await stopTracing();
      await new Promise((r) => collector.close(r));
    }
  });
});
