/** Who is calling, as proven by the bearer token; every query is scoped by tenantId. */
export interface TenantContext {
  tenantId: string;
  clientId: string;
  keyId: string;
}
