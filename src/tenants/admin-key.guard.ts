import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { PlatformConfig } from '../../kernel/platform/config/platform.config';
import { TenantErrors } from './tenants.errors';
import { httpRequest } from '../../kernel/platform/http/http-context';
import type { FastifyRequest } from 'fastify';

/** Operator routes: X-Admin-Key must equal ADMIN_API_KEY. Missing and wrong answer alike. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(config: PlatformConfig) {
    this.expected = createHash('sha256').update(config.adminApiKey).digest();
  }

  canActivate(ctx: ExecutionContext): boolean {
    const h = httpRequest<FastifyRequest>(ctx).headers['x-admin-key'];
    const given = createHash('sha256')
      .update(typeof h === 'string' ? h : '')
      .digest();
    if (typeof h !== 'string' || !timingSafeEqual(given, this.expected)) {
      throw TenantErrors.error('admin_unauthorized', 'Admin authentication failed');
    }
    return true;
  }
}
