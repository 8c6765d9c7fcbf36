import { defineErrors } from '../../kernel/platform/errors/app-error';

export const GatewayErrors = defineErrors({
  invalid_token: 401,
  expired_token: 401,
  ip_not_allowed: 403,
  tenant_suspended: 403,
  tenant_not_found: 404,
  account_not_found: 404,
  rate_limited: 429,
  provider_unavailable: 500,
});

declare module '../../kernel/platform/errors/app-error' {
  /** GatewayErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof GatewayErrors.table, true> {}
}
