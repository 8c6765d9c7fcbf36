import { Global, Module } from '@nestjs/common';
import { ProviderBankModule } from '../provider/bank/provider-bank.module';
import { TenantsModule } from '../tenants/tenants.module';
import { CheckoutAttemptGuard } from './checkout-attempt.guard';
import { GatewayGuard } from './gateway.guard';
import { LimitsController } from './limits/limits.controller';
import { LimitsService } from './limits/limits.service';
import { RateLimiter } from './rate-limit/rate-limiter';
import { SetupGuard } from './setup.guard';
import { TenantGate } from './tenant-gate';
import { TenantPolicyCache } from './tenant-policy.cache';

/**
 * Global: `@TenantRoute()` puts GatewayGuard on controllers of every feature module, so the
 * guard's dependencies must resolve everywhere. The bearer verifier comes from the auth module;
 * the Pix limits of the limits route from the bank (provider module).
 */
@Global()
@Module({
  imports: [TenantsModule, ProviderBankModule],
  controllers: [LimitsController],
  providers: [TenantPolicyCache, RateLimiter, TenantGate, GatewayGuard, SetupGuard, CheckoutAttemptGuard, LimitsService],
  exports: [TenantPolicyCache, RateLimiter, TenantGate, GatewayGuard, SetupGuard, CheckoutAttemptGuard],
})
export class GatewayModule {}
