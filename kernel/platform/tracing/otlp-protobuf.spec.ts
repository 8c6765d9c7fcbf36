import { Attributes, AttributeValue, context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { FastProtobufTraceSerializer, retainedEncoderBytes } from './otlp-protobuf';

/** Spans as the SDK ends them (real `Span` objects), from tracers of two providers (two resources). */
function collect(): ReadableSpan[] {
  const ended: ReadableSpan[] = [];
  const processor: SpanProcessor = {
    onStart: () => undefined,
    onEnd: (s) => void ended.push(s),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  const a = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'payments', 'deployment.environment': 'prod', 'host.cpus': 2 }),
    spanProcessors: [processor],
  });
  const b = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'outro serviço ✓' }),
    spanProcessors: [processor],
  });
  const plain = a.getTracer('payments-platform');
  const versioned = a.getTracer('payments-db', '1.2.3', { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
  const other = b.getTracer('sandbox');

  const server = plain.startSpan('GET /v1/accounts/:id/limits', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  server.setAttributes({ 'http.request.method': 'GET', 'http.route': '/v1/accounts/:id/limits', 'url.scheme': 'http' });
  server.setAttribute('http.response.status_code', 200);
  server.end();

  // a caller's remote parent with trace state, a child in its context, events, links, every value kind
  const remote = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
    traceState: new TraceState('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7'),
  });
  const parent = versioned.startSpan('POST /v1/refunds', { kind: SpanKind.SERVER }, remote);
  const child = context.with(trace.setSpan(remote, parent), () =>
    versioned.startSpan('INSERT refunds', {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        empty: '',
        'ascii.long': 'x'.repeat(300),
        'utf8.short': 'ação — R$ 1.234,56',
        'utf8.long': 'ç'.repeat(200),
        'lone.surrogate': 'a\ud800b',
        'bool.true': true,
        'bool.false': false,
        'int.zero': 0,
        'int.127': 127,
        'int.128': 128,
        'int.2^31': 2 ** 31,
        'int.2^32+5': 2 ** 32 + 5,
        'int.2^53': 2 ** 53,
        'int.-1': -1,
        'int.-2^40': -(2 ** 40),
        double: 1.5,
        'double.neg': -0.25,
        'double.big': 2 ** 64,
        nan: NaN,
        inf: Infinity,
        strings: ['a', 'ç', ''],
        numbers: [1, 2.5, -3],
        bools: [true, false],
        'with.null': ['a', null as unknown as string, 'b'],
        none: [],
      },
      links: [
        {
          context: { traceId: 'ABCDEF0123456789abcdef0123456789', spanId: '00000000000000ff', traceFlags: TraceFlags.NONE, isRemote: true },
        },
        {
          context: {
            traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
            spanId: '00f067aa0ba902b7',
            traceFlags: TraceFlags.SAMPLED,
            traceState: new TraceState('k=v'),
          },
          attributes: { 'link.kind': 'follows', n: 3 },
        },
      ],
    }),
  );
  child.addEvent('retry', { attempt: 2, 'pix.e2e': 'E1234567820261127' });
  child.addEvent('no attributes');
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'falhou: conexão encerrada' });
  child.end();
  parent.setStatus({ code: SpanStatusCode.OK });
  parent.end();

  // a span whose body needs three length bytes, and one of another resource
  const big = other.startSpan('big', { kind: SpanKind.INTERNAL }, ROOT_CONTEXT);
  big.setAttribute('payload', 'y'.repeat(40_000));
  big.end();
  const internal = other.startSpan('job engine', {}, ROOT_CONTEXT);
  internal.end();
  return ended;
}

function same(spans: ReadableSpan[]): void {
  const ours = FastProtobufTraceSerializer.serializeRequest(spans)!;
  const sdk = ProtobufTraceSerializer.serializeRequest(spans)!;
  expect(ours.length).toBe(sdk.length);
  expect(Buffer.from(ours).equals(Buffer.from(sdk))).toBe(true);
}

describe('OTLP protobuf trace body', () => {
  const spans = collect();

  it("writes the SDK serializer's bytes: resources, scopes, parents, trace state, events, links, status, every value kind", () => {
    expect(spans).toHaveLength(5);
    same(spans);
  });

  it('writes each span alone, and an empty batch, the same way', () => {
    for (const s of spans) same([s]);
    same([]);
  });

  it('writes attribute kinds the SDK span refuses but the protocol has (bytes, key-value lists) the same way', () => {
    const s = spans[0];
    const withKinds = Object.create(s, {
      attributes: { value: { bytes: new Uint8Array([0, 1, 255]), map: { a: 1, b: 'ç', nested: { c: [true] } }, skipped: undefined } },
    }) as ReadableSpan;
    same([withKinds]);
  });

  it('keeps each body its own while the buffer is reused, and grows past 2 MB', () => {
    const first = FastProtobufTraceSerializer.serializeRequest([spans[0]])!;
    const copy = Buffer.from(first);
    // 30 and 60 × 40 KB: the resource's length takes three bytes, then four
    for (const n of [30, 60]) same(Array.from({ length: n }, () => spans[3]));
    expect(Buffer.from(first).equals(copy)).toBe(true);
    same([spans[0]]);
  });

  it('keeps at most 1 MB between exports: a batch of huge attributes does not pin its size', () => {
    FastProtobufTraceSerializer.serializeRequest([spans[0]]);
    expect(retainedEncoderBytes().buffer).toBe(64 * 1024);
    // 80 × 40 KB (the 'big' span): a 3.2 MB body, written whole, then the buffer is given back
    const body = FastProtobufTraceSerializer.serializeRequest(Array.from({ length: 80 }, () => spans[3]))!;
    expect(body.length).toBeGreaterThan(1 << 20);
    expect(retainedEncoderBytes().buffer).toBe(64 * 1024);
    same([spans[0]]);
  });

  /** spans[0] (the server span) with other span attributes. */
  const withAttributes = (attributes: Attributes): ReadableSpan =>
    Object.create(spans[0], { attributes: { value: attributes } }) as ReadableSpan;

  it('writes a pair it has kept the same way as one it has not: each value kind under one key, and a key over its length', () => {
    const key = 'pair.kinds';
    const long = 'k'.repeat(129);
    const values: AttributeValue[] = [1, '1', true, false, 0, 1.5, -2, 'ação', '', 'x'.repeat(128), 'x'.repeat(129)];
    // twice over: the first pass keeps each pair, the second writes the kept bytes
    for (let pass = 0; pass < 2; pass++) {
      for (const v of values) same([withAttributes({ [key]: v, [long]: v, 'http.route': '/v1/x', 'http.response.status_code': 200 })]);
      same(values.map((v) => withAttributes({ [key]: v })));
    }
  });

  it('keeps a bounded number of pairs: ids under one key, and many keys, are still written right once the slots are taken', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => withAttributes({ 'payment.id': `pay_${i.toString(36).padStart(20, '0')}` }));
    same(ids);
    same(ids);
    const keys = Array.from({ length: 5000 }, (_, i) => withAttributes({ [`k${i}.${'k'.repeat(100)}`]: 'v'.repeat(100) }));
    same(keys);
    same(keys);
    expect(retainedEncoderBytes().pairs).toBeLessThanOrEqual(128 * 1024);
  });

  it('reads the collector answer as the SDK does', () => {
    expect(FastProtobufTraceSerializer.deserializeResponse(new Uint8Array())).toEqual(
      ProtobufTraceSerializer.deserializeResponse(new Uint8Array()),
    );
  });
});
