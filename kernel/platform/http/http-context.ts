import type { ExecutionContext } from '@nestjs/common';

/*
 * The request and the reply of an HTTP execution context, read as Nest passes them (arguments 0
 * and 1). `ctx.switchToHttp()` makes three closures and assigns them onto the context on every
 * call, which changes the context object's shape each time; guards, interceptors and parameter
 * decorators run on every request, so they read the arguments directly.
 */

export function httpRequest<T>(ctx: ExecutionContext): T {
  return ctx.getArgByIndex<T>(0);
}

export function httpReply<T>(ctx: ExecutionContext): T {
  return ctx.getArgByIndex<T>(1);
}
