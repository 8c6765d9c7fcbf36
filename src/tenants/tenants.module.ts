import { Module } from '@nestjs/common';
import { EntitiesModule } from '../../kernel/platform/database/entity-registry';
import { AdminKeyGuard } from './admin-key.guard';
import { AdminTenantsController } from './admin-tenants.controller';
import { TenantEntity } from './tenant.entity';
import { TenantsService } from './tenants.service';
import { TenantsRepository, SqlTenantsRepository } from './tenants.repository';

@Module({
  imports: [EntitiesModule.register([TenantEntity])],
  controllers: [AdminTenantsController],
  providers: [TenantsService, AdminKeyGuard, { provide: TenantsRepository, useClass: SqlTenantsRepository }],
  exports: [TenantsRepository, TenantsService, AdminKeyGuard],
})
export class TenantsModule {}
