import {
  Attributes,
  Context,
  context,
  createContextKey,
  defaultTextMapSetter,
  Link,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
  Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  Sampler,
  SamplingDecision,
  SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { PooledIdGenerator } from './id-generator';
import { LeanContext } from './lean-context';
import { RequestSpan, RequestSpanSource, SPAN_LIMITS } from './request-span';
import { protobufSpanExporter } from './otlp-exporter';
import { TracingConfig } from './tracing.config';

/**
 * The process's tracer while tracing is on, null otherwise. Every choke point (request hooks,
 * outbound clients, the job runner) tests it first: tracing off costs one property read.
 */
let active: { provider: NodeTracerProvider; tracer: Tracer; rootRatio: number; requests: RequestSpanSource } | null = null;

/** The only propagator: W3C `traceparent`/`tracestate` (no baggage: it would carry caller data along). */
export const PROPAGATOR = new W3CTraceContextPropagator();

export function activeTracer(): Tracer | null {
  return active?.tracer ?? null;
}

/** Set on the parent context of a root request span whose sampling was already decided (yes) by {@link sampleRequestRoot}. */
const SAMPLED_BY_REQUEST = createContextKey('payments.sampledByRequest');
/**
 * The parent of a request span that starts a trace the head decision kept. A lean context, so the
 * span's own context and everything set under it (children, suppression) are lean too.
 */
export const SAMPLED_ROOT: Context = LeanContext.ROOT.setValue(SAMPLED_BY_REQUEST, true);

/**
 * A root sampler that honours the request hook's head decision: a request span whose parent
 * context says it was kept is sampled, so the decision is not taken twice (a ratio applied twice
 * would be its square); every other root (job passes, webhook deliveries) is the configured one's.
 */
class RequestDecided implements Sampler {
  private static readonly KEPT: SamplingResult = { decision: SamplingDecision.RECORD_AND_SAMPLED };
  constructor(private readonly root: Sampler) {}
  shouldSample(ctx: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    return ctx.getValue(SAMPLED_BY_REQUEST) === true
      ? RequestDecided.KEPT
      : this.root.shouldSample(ctx, traceId, name, kind, attributes, links);
  }
  toString(): string {
    return `RequestDecided{${this.root.toString()}}`;
  }
}

/** The SDK's sampler for the config, and the share of requests without a caller's trace that are traced. */
function sampler(c: TracingConfig): { sampler: Sampler; rootRatio: number } {
  const ratio = new RequestDecided(new TraceIdRatioBasedSampler(c.samplerRatio));
  switch (c.sampler) {
    case 'always_on':
      return { sampler: new AlwaysOnSampler(), rootRatio: 1 };
    case 'always_off':
      return { sampler: new AlwaysOffSampler(), rootRatio: 0 };
    case 'traceidratio':
      return { sampler: ratio, rootRatio: c.samplerRatio };
    case 'parentbased_always_off':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), rootRatio: 0 };
    case 'parentbased_traceidratio':
      return { sampler: new ParentBasedSampler({ root: ratio }), rootRatio: c.samplerRatio };
    default:
      return { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), rootRatio: 1 };
  }
}

/**
 * The head decision for a request that carries no caller trace (no `traceparent`): whether it is
 * traced at all, taken before anything is made, so a request left out costs one random number
 * (no span, no context, no ids). A request with a caller trace is decided by the SDK's sampler.
 */
export function sampleRequestRoot(): boolean {
  const r = active?.rootRatio ?? 0;
  return r >= 1 || (r > 0 && Math.random() < r);
}

/**
 * The server span of a request that starts a trace the head decision kept ({@link sampleRequestRoot}),
 * made without the SDK's tracer ({@link RequestSpan}); its parent context is {@link SAMPLED_ROOT}.
 * Null when tracing is off.
 */
export function startRequestRoot(name: string, attributes: Attributes): Span | null {
  return active ? new RequestSpan(active.requests, name, attributes, SAMPLED_ROOT) : null;
}

/**
 * Starts the SDK (a batch processor over the OTLP/HTTP exporter the protocol names) and registers
 * it as the global provider, with the AsyncLocalStorage context manager and the W3C propagator.
 * Everything is taken from the config, so an app booted with its own environment (the tests)
 * gets exactly what it was given. False when another app of this process already started it.
 */
export function startTracing(c: TracingConfig): boolean {
  if (active || !c.enabled) return false;
  const exporterOptions = { url: c.url, headers: c.headers, timeoutMillis: c.timeoutMs };
  const exporter = c.protocol === 'http/json' ? new JsonExporter(exporterOptions) : protobufSpanExporter(exporterOptions);
  const chosen = sampler(c);
  const resource = defaultResource().merge(resourceFromAttributes({ ...c.resourceAttributes, [ATTR_SERVICE_NAME]: c.serviceName }));
  const ids = new PooledIdGenerator();
  const processor = new BatchSpanProcessor(exporter, c.batch);
  const provider = new NodeTracerProvider({
    resource,
    sampler: chosen.sampler,
    idGenerator: ids,
    spanLimits: SPAN_LIMITS,
    spanProcessors: [processor],
  });
  provider.register({ propagator: PROPAGATOR });
  const tracer = provider.getTracer('payments-platform');
  // the SDK tracer's own scope object: request spans are exported in its group
  const scope = (tracer as Tracer & { instrumentationScope: RequestSpanSource['scope'] }).instrumentationScope;
  active = { provider, tracer, rootRatio: chosen.rootRatio, requests: { processor, resource, scope, ids } };
  return true;
}

/** Exports what is left and unregisters everything (the next app of the process starts clean). */
export async function stopTracing(): Promise<void> {
  const was = active;
  if (!was) return;
  active = null;
  try {
    await was.provider.shutdown();
  } finally {
    trace.disable();
    context.disable();
    propagation.disable();
  }
}

/**
 * A client span for one outbound call, child of whatever span is current (the request's, the job
 * pass's), its context written into `headers` (when given) as `traceparent`. Null when tracing is
 * off, and when no span is current unless the call is the root of its own trace (`root`: a webhook
 * delivery attempt): a call made by a request the head decision left out is not traced either.
 * Attributes are the caller's: names of parties and operations, never URLs, bodies or credentials.
 */
export function startClientSpan(name: string, attributes: Attributes, headers?: Record<string, string>, root = false): Span | null {
  const tracer = active?.tracer;
  if (!tracer) return null;
  const parent = context.active();
  if (!root && trace.getSpan(parent) === undefined) return null;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
  if (headers) PROPAGATOR.inject(trace.setSpan(parent, span), headers, defaultTextMapSetter);
  return span;
}

/** Ends a client or server span: the answer's status, or the kind of failure (a code, never a message). Again: nothing. */
export function endSpan(span: Span | null, status?: number, error?: unknown): void {
  if (!span?.isRecording()) return;
  if (status) span.setAttribute('http.response.status_code', status);
  if (error !== undefined || (status !== undefined && status >= 500)) failed(span, error, status);
  span.end();
}

/**
 * One background job pass as the root of its own trace (a pass serves many requests' work, so it
 * is not the child of the one that kicked it); outbound calls made during the pass are its children.
 */
export function inJobSpan<T>(name: string, run: () => Promise<T>): Promise<T> {
  const tracer = active?.tracer;
  if (!tracer) return run();
  const span = tracer.startSpan(`job ${name}`, { root: true, kind: SpanKind.INTERNAL, attributes: { 'job.name': name } }, ROOT_CONTEXT);
  const end = (error?: unknown) => {
    if (error !== undefined) failed(span, error);
    span.end();
  };
  let pass: Promise<T>;
  try {
    pass = context.with(trace.setSpan(ROOT_CONTEXT, span), run);
  } catch (e) {
    end(e);
    return Promise.reject(e);
  }
  return pass.then(
    (v) => {
      // what the pass did, when it says (rows sent, claimed…): lets a collector drop idle passes
      if (typeof v === 'number') span.setAttribute('job.items', v);
      end();
      return v;
    },
    (e) => {
      end(e ?? 'error');
      throw e;
    },
  );
}

/** Marks a span failed with `error.type`: the status, the error's code or class name; never its message (messages can quote bodies). */
export function failed(span: Span, error?: unknown, status?: number): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', errorType(error, status));
}

function errorType(error: unknown, status?: number): string {
  if (status !== undefined && status >= 500) return String(status);
  const e = error as { code?: unknown; name?: unknown } | null | undefined;
  if (typeof e?.code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(e.code)) return e.code;
  if (typeof e?.name === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(e.name)) return e.name;
  return '_OTHER';
}
