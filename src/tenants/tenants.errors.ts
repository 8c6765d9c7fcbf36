import { defineErrors } from '../../kernel/platform/errors/app-error';

export const TenantErrors = defineErrors({
  tenant_not_found: 404,
  invalid_cidr: 400,
  admin_unauthorized: 401,
});

declare module '../../kernel/platform/errors/app-error' {
  /** TenantErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof TenantErrors.table, true> {}
}
