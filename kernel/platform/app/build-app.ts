import { DynamicModule, Logger, ValidationError, ValidationPipeOptions } from '@nestjs/common';
import { InputBoundaryPipe } from '../http/input-boundary.pipe';
import { bindInputPipe, RequestInputPipe } from '../http/request-input.pipe';
import { sendError } from '../errors/all-exceptions.filter';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { LoadedConfig } from '../config/config';
import { PlatformConfig } from '../config/platform.config';
import { DatabaseState } from '../database/database.state';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { ErrorDetail, PlatformErrors } from '../errors/app-error';
import { genReqId, installHttpHooks } from '../http/http-hooks';
import { installJsonBodyParser } from '../http/json-body';
import { installTracingHooks } from '../tracing/http-tracing';
import { Tracing } from '../tracing/tracing.service';
import { installValidationFastPath } from '../http/validation-fast-path';
import { drainConnectionsOnClose } from '../http/connection-drain';
import { AppLogger } from '../logging/app-logger';
import { MetricsService } from '../metrics/metrics.service';
import { buildOpenApiDocument, DocumentFace, SWAGGER_UI_CSS } from '../openapi/openapi';

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

export type AppFace = DocumentFace;

/**
 * Builds a Nest application on the platform (not listening): Fastify, the error envelope, the
 * input pipe, request ids, traces, metrics and the OpenAPI document at /docs. The service and the
 * sandbox app are both built here, each from its own root module.
 */
export async function buildApp(root: DynamicModule, config: LoadedConfig, face: AppFace): Promise<NestFastifyApplication> {
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
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  app.useGlobalFilters(new AllExceptionsFilter());
  const validationPipe = installValidationFastPath(VALIDATION_OPTIONS, (msg) => new Logger('Validation').warn(msg));
  // on bodies and query strings only, not as a global pipe (see bindInputPipe)
  bindInputPipe(app, new RequestInputPipe(new InputBoundaryPipe(), validationPipe));
  // At close, connections that would hold it open for their clients' timeouts are ended (connection-drain.ts)
  drainConnectionsOnClose(app.getHttpAdapter().getInstance());
  // First, so the request span covers the other hooks (and a 503 before the database is ready).
  if (app.get(Tracing).enabled) installTracingHooks(app.getHttpAdapter().getInstance());
  installHttpHooks(app.getHttpAdapter().getInstance(), {
    db: app.get(DatabaseState),
    metrics: app.get(MetricsService),
    log: app.get(AppLogger).pino,
    opsPort: platform.opsPort,
  });
  const document = buildOpenApiDocument(app, platform.publicUrl, face);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: face.title,
    customCss: SWAGGER_UI_CSS,
  });
  // Nest registers its body parsers during init; ours replaces its JSON one afterwards.
  await app.init();
  installJsonBodyParser(app.getHttpAdapter().getInstance());
  return app;
}
