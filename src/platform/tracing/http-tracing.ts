import { Context, context, defaultTextMapGetter, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isProbe } from '../logging/logger.options';
import { routeTemplate } from '../http/http-hooks';
import { activeTracer, PROPAGATOR } from './tracing';
import { traced } from './trace-id';

const CONTEXT = Symbol('otelContext');

type Traced = FastifyRequest & { [traced]?: Span; [CONTEXT]?: Context };

/**
 * One server span per request (probes and scrapes excepted), continuing the caller's trace when
 * it sends a W3C `traceparent`. Named and tagged by route template (`POST /v1/payment-links/:id`),
 * never the raw path, query, headers or body. The span's context is made current for the hooks
 * and for the handler (re-entered before the handler: body parsing runs on the socket's own
 * async context), so outbound calls made by the request are its children.
 *
 * Installed only when tracing is on: off, requests pay nothing.
 */
export function installTracingHooks(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, _reply, done) => {
    const tracer = activeTracer();
    if (!tracer || isProbe(req.url)) return done();
    const parent = PROPAGATOR.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const route = routeTemplate(req);
    const span = tracer.startSpan(
      `${req.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'http.route': route, 'url.scheme': req.protocol },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    (req as Traced)[traced] = span;
    (req as Traced)[CONTEXT] = ctx;
    context.with(ctx, done);
  });
  fastify.addHook('preHandler', (req, _reply, done) => {
    const ctx = (req as Traced)[CONTEXT];
    if (ctx) context.with(ctx, done);
    else done();
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const span = (req as Traced)[traced];
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', String(reply.statusCode));
      }
      span.end();
    }
    done();
  });
  fastify.addHook('onRequestAbort', (req, done) => {
    const span = (req as Traced)[traced];
    if (span?.isRecording()) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', 'aborted');
      span.end();
    }
    done();
  });
}
