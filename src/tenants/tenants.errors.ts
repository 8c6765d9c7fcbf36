import { defineErrors } from '../platform/errors/app-error';

export const TenantErrors = defineErrors({
  tenant_not_found: 404,
  invalid_cidr: 400,
  admin_unauthorized: 401,
});
