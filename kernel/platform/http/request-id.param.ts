import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { httpRequest } from './http-context';

/** The request id (X-Request-Id accepted or made by the kernel). */
export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => String(httpRequest<{ id: string }>(ctx).id));
