import { Injectable } from '@nestjs/common';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { SandboxAcquirerConfig } from '../acquirer/sandbox-acquirer.config';
import { SandboxConfig } from '../sandbox.config';

/** The receiver as the sandbox PSP knows it: its keys, and the public origin its locations are served from. */
@Injectable()
export class PspReceiver {
  constructor(
    private readonly acquirer: SandboxAcquirerConfig,
    private readonly sandbox: SandboxConfig,
    private readonly platform: PlatformConfig,
  ) {}

  /** Base of the location URLs (the sandbox's public origin). */
  base(): string {
    return (this.sandbox.publicUrl ?? this.platform.publicUrl).replace(/\/+$/, '');
  }

  /** The receiver's keys at this PSP. */
  keys(): string[] {
    return [this.acquirer.pixKey];
  }
}
