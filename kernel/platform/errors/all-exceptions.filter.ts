import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveError } from './error-envelope';
import { afterRequestBody } from '../http/drain-request';

/** One place where every error, thrown anywhere, becomes the envelope. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    sendError(reply, req, exception, this.logger);
  }
}

export function sendError(reply: FastifyReply, req: FastifyRequest, exception: unknown, logger?: { error: (...a: any[]) => void }): void {
  const r = resolveError(exception);
  if (r.unexpected) {
    const e = exception as any;
    logger?.error({ err: { type: e?.name, message: e?.message, stack: e?.stack }, requestId: req.id }, 'unexpected error');
  }
  if (reply.sent) return;
  // An error raised before the body was read (over the limit, refused in onRequest) is answered
  // once the client has sent it: answered earlier, the client still writing sees a reset.
  afterRequestBody(req.raw, () => {
    if (reply.sent) return;
    for (const [k, v] of Object.entries(r.headers)) reply.header(k, v);
    reply
      .status(r.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send({ ...r.body, requestId: req.id });
  });
}
