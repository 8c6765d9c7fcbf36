import { Module } from '@nestjs/common';
import { SandboxThreeDsController, SandboxThreeDsEnabledGuard } from './sandbox-three-ds.controller';
import { SandboxThreeDsRepository } from './sandbox-three-ds.repository';
import { SandboxThreeDsService } from './sandbox-three-ds.service';

/** The in-process sandbox 3DS server and ACS pages (reached over HTTP by the three-ds module). */
@Module({
  controllers: [SandboxThreeDsController],
  providers: [SandboxThreeDsService, SandboxThreeDsRepository, SandboxThreeDsEnabledGuard],
})
export class SandboxThreeDsModule {}
