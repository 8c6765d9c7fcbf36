import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { SandboxAcquirerConfig } from './sandbox-acquirer.config';
import { SandboxErrors } from '../sandbox.errors';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { httpRequest } from '../../../kernel/platform/http/http-context';
import type { FastifyRequest } from 'fastify';

/** The acquirer's own API: sandbox mode, and `X-Acquirer-Key` equal to ACQUIRER_API_KEY. */
@Injectable()
export class AcquirerKeyGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(private readonly config: SandboxAcquirerConfig) {
    this.expected = createHash('sha256').update(config.apiKey).digest();
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (!this.config.enabled) throw SandboxErrors.error('sandbox_disabled', 'The sandbox is disabled (SANDBOX_ENABLED=false)');
    const h = httpRequest<FastifyRequest>(ctx).headers['x-acquirer-key'];
    const given = createHash('sha256')
      .update(typeof h === 'string' ? h : '')
      .digest();
    if (typeof h !== 'string' || !timingSafeEqual(given, this.expected)) {
      throw SandboxAcquirerErrors.error('acquirer_unauthorized', 'Missing or wrong X-Acquirer-Key');
    }
    return true;
  }
}
