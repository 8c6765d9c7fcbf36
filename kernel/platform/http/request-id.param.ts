import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The request id (X-Request-Id accepted or made by the kernel). */
export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => String(ctx.switchToHttp().getRequest().id));
