import { CanActivate, Injectable } from '@nestjs/common';
import { SandboxConfig } from './sandbox.config';
import { SandboxErrors } from './sandbox.errors';

/** Every sandbox route (bank, acquirer, test clock) is refused outside sandbox mode. */
@Injectable()
export class SandboxEnabledGuard implements CanActivate {
  constructor(private readonly config: SandboxConfig) {}

  canActivate(): boolean {
    if (!this.config.enabled) throw SandboxErrors.error('sandbox_disabled', 'The sandbox is disabled (SANDBOX_ENABLED=false)');
    return true;
  }
}
