import { Module } from '@nestjs/common';
import { SandboxPspServer } from './psp-server';

/**
 * The sandbox PSP: API Pix over HTTPS with mutual TLS on its own port, over the sandbox bank's
 * state. Handler classes register their routes on SandboxPspServer.
 */
@Module({
  providers: [SandboxPspServer],
  exports: [SandboxPspServer],
})
export class SandboxPspModule {}
