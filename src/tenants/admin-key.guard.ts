import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ADMIN_KEY_HEADER, AdminKey } from '../../kernel/platform/config/admin-key';
import { TenantErrors } from './tenants.errors';
import { httpRequest } from '../../kernel/platform/http/http-context';
import type { FastifyRequest } from 'fastify';

/** Operator routes: X-Admin-Key must equal ADMIN_API_KEY. Missing and wrong answer alike. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(private readonly key: AdminKey) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (!this.key.matches(httpRequest<FastifyRequest>(ctx).headers[ADMIN_KEY_HEADER])) {
      throw TenantErrors.error('admin_unauthorized', 'Admin authentication failed');
    }
    return true;
  }
}
