import { Global, Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { CheckoutAttemptGuard } from './checkout-attempt.guard';
import { GatewayGuard } from './gateway.guard';
import { RateLimiter } from './rate-limit/rate-limiter';
import { SetupGuard } from './setup.guard';
import { TenantGate } from './tenant-gate';
import { TenantPolicyCache } from './tenant-policy.cache';

/**
 * Global: `@TenantRoute()` puts GatewayGuard on controllers of every feature module, so the
 * guard's dependencies must resolve everywhere. The bearer verifier comes from the auth module.
 */
@Global()
@Module({
  imports: [TenantsModule],
  providers: [TenantPolicyCache, RateLimiter, TenantGate, GatewayGuard, SetupGuard, CheckoutAttemptGuard],
  exports: [TenantPolicyCache, RateLimiter, TenantGate, GatewayGuard, SetupGuard, CheckoutAttemptGuard],
})
export class GatewayModule {}
