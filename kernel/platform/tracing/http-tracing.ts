import { Context, context, defaultTextMapGetter, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isProbe } from '../logging/logger.options';
import { routeTemplate } from '../http/http-hooks';
import { activeTracer, PROPAGATOR, SAMPLED_ROOT, sampleRequestRoot } from './tracing';
import { traced } from './trace-id';

const CONTEXT = Symbol('otelContext');
const SPAN = Symbol('otelSpan');

type Traced = FastifyRequest & { [traced]?: Span; [CONTEXT]?: Context };
type TracedRaw = IncomingMessage & { [SPAN]?: Span };

/**
 * One server span per request (probes and scrapes excepted), continuing the caller's trace when
 * it sends a W3C `traceparent`. Named and tagged by route template (`POST /v1/payment-links/:id`),
 * never the raw path, query, headers or body. The span's context is made current for the hooks
 * and for the handler (re-entered before the handler when body parsing left it: parsing runs on
 * the socket's own async context), so outbound calls made by the request are its children.
 *
 * Installed only when tracing is on: off, requests pay nothing. A request with no caller trace is
 * first given the head decision ({@link sampleRequestRoot}: the sampler's ratio on one random
 * number); left out, it gets no span and no context, so it pays one random number, its log line
 * has no trace id and its outbound calls carry no `traceparent`. A caller's trace is continued
 * as the SDK's parent-based sampler says (a dropped one still propagates its not-sampled flag).
 * Attributes, status and the abort listener are only for spans that record.
 */
export function installTracingHooks(fastify: FastifyInstance): void {
  // Both slots on every request from its construction (Fastify request decorators), sampled or not:
  // set on a sampled tenth only, they gave requests two shapes, and the property reads of Fastify,
  // Nest and ours on every request had to tell the two apart (docs/decisions/request-cost.md).
  fastify.decorateRequest(traced, null);
  fastify.decorateRequest(CONTEXT, null);
  fastify.addHook('onRequest', (req, _reply, done) => {
    const tracer = activeTracer();
    if (!tracer || isProbe(req.url)) return done();
    let parent: Context;
    if (req.headers.traceparent !== undefined) parent = PROPAGATOR.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    else if (sampleRequestRoot()) parent = SAMPLED_ROOT;
    else return done(); // left out by the head decision: no span, no context, nothing to end
    const route = routeTemplate(req);
    // no attributes here: the samplers we offer decide on the trace id and the parent alone
    const span = tracer.startSpan(`${req.method} ${route}`, { kind: SpanKind.SERVER }, parent);
    if (span.isRecording()) {
      span.setAttributes({ 'http.request.method': req.method, 'http.route': route, 'url.scheme': req.protocol });
      // one shared listener, no closure and no `once` wrapper to remove: 'close' comes once per request
      (req.raw as TracedRaw)[SPAN] = span;
      req.raw.on('close', aborted);
    }
    const ctx = trace.setSpan(parent, span);
    (req as Traced)[traced] = span;
    (req as Traced)[CONTEXT] = ctx;
    context.with(ctx, done);
  });
  fastify.addHook('preHandler', (req, _reply, done) => {
    const ctx = (req as Traced)[CONTEXT];
    if (ctx && context.active() !== ctx) context.with(ctx, done);
    else done();
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const span = (req as Traced)[traced];
    if (span?.isRecording()) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', String(reply.statusCode));
      }
      span.end();
    }
    done();
  });
}

/** The client went away before the answer: the span ends failed (`aborted`), unless it already ended. */
function aborted(this: TracedRaw): void {
  const span = this[SPAN];
  if (!this.aborted || !span?.isRecording()) return;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', 'aborted');
  span.end();
}
