import { Module } from '@nestjs/common';
import { SandboxBankModule } from '../bank/sandbox-bank.module';
import { SandboxPspLocationsController } from './psp-locations.controller';
import { SandboxPspRecHandlers } from './psp-rec.handlers';
import { SandboxPspSolicRecHandlers } from './psp-solicrec.handlers';
import { SandboxPspServer } from './psp-server';

/**
 * The sandbox PSP: API Pix over HTTPS with mutual TLS on its own port, over the sandbox bank's
 * state (one bank, two faces). Handler classes register their routes on SandboxPspServer.
 */
@Module({
  imports: [SandboxBankModule],
  controllers: [SandboxPspLocationsController],
  providers: [SandboxPspServer, SandboxPspRecHandlers, SandboxPspSolicRecHandlers],
  exports: [SandboxPspServer],
})
export class SandboxPspModule {}
