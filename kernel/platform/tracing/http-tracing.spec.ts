import Fastify from 'fastify';
import { installTracingHooks } from './http-tracing';

// A request the sampler leaves out must have the shape of one it traces: the span slot is on
// every request from its construction (request decorators), not added to a sampled
// few, which would give requests two shapes for every property read on them to tell apart.
const LATE = Symbol('late'); // symbols are listed in the order they were added, after string keys

describe('tracing hooks: request shape', () => {
  it('every request carries the span slot from its construction, traced or not', async () => {
    const f = Fastify();
    installTracingHooks(f); // no tracer started: every request is left out
    f.get('/keys', (req) => {
      (req as unknown as Record<symbol, unknown>)[LATE] = 1; // a field added while the request runs
      return Reflect.ownKeys(req).map(String);
    });
    const keys = (await f.inject({ method: 'GET', url: '/keys' })).json<string[]>();
    await f.close();
    expect(keys).toContain('Symbol(otelSpan)');
    expect(keys.indexOf('Symbol(otelSpan)')).toBeLessThan(keys.indexOf('Symbol(late)'));
  });
});
