import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto';

const COMMON_ERRORS: Record<string, string> = {
  '500': 'Internal or provider error; retry at 1 s, 3 s, 9 s',
  '503': 'The database or another dependency is unavailable; retry shortly',
};

export function buildOpenApiDocument(app: INestApplication, publicUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Payments Platform API')
    .setDescription(
      'Access credentials and bearer tokens, automatic recurring Pix debit, payment links with a hosted checkout, hosted card tokenization, 3DS and outbound webhooks. ' +
        'Every error answers the envelope `{statusCode, error, message, requestId, details?, ip?}`. `/v1` routes pass, in order: IP allow-list, bearer token, rate limit (100/min per tenant by default), validation, idempotency.',
    )
    .setVersion('1.0.0')
    .setLicense('Proprietary', 'https://example.com/license')
    .setContact('Payments Platform team', 'https://example.com/support', 'support@example.com')
    .addServer(publicUrl, 'This deployment')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /v1/oauth/token (valid 3600 s)' }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Admin-Key', description: 'Operator key (ADMIN_API_KEY)' }, 'adminKey')
    .build();
  const doc = SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelopeDto], operationIdFactory: (c, m) => `${c.replace(/Controller$/, '')}_${m}` });
  addCommonErrors(doc);
  uniqueOperationIds(doc);
  return sortDocument(doc);
}

/** Every operation documents the failures that any route can give. */
function addCommonErrors(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as any[]) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      for (const [status, description] of Object.entries(COMMON_ERRORS)) {
        op.responses[status] ??= {
          description,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } },
        };
      }
    }
  }
}

/**
 * A handler mounted on several paths (a documented alias such as /v1/auth/token) is one
 * operation per path in OpenAPI; the later paths get an `_<path>` suffix to stay unique.
 */
function uniqueOperationIds(doc: OpenAPIObject): void {
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const op of Object.values(item) as any[]) {
      if (!op?.operationId) continue;
      if (seen.has(op.operationId)) op.operationId = `${op.operationId}_${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;
      seen.add(op.operationId);
    }
  }
}

/** Stable key order so the committed copy only changes when the API does. */
function sortDocument<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortDocument) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortDocument((v as Record<string, unknown>)[k]);
    return out as T;
  }
  return v;
}
