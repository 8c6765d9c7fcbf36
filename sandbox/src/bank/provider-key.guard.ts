import { timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { PROVIDER_KEY_HEADER } from '../../../kernel/common/protocols/provider-events';
import { SandboxConfig } from '../sandbox.config';
import { SandboxErrors } from '../sandbox.errors';
import { httpRequest } from '../../../kernel/platform/http/http-context';
import type { FastifyRequest } from 'fastify';

/** The bank's API answers only the holder of the shared key (the service's PROVIDER_API_KEY). */
@Injectable()
export class ProviderKeyGuard implements CanActivate {
  constructor(private readonly config: SandboxConfig) {}

  canActivate(ctx: ExecutionContext): boolean {
    const given = Buffer.from(String(httpRequest<FastifyRequest>(ctx).headers[PROVIDER_KEY_HEADER] ?? ''));
    const expected = Buffer.from(this.config.apiKey);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw SandboxErrors.error('invalid_provider_key', 'Missing or wrong X-Provider-Key');
    }
    return true;
  }
}
