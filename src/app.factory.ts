import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { buildApp } from './platform/app/build-app';
import { LoadedConfig } from './platform/config/config';
import { SERVICE_DOCUMENT } from './platform/openapi/openapi';
import { PlatformOptions } from './platform/platform.module';

export { flattenValidationErrors, VALIDATION_OPTIONS } from './platform/app/build-app';

/** Builds the service (not listening): the same for `npm start`, the tests and the scripts. */
export function createApp(config: LoadedConfig, opts: PlatformOptions = {}): Promise<NestFastifyApplication> {
  return buildApp(AppModule.forRoot(config, opts), config, SERVICE_DOCUMENT);
}
