import { randomUuid } from '../../common/random-ids';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger as Pino } from 'pino';
import { PlatformErrors } from '../errors/app-error';
import { DatabaseState } from '../database/database.state';
import { MetricsService } from '../metrics/metrics.service';
import { isProbe, stripQuery } from '../logging/logger.options';
import { traceIdOf } from '../tracing/trace-id';
import { wrongPort } from './ops-port';

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Accept a caller's X-Request-Id when it is sane, else make one; always echoed. */
export function genReqId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const h = req.headers['x-request-id'];
  const v = Array.isArray(h) ? h[0] : h;
  return v && REQUEST_ID.test(v) ? v : randomUuid();
}

/** Paths that must answer even when the database does not. */
function worksWithoutDatabase(url: string): boolean {
  return url.startsWith('/health') || url.startsWith('/metrics') || url.startsWith('/docs');
}

export function installHttpHooks(
  fastify: FastifyInstance,
  deps: { db: DatabaseState; metrics: MetricsService; log: Pino; opsPort?: number },
): void {
  const opsPort = deps.opsPort;
  // The template's slot on every request from its construction: a traced request fills it in its
  // first hook and the others at their end, after the guard's own fields, which would otherwise
  // leave requests in two shapes.
  fastify.decorateRequest(ROUTE, null);
  // Callback-style hooks: they run on every request, and an async hook costs a promise each.
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id); // lower case: Fastify lower-cases names, a new string each time otherwise
    if (!deps.db.isReady() && !worksWithoutDatabase(req.url)) {
      done(
        PlatformErrors.error('database_unavailable', 'The database is not ready yet; retry shortly', { headers: { 'Retry-After': '1' } }),
      );
      return;
    }
    done((opsPort === undefined ? null : wrongPort(opsPort, req.socket.localPort, req.url)) ?? urlDefect(req.url) ?? undefined);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    deps.metrics.observeRequest(req.method, routeTemplate(req), reply.statusCode, reply.elapsedTime / 1000);
    logRequest(deps.log, req, reply);
    done();
  });
  // Errors raised before Nest routes the request (body parsing, limits, these hooks) reach
  // Nest's Fastify error handler, hence the same exception filter and envelope.
}

/**
 * What is wrong with a request URL before any guard or route reads it: a control character in
 * the path (guards look rows up by path parameters, so the pipes would come too late), or a
 * query string that is not valid percent-encoding (the query parser would pass it on mangled).
 */
export function urlDefect(url: string): Error | null {
  const q = pathEnd(url);
  if (q < 0) {
    return PlatformErrors.error('validation_error', 'The path holds control characters', {
      details: [{ field: 'path', code: 'control_characters', message: 'the path must not contain control characters (NUL and the like)' }],
    });
  }
  if (q < url.length && url.includes('%', q)) {
    for (const part of url.slice(q + 1).split('&')) {
      try {
        decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return PlatformErrors.error('bad_request', 'The query string is not valid percent-encoding');
      }
    }
  }
  return null;
}

/**
 * Where the path ends (the `?` or the URL's length), or -1 when the path holds a C0 control or
 * DEL, raw or percent-encoded (`%00`…`%1F` but tab, LF and CR, `%7F`; either case): the
 * characters of `CONTROL` (`common/formats/text`), by hand. This runs on every request, and one
 * pass over the path's character codes costs a fraction of two regular-expression scans.
 */
export function pathEnd(url: string): number {
  const n = url.length;
  for (let i = 0; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x3f) return i; // '?'
    if (c === 0x25 ? encodedControl(url.charCodeAt(i + 1), url.charCodeAt(i + 2)) : isControl(c)) return -1;
  }
  return n;
}

const isControl = (c: number): boolean => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f;

/** The two characters after a `%` name a control (hex digits in either case; NaN past the end). */
function encodedControl(hi: number, lo: number): boolean {
  const v = hexDigit(lo);
  if (v < 0) return false;
  if (hi === 0x30) return isControl(v); // %0x
  if (hi === 0x31) return true; // %1x
  return hi === 0x37 && v === 0x0f; // %7F
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20; // lower case
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/**
 * One line per request (probes and scrapes excepted): method, path without its query (query
 * strings can carry tokens), route template, status, duration, the trace id when tracing is on;
 * never headers or bodies.
 * 5xx at error, 4xx at warn, the rest at info; nothing is built when the level is off.
 */
function logRequest(log: Pino, req: FastifyRequest, reply: FastifyReply): void {
  const status = reply.statusCode;
  const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
  if (!log.isLevelEnabled(level) || isProbe(req.url)) return;
  const traceId = traceIdOf(req);
  log[level](
    {
      requestId: req.id,
      ...(traceId ? { traceId } : {}),
      req: { method: req.method, url: stripQuery(req.url), route: routeTemplate(req), remoteAddress: req.ip },
      res: { statusCode: status },
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    },
    'request completed',
  );
}

const ROUTE = Symbol('routeTemplate');

/**
 * The matched route's template (`/v1/payment-links/:id`), or `unmatched`. Fastify's
 * `routeOptions` builds a fresh object of twelve fields on every read, and a request asks for its
 * template up to three times (its span, its metrics, its log line): it is read once and kept.
 */
export function routeTemplate(req: FastifyRequest & { [ROUTE]?: string | null }): string {
  return (req[ROUTE] ??= req.routeOptions?.url ?? 'unmatched');
}
