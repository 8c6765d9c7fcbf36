import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { buildApp } from '../../kernel/platform/app/build-app';
import { LoadedConfig } from '../../kernel/platform/config/config';
import { PlatformOptions } from '../../kernel/platform/platform.module';
import { SandboxAppModule } from './sandbox-app.module';

export const SANDBOX_DOCUMENT = {
  title: 'Payments Sandbox',
  description:
    "The simulated parties behind the payments platform, each speaking its real protocol: a bank (the platform's own protocol), an API Pix 2.9 PSP over mutual TLS (on its own HTTPS port), an acquirer (the generic protocol and Adyen Checkout v72 with standard webhooks), a 3DS server with its ACS pages, and the test clock. " +
    'Driven by test data (sandbox/README.md); no real money moves.',
};

/** Builds the sandbox app (not listening): the same for `npm run sandbox`, `npm start` and the tests. */
export function createSandboxApp(config: LoadedConfig, opts: PlatformOptions = {}): Promise<NestFastifyApplication> {
  return buildApp(SandboxAppModule.forRoot(config, opts), config, SANDBOX_DOCUMENT);
}
