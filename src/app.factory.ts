import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { buildApp } from '../kernel/platform/app/build-app';
import { LoadedConfig } from '../kernel/platform/config/config';
import { SERVICE_DOCUMENT } from '../kernel/platform/openapi/openapi';
import { PlatformOptions } from '../kernel/platform/platform.module';

export { flattenValidationErrors, VALIDATION_OPTIONS } from '../kernel/platform/app/build-app';

/** Builds the service (not listening): the same for `npm start`, the tests and the scripts. */
export function createApp(config: LoadedConfig, opts: PlatformOptions = {}): Promise<NestFastifyApplication> {
  return buildApp(AppModule.forRoot(config, opts), config, SERVICE_DOCUMENT);
}
