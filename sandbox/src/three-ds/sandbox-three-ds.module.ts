import { Module } from '@nestjs/common';
import { SandboxThreeDsController, SandboxThreeDsEnabledGuard } from './sandbox-three-ds.controller';
import { SandboxThreeDsRepository } from './sandbox-three-ds.repository';
import { SandboxThreeDsService } from './sandbox-three-ds.service';

/**
 * The in-process sandbox 3DS server and ACS pages (reached over HTTP by the three-ds module); the
 * acquirer's Adyen face authenticates through the same transactions (native 3DS2).
 */
@Module({
  controllers: [SandboxThreeDsController],
  providers: [SandboxThreeDsService, SandboxThreeDsRepository, SandboxThreeDsEnabledGuard],
  exports: [SandboxThreeDsService],
})
export class SandboxThreeDsModule {}
