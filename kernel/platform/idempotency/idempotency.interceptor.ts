import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, Observable, throwError } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import { AppError } from '../errors/app-error';
import { resolveError } from '../errors/error-envelope';
import { IdempotencyErrors } from './idempotency.errors';
import { IdempotencyStore } from './idempotency.store';
import { requestHash } from './request-hash';
import { httpRequest, httpReply } from '../http/http-context';

const KEY = /^[\x21-\x7e]{1,255}$/;
const HTTP_CODE_METADATA = '__httpCode__';

type ScopedRequest = FastifyRequest & { tenant?: { tenantId: string }; idempotencyScope?: string };

/**
 * `Idempotency-Key` on POST (optional). Same key + same request → the first answer replayed
 * with `Idempotent-Replayed: true`; another request with the key → 422
 * `idempotency_key_reused`; while the first runs → 409 `idempotency_in_flight`. Scoped per
 * tenant, kept 24 h in PostgreSQL. Answers that would differ on retry (5xx, crashes) free
 * the key instead of being stored. Without the header nothing changes.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = httpRequest<ScopedRequest>(ctx);
    if (req.method !== 'POST') return next.handle();
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) return next.handle();
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!KEY.test(key)) {
      return throwError(() => IdempotencyErrors.error('idempotency_key_invalid', 'Idempotency-Key must be 1-255 visible ASCII characters'));
    }
    const tenantId = req.tenant?.tenantId ?? req.idempotencyScope;
    if (!tenantId) return next.handle();
    const reply = httpReply<FastifyReply>(ctx);
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, ctx.getHandler()) ?? 201;
    const hash = requestHash(req.method, req.url, req.body);
    return from(this.store.claim(tenantId, key, hash)).pipe(
      mergeMap((claimed) => (claimed ? this.run(tenantId, key, status, next) : from(this.replay(tenantId, key, hash, reply)))),
    );
  }

  private run(tenantId: string, key: string, status: number, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      mergeMap((body) => from(this.store.complete(tenantId, key, status, body).then(() => body))),
      catchError((err) => {
        const r = resolveError(err);
        const stored = r.status < 500 && (err instanceof AppError || err instanceof HttpException);
        const done = stored
          ? this.store.complete(tenantId, key, r.status, { ...r.body, headers: r.headers })
          : this.store.release(tenantId, key);
        return from(done.catch(() => undefined)).pipe(mergeMap(() => throwError(() => err)));
      }),
    );
  }

  private async replay(tenantId: string, key: string, hash: string, reply: FastifyReply): Promise<unknown> {
    const prior = await this.store.find(tenantId, key);
    if (!prior || prior.status === 'IN_FLIGHT') {
      if (prior && prior.requestHash !== hash) throw reused();
      throw IdempotencyErrors.error(
        'idempotency_in_flight',
        'A request with this Idempotency-Key is still being processed; retry shortly',
        { headers: { 'Retry-After': '1' } },
      );
    }
    if (prior.requestHash !== hash) throw reused();
    reply.header('Idempotent-Replayed', 'true');
    if (prior.responseStatus! >= 400) {
      const { statusCode, error, message, details, ip, headers, ...rest } = prior.responseBody as Record<string, any>;
      throw new AppError(statusCode, error, message, { details, ip, headers, body: rest });
    }
    return prior.responseBody;
  }
}

function reused() {
  return IdempotencyErrors.error(
    'idempotency_key_reused',
    'This Idempotency-Key was already used with another request (method, path or body)',
  );
}
