import { Context, context, defaultTextMapGetter, ROOT_CONTEXT, Span, SpanKind, trace } from '@opentelemetry/api';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isProbe } from '../logging/logger.options';
import { routeTemplate } from '../http/http-hooks';
import { activeTracer, endSpan, PROPAGATOR, SAMPLED_ROOT, sampleRequestRoot } from './tracing';
import { traced } from './trace-id';

/** The span a response ends, on the response (the request's own slot is {@link traced}). */
const SPAN = Symbol('otelResponseSpan');

type Traced = FastifyRequest & { [traced]?: Span };
type TracedResponse = ServerResponse & { [SPAN]?: Span };

/**
 * One server span per request (probes and scrapes excepted), continuing the caller's trace when
 * it sends a W3C `traceparent`. Named and tagged by route template (`POST /v1/payment-links/:id`),
 * never the raw path, query, headers or body. The span's context is made current in the first
 * hook, for the other hooks and the handler, so outbound calls and statements made by the request
 * are its children. A body read later (its packets after the headers) does not lose it: Fastify
 * runs what follows the body's parsing in the async scope the request had when parsing began
 * (tracing.e2e-spec.ts sends a body 100 ms after its headers).
 *
 * Installed only when tracing is on: off, requests pay nothing. A request with no caller trace is
 * first given the head decision ({@link sampleRequestRoot}: the sampler's ratio on one random
 * number); left out, it gets no span and no context, so it pays one random number and one hook,
 * its log line has no trace id and its outbound calls carry no `traceparent`. A caller's trace is
 * continued as the SDK's parent-based sampler says (a dropped one still propagates its not-sampled
 * flag). A span that records is ended by its response's `close` (answered, or the client gone
 * first: `aborted`), a listener on that request alone, so the requests left out pass no
 * response hook of tracing's.
 */
export function installTracingHooks(fastify: FastifyInstance): void {
  // The slot on every request from its construction (a Fastify request decorator), sampled or not:
  // set on a sampled tenth only, it gave requests two shapes, and the property reads of Fastify,
  // Nest and ours on every request had to tell the two apart (docs/decisions/request-cost.md).
  fastify.decorateRequest(traced, null);
  fastify.addHook('onRequest', (req, reply, done) => {
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
      // one shared listener, no closure and no `once` wrapper to remove: 'close' comes once per response
      (reply.raw as TracedResponse)[SPAN] = span;
      reply.raw.on('close', ended);
    }
    const ctx = trace.setSpan(parent, span);
    (req as Traced)[traced] = span;
    context.with(ctx, done);
  });
}

/** A client gone before the answer was sent: the span's `error.type`. */
const ABORTED = { code: 'aborted' };

/**
 * The response is over: its status on the span (failed at 5xx), or failed (`aborted`) when the
 * client went away before the answer was sent. Once: a span that already ended does not record.
 */
function ended(this: TracedResponse): void {
  if (this.writableFinished) endSpan(this[SPAN] ?? null, this.statusCode);
  else endSpan(this[SPAN] ?? null, undefined, ABORTED);
}
