import { Attributes, Context, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { PooledIdGenerator } from './id-generator';
import { LeanContext } from './lean-context';
import { FastProtobufTraceSerializer } from './otlp-protobuf';
import { RequestSpan, SPAN_LIMITS } from './request-span';

/** A provider as `startTracing` makes one (our limits and ids), whose processor records what it is given. */
function setup() {
  const started: [ReadableSpan, Context][] = [];
  const ended: ReadableSpan[] = [];
  const processor: SpanProcessor = {
    onStart: (s, ctx) => void started.push([s as unknown as ReadableSpan, ctx]),
    onEnd: (s) => void ended.push(s),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  const resource = resourceFromAttributes({ 'service.name': 'payments' });
  const ids = new PooledIdGenerator();
  const provider = new NodeTracerProvider({ resource, idGenerator: ids, spanLimits: SPAN_LIMITS, spanProcessors: [processor] });
  const tracer = provider.getTracer('payments-platform');
  const scope = (tracer as unknown as { instrumentationScope: RequestSpan['instrumentationScope'] }).instrumentationScope;
  const source = { processor, resource, scope, ids };
  return { started, ended, tracer, source };
}

/** The same calls on any span: what a request's hooks, handlers and error paths can do to theirs. */
function exercise(span: Span): void {
  span.setAttribute('http.response.status_code', 201);
  span.setAttribute('', 'empty key');
  span.setAttribute('bad.value', { nested: true } as never);
  span.setAttribute('skipped', undefined as never);
  span.setAttribute('http.route', '/v1/other'); // an existing key replaced, not counted twice
  span.setAttributes({ 'list.ok': ['a', 'b'], 'list.mixed': ['a', 1] as never, 'n.float': 1.5, 'b.false': false });
  for (let i = 0; i < 130; i++) span.addEvent(`e${i}`);
  for (let i = 0; i < 130; i++) span.setAttribute(`extra.${i}`, i); // over the 128 limit: the rest dropped
  span.addEvent('plain');
  span.addEvent('with attributes', { 'event.n': 1, 'event.bad': null as never });
  span.addEvent('at a date', new Date(Date.now() - 5));
  span.addEvent('at a time', { 'event.k': 'v' }, [Math.floor(Date.now() / 1000), 123]);
  span.addLink({ context: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED } });
  span.addLinks([
    {
      context: { traceId: '0af7651916cd43dd8448eb211c80319d', spanId: 'b7ad6b7169203332', traceFlags: 0 },
      attributes: { 'link.kind': 'retry' },
    },
  ]);
  span.recordException(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }));
  span.recordException('plain message');
  span.setStatus({ code: SpanStatusCode.UNSET }); // ignored
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  span.updateName('POST /v1/renamed');
}

/** What an exporter sees of a span, with its ids and clock readings taken out. */
function shape(s: ReadableSpan) {
  return {
    name: s.name,
    kind: s.kind,
    parent: s.parentSpanContext,
    traceFlags: s.spanContext().traceFlags,
    traceState: s.spanContext().traceState,
    attributes: s.attributes,
    droppedAttributesCount: s.droppedAttributesCount,
    events: s.events.map((e) => ({ ...e, time: undefined })),
    droppedEventsCount: s.droppedEventsCount,
    links: s.links,
    droppedLinksCount: s.droppedLinksCount,
    status: s.status,
    ended: s.ended,
    resource: s.resource,
    scope: s.instrumentationScope,
  };
}

describe('RequestSpan: the server span of a kept request, made without the SDK tracer', () => {
  const attributes: Attributes = { 'http.request.method': 'POST', 'http.route': '/v1/payment-links', 'url.scheme': 'http' };

  it('gives the exporter what the SDK span gives for the same calls, and the processor the same starts and ends', () => {
    const { started, ended, tracer, source } = setup();
    const sdk = tracer.startSpan('POST /v1/payment-links', { kind: SpanKind.SERVER, attributes }, ROOT_CONTEXT);
    const ours = new RequestSpan(source, 'POST /v1/payment-links', attributes, ROOT_CONTEXT);
    expect(started.map(([s]) => s)).toEqual([sdk, ours]);
    for (const s of [sdk, ours]) exercise(s);
    for (const s of [sdk, ours]) s.end();
    expect(ended).toEqual([sdk, ours]);
    expect(shape(ours)).toEqual(shape(sdk as unknown as ReadableSpan));
    expect(ours.droppedAttributesCount).toBeGreaterThan(0);
    expect(ours.spanContext()).toEqual({
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      traceFlags: TraceFlags.SAMPLED,
    });
    expect(trace.isSpanContextValid(ours.spanContext())).toBe(true);

    // both encoders take it as one of the SDK's: one resource, one scope, two spans
    const body = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(ended)));
    expect(body.resourceSpans).toHaveLength(1);
    expect(body.resourceSpans[0].scopeSpans).toHaveLength(1);
    const [a, b] = body.resourceSpans[0].scopeSpans[0].spans;
    const strip = (x: Record<string, unknown>) => ({
      ...x,
      traceId: 0,
      spanId: 0,
      startTimeUnixNano: 0,
      endTimeUnixNano: 0,
      events: (x.events as object[]).map((e) => ({ ...e, timeUnixNano: 0 })),
    });
    expect(strip(b)).toEqual(strip(a));
    // our protobuf encoder writes the pair as the SDK's protobuf serializer does, byte for byte
    expect(Buffer.from(FastProtobufTraceSerializer.serializeRequest(ended)!)).toEqual(
      Buffer.from(ProtobufTraceSerializer.serializeRequest(ended)!),
    );
  });

  it('a span given nothing but its attributes exports as the SDK span does (no events, no links)', () => {
    const { ended, tracer, source } = setup();
    const sdk = tracer.startSpan('GET /v1/limits', { kind: SpanKind.SERVER, attributes }, ROOT_CONTEXT);
    const ours = new RequestSpan(source, 'GET /v1/limits', attributes, ROOT_CONTEXT);
    for (const s of [sdk, ours]) s.setAttribute('http.response.status_code', 200);
    for (const s of [sdk, ours]) s.end();
    expect(shape(ours)).toEqual(shape(sdk as unknown as ReadableSpan));
    const body = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(ended)));
    const [a, b] = body.resourceSpans[0].scopeSpans[0].spans;
    const strip = (x: Record<string, unknown>) => ({ ...x, traceId: 0, spanId: 0, startTimeUnixNano: 0, endTimeUnixNano: 0 });
    expect(strip(b)).toEqual(strip(a));
    // our protobuf encoder writes the pair as the SDK's protobuf serializer does, byte for byte
    expect(Buffer.from(FastProtobufTraceSerializer.serializeRequest(ended)!)).toEqual(
      Buffer.from(ProtobufTraceSerializer.serializeRequest(ended)!),
    );
  });

  it('keeps the times the SDK span keeps: the start on the wall clock, the end and duration on the monotonic one', async () => {
    const { source } = setup();
    const before = Date.now();
    const span = new RequestSpan(source, 'GET /x', {}, ROOT_CONTEXT);
    await new Promise((r) => setTimeout(r, 30));
    span.addEvent('later');
    span.end();
    const start = hrTimeToMilliseconds(span.startTime);
    const end = hrTimeToMilliseconds(span.endTime);
    expect(start).toBeGreaterThanOrEqual(before);
    expect(start).toBeLessThanOrEqual(before + 5);
    expect(end - start).toBeGreaterThanOrEqual(29);
    expect(hrTimeToMilliseconds(span.duration)).toBeCloseTo(end - start, 3);
    expect(span.duration[1]).toBeLessThan(1e9);
    expect(hrTimeToMilliseconds(span.events[0].time)).toBeGreaterThanOrEqual(start + 29);
    // an end given before the start: the span's end is its start, as the SDK does
    const early = new RequestSpan(source, 'GET /y', {}, ROOT_CONTEXT);
    early.end(new Date(before - 60_000));
    expect(early.endTime).toEqual(early.startTime);
    expect(early.duration).toEqual([0, 0]);
  });

  it('after its end, changes nothing and is not recording; a second end is refused', () => {
    const { ended, source } = setup();
    const span = new RequestSpan(source, 'GET /x', { a: 1 }, ROOT_CONTEXT);
    expect(span.isRecording()).toBe(true);
    span.end();
    const was = JSON.stringify(shape(span));
    exercise(span);
    span.end();
    expect(span.isRecording()).toBe(false);
    expect(JSON.stringify(shape(span))).toBe(was);
    expect(ended).toHaveLength(1);
  });

  it('an OK status is final, as the SDK has it', () => {
    const { source } = setup();
    const span = new RequestSpan(source, 'GET /x', {}, ROOT_CONTEXT);
    span.setStatus({ code: SpanStatusCode.OK });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'late' });
    expect(span.status).toEqual({ code: SpanStatusCode.OK });
  });
});

describe('LeanContext: the API context semantics, one entry per set', () => {
  it('answers every get as the API root context does, through sets, overrides and deletes', () => {
    const [a, b, c] = [Symbol('a'), Symbol('b'), Symbol('c')];
    const steps: ((x: Context) => Context)[] = [
      (x) => x.setValue(a, 1),
      (x) => x.setValue(b, 'two'),
      (x) => x.setValue(a, 3),
      (x) => x.deleteValue(b),
      (x) => x.setValue(c, undefined),
      (x) => x.setValue(b, null),
      (x) => x.deleteValue(a),
      (x) => x.deleteValue(c),
    ];
    let lean = LeanContext.ROOT;
    let api = ROOT_CONTEXT;
    for (const step of steps) {
      const [leanBefore, apiBefore] = [lean, api];
      [lean, api] = [step(lean), step(api)];
      for (const k of [a, b, c]) {
        expect(lean.getValue(k)).toBe(api.getValue(k));
        expect(leanBefore.getValue(k)).toBe(apiBefore.getValue(k)); // immutable: the parent is unchanged
      }
    }
  });

  it("carries the span and the caller's trace as the API's helpers read them", () => {
    const span = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 });
    const ctx = trace.setSpan(LeanContext.ROOT, span);
    expect(trace.getSpan(ctx)).toBe(span);
    expect(trace.getSpan(trace.deleteSpan(ctx))).toBeUndefined();
    expect(trace.getSpan(LeanContext.ROOT)).toBeUndefined();
  });
});
