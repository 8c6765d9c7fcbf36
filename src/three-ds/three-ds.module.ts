import { Global, Module } from '@nestjs/common';
import { ThreeDsResults } from '../common/contracts/three-ds-results.port';
import { AcquirerModule } from '../provider/acquirer/acquirer.module';
import { ChallengeResultGuard } from './challenge-result.guard';
import { ThreeDsServerPort } from './ports/three-ds-server.port';
import { ThreeDsAuthenticateService } from './three-ds-authenticate.service';
import { HttpThreeDsServer } from './three-ds-server.client';
import { ThreeDsController } from './three-ds.controller';
import { SqlThreeDsRepository, SqlThreeDsResults, ThreeDsRepository } from './three-ds.repository';
import { ThreeDsService } from './three-ds.service';

/**
 * 3DS: initialize, setup, authenticate, challenge-result. Global only to bind the cards'
 * ThreeDsResults port (card payments check 3DS results through it, never our tables).
 */
@Global()
@Module({
  imports: [AcquirerModule],
  controllers: [ThreeDsController],
  providers: [
    ThreeDsService,
    ThreeDsAuthenticateService,
    ChallengeResultGuard,
    { provide: ThreeDsRepository, useClass: SqlThreeDsRepository },
    { provide: ThreeDsServerPort, useClass: HttpThreeDsServer },
    { provide: ThreeDsResults, useClass: SqlThreeDsResults },
  ],
  exports: [ThreeDsResults],
})
export class ThreeDsModule {}
