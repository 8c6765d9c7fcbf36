import { ROOT_CONTEXT } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, ReadableSpan } from '@opentelemetry/sdk-trace-node';
const { spansIn } = require('../../bench/auth-limits') as { spansIn: (body: Buffer) => number };

// The bench tools say what share of the spans reached the sink: spans the SDK dropped cost
// nothing and would make tracing look cheaper than it is.
describe('the bench sink counts the spans of an OTLP protobuf export', () => {
  it('across resources, scopes and attributes that nest messages', () => {
    const ended: ReadableSpan[] = [];
    const processor = {
      onStart: () => undefined,
      onEnd: (s: ReadableSpan) => void ended.push(s),
      forceFlush: async () => undefined,
      shutdown: async () => undefined,
    };
    const a = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'a' }), spanProcessors: [processor] });
    const b = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'b' }), spanProcessors: [processor] });
    for (const [tracer, n] of [
      [a.getTracer('one'), 3],
      [a.getTracer('two', '1.0.0'), 2],
      [b.getTracer('one'), 4],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const span = tracer.startSpan(`span ${i}`, { attributes: { 'http.route': '/v1/x', list: ['a', 'b'], n: i } }, ROOT_CONTEXT);
        span.addEvent('e', { k: 'v' });
        span.end();
      }
    }
    const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(ended)!);
    expect(spansIn(body)).toBe(9);
    expect(spansIn(Buffer.from(ProtobufTraceSerializer.serializeRequest(ended.slice(0, 1))!))).toBe(1);
    expect(spansIn(Buffer.alloc(0))).toBe(0);
  });
});
