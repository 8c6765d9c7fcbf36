import { defineConfig } from '../../../kernel/platform/config/config';
import { sandboxEnabled } from '../sandbox.config';

/** The sandbox 3DS server and ACS (in-process, under /sandbox/three-ds). */
export class SandboxThreeDsConfig {
  /** SANDBOX_THREE_DS_ENABLED, else SANDBOX_ENABLED (the whole sandbox), else on outside production. Off: the routes answer 404. */
  enabled: boolean;
  /** The one-time code the sandbox ACS accepts. */
  otp: string;
}

export const sandboxThreeDsConfig = defineConfig(SandboxThreeDsConfig, (env) => {
  const otp = env.str('SANDBOX_THREE_DS_OTP', '1234');
  if (!/^[0-9]{4,8}$/.test(otp)) env.problems.push('SANDBOX_THREE_DS_OTP must be 4 to 8 digits');
  return { enabled: env.bool('SANDBOX_THREE_DS_ENABLED', sandboxEnabled(env)), otp };
});
