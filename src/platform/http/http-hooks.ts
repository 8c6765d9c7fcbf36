import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlatformErrors } from '../errors/app-error';
import { DatabaseState } from '../database/database.state';
import { MetricsService } from '../metrics/metrics.service';

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Accept a caller's X-Request-Id when it is sane, else make one; always echoed. */
export function genReqId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const h = req.headers['x-request-id'];
  const v = Array.isArray(h) ? h[0] : h;
  return v && REQUEST_ID.test(v) ? v : randomUUID();
}

/** Paths that must answer even when the database does not. */
function worksWithoutDatabase(url: string): boolean {
  return url.startsWith('/health') || url.startsWith('/metrics') || url.startsWith('/docs');
}

export function installHttpHooks(fastify: FastifyInstance, deps: { db: DatabaseState; metrics: MetricsService }): void {
  fastify.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    if (!deps.db.isReady() && !worksWithoutDatabase(req.url)) {
      throw PlatformErrors.error('database_unavailable', 'The database is not ready yet; retry shortly', { headers: { 'Retry-After': '1' } });
    }
  });
  fastify.addHook('onResponse', async (req, reply) => {
    deps.metrics.observeRequest(req.method, routeTemplate(req), reply.statusCode, reply.elapsedTime / 1000);
  });
  // Errors raised before Nest routes the request (body parsing, limits, these hooks) reach
  // Nest's Fastify error handler, hence the same exception filter and envelope.
}

export function routeTemplate(req: FastifyRequest): string {
  return req.routeOptions?.url ?? 'unmatched';
}
