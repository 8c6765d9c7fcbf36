import { Context, context, defaultTextMapGetter, Span, SpanKind, trace } from '@opentelemetry/api';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isProbe } from '../logging/logger.options';
import { routeTemplate } from '../http/http-hooks';
import { LeanContext } from './lean-context';
import { activeTracer, endSpan, PROPAGATOR, SAMPLED_ROOT, sampleRequestRoot, startRequestRoot } from './tracing';
import { traced } from './trace-id';

type Traced = FastifyRequest & { [traced]?: Span };

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
 * its log line has no trace id and its outbound calls carry no `traceparent`. Kept, its span is a
 * `RequestSpan` (request-span.ts: made as sampled, without the SDK tracer) in a
 * {@link LeanContext}. A caller's trace is continued as the SDK's parent-based sampler says (a
 * dropped one still propagates its not-sampled flag), its remote parent read into a lean context
 * too. A span that records is ended by its response's `close` (answered, or the client gone
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
    if (req.headers.traceparent !== undefined) parent = PROPAGATOR.extract(LeanContext.ROOT, req.headers, defaultTextMapGetter);
    else if (sampleRequestRoot()) parent = SAMPLED_ROOT;
    else return done(); // left out by the head decision: no span, no context, nothing to end
    const route = routeTemplate(req);
    const name = `${req.method} ${route}`;
    const attributes = { 'http.request.method': req.method, 'http.route': route, 'url.scheme': req.protocol };
    let span: Span;
    if (parent === SAMPLED_ROOT)
      span = startRequestRoot(name, attributes)!; // kept: made as sampled, no sampler call
    else {
      // a caller's trace, continued as the SDK's sampler says; no attributes at the start: the
      // samplers we offer decide on the trace id and the parent alone
      span = tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
      if (span.isRecording()) span.setAttributes(attributes);
    }
    if (span.isRecording()) {
      // A listener that closes over its span ('close' comes once per response). The span is not
      // put on the response: a property added to the sampled few gave responses two shapes, and
      // every read of a response by Node's HTTP code and Fastify's had to tell them apart
      // (docs/decisions/request-cost.md, "the kept request's span").
      const res = reply.raw;
      res.on('close', () => ended(res, span));
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
function ended(res: ServerResponse, span: Span): void {
  if (res.writableFinished) endSpan(span, res.statusCode);
  else endSpan(span, undefined, ABORTED);
}
