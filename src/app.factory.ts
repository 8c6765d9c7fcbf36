import { Logger, ValidationError, ValidationPipeOptions } from '@nestjs/common';
import { InputBoundaryPipe } from './platform/http/input-boundary.pipe';
import { RequestInputPipe } from './platform/http/request-input.pipe';
import { sendError } from './platform/errors/all-exceptions.filter';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { LoadedConfig } from './platform/config/config';
import { PlatformConfig } from './platform/config/platform.config';
import { DatabaseState } from './platform/database/database.state';
import { AllExceptionsFilter } from './platform/errors/all-exceptions.filter';
import { ErrorDetail, PlatformErrors } from './platform/errors/app-error';
import { genReqId, installHttpHooks } from './platform/http/http-hooks';
import { installJsonBodyParser } from './platform/http/json-body';
import { installTracingHooks } from './platform/tracing/http-tracing';
import { Tracing } from './platform/tracing/tracing.service';
import { installValidationFastPath } from './platform/http/validation-fast-path';
import { AppLogger } from './platform/logging/app-logger';
import { MetricsService } from './platform/metrics/metrics.service';
import { buildOpenApiDocument, SWAGGER_UI_CSS } from './platform/openapi/openapi';
import { PlatformOptions } from './platform/platform.module';

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const e of errors) {
    const field = prefix ? (/^\d+$/.test(e.property) ? `${prefix}[${e.property}]` : `${prefix}.${e.property}`) : e.property;
    for (const [code, message] of Object.entries(e.constraints ?? {})) {
      out.push({ field, code, message: code === 'whitelistValidation' ? `${field} is not a known field` : message });
    }
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

/** The options of the app's one input pipe (class-validator's, through the fast path when it may). */
export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  exceptionFactory: (errors) =>
    PlatformErrors.error('validation_error', 'The request has invalid fields', { details: flattenValidationErrors(errors) }),
};

/** Builds the Nest application (not listening): the same for `npm start`, the tests and the scripts. */
export async function createApp(config: LoadedConfig, opts: PlatformOptions = {}): Promise<NestFastifyApplication> {
  const platform = config.get(PlatformConfig);
  const adapter = new FastifyAdapter({
    bodyLimit: platform.bodyLimitBytes,
    trustProxy: platform.trustProxy.length ? platform.trustProxy : false,
    genReqId,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Errors the router raises before any route runs (bad URL encoding, a too-long parameter)
    // come out in the envelope like every other error.
    frameworkErrors: (error: unknown, req: any, reply: any) => sendError(reply, req, error),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, opts), adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  app.useGlobalFilters(new AllExceptionsFilter());
  const validationPipe = installValidationFastPath(VALIDATION_OPTIONS, (msg) => new Logger('Validation').warn(msg));
  app.useGlobalPipes(new RequestInputPipe(new InputBoundaryPipe(), validationPipe));
  // First, so the request span covers the other hooks (and a 503 before the database is ready).
  if (app.get(Tracing).enabled) installTracingHooks(app.getHttpAdapter().getInstance());
  installHttpHooks(app.getHttpAdapter().getInstance(), {
    db: app.get(DatabaseState),
    metrics: app.get(MetricsService),
    log: app.get(AppLogger).pino,
  });
  const document = buildOpenApiDocument(app, platform.publicUrl);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'Payments Platform API',
    customCss: SWAGGER_UI_CSS,
  });
  // Nest registers its body parsers during init; ours replaces its JSON one afterwards.
  await app.init();
  installJsonBodyParser(app.getHttpAdapter().getInstance());
  return app;
}
