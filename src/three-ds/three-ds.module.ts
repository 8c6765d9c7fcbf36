import { Global, Module } from '@nestjs/common';
import { ThreeDsResults } from '../../kernel/common/contracts/three-ds-results.port';
import { AcquirerModule } from '../provider/acquirer/acquirer.module';
import { ChallengeResultGuard } from './challenge-result.guard';
import { ThreeDsServerPort } from '../provider/three-ds-server.port';
import { ThreeDsAuthenticateService } from './three-ds-authenticate.service';
import { HttpThreeDsServer } from './three-ds-server.client';
import { AdyenThreeDsServer } from '../provider/acquirer/adyen/adyen-three-ds-server';
import { AcquirerConfig } from '../provider/acquirer/acquirer.config';
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
    HttpThreeDsServer,
    AdyenThreeDsServer,
    {
      // the 3DS steps go where the card is paid: Adyen's native 3DS2 with ACQUIRER_PROVIDER=adyen
      provide: ThreeDsServerPort,
      inject: [AcquirerConfig, HttpThreeDsServer, AdyenThreeDsServer],
      useFactory: (config: AcquirerConfig, http: HttpThreeDsServer, adyen: AdyenThreeDsServer) =>
        config.provider === 'adyen' ? adyen : http,
    },
    { provide: ThreeDsResults, useClass: SqlThreeDsResults },
  ],
  exports: [ThreeDsResults],
})
export class ThreeDsModule {}
