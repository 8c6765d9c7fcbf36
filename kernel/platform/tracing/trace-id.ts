import type { Span } from '@opentelemetry/api';

/** Where the request's server span is kept on the Fastify request. */
export const traced = Symbol('otelSpan');

/** The trace id of a request's span, for its log line; undefined when tracing is off. */
export function traceIdOf(req: object): string | undefined {
  return (req as { [traced]?: Span })[traced]?.spanContext().traceId;
}
