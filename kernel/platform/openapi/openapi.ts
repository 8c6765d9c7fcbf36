import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto';
import { makeTruthful } from './truth';

const COMMON_ERRORS: Record<string, string> = {
  '500': 'Internal or provider error; retry at 1 s, 3 s, 9 s',
  '503': 'The database or another dependency is unavailable; retry shortly',
};

export interface DocumentFace {
  title: string;
  description: string;
}

export const SERVICE_DOCUMENT: DocumentFace = {
  title: 'Payments Platform API',
  description:
    'Access credentials and bearer tokens, automatic recurring Pix debit, payment links with a hosted checkout, hosted card tokenization, 3DS and outbound webhooks. ' +
    'Every error answers the envelope `{statusCode, error, message, requestId, details?, ip?}`. `/v1` routes pass, in order: bearer token (401 `invalid_token` without a valid one, from any address), the tenant’s IP allow-list (403 `ip_not_allowed`), token expiry and key revocation, rate limit (100/min per tenant by default, 429), validation (400), `Idempotency-Key`.',
};

export function buildOpenApiDocument(app: INestApplication, publicUrl: string, face: DocumentFace = SERVICE_DOCUMENT): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(face.title)
    .setDescription(face.description)
    .setVersion('1.0.0')
    .setLicense('Proprietary', 'https://example.com/license')
    .setContact('Payments Platform team', 'https://example.com/support', 'support@example.com')
    .addServer(publicUrl, 'This deployment')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /v1/oauth/token (valid 3600 s)' },
      'bearer',
    )
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Admin-Key', description: 'Operator key (ADMIN_API_KEY)' }, 'adminKey')
    .build();
  const doc = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorEnvelopeDto],
    operationIdFactory: (c, m) => `${c.replace(/Controller$/, '')}_${m}`,
  });
  addCommonErrors(doc);
  uniqueOperationIds(doc);
  makeTruthful(doc);
  const sorted = sortDocument(doc);
  sorted.tags = orderedTags(sorted);
  return sorted;
}

/** What a tenant integrates first leads; the sandbox follows; the operator's (`admin`) tag comes last. */
const TAG_ORDER = [
  'credentials',
  'payment links',
  'checkout (public)',
  'card tokenization',
  'hosted card page',
  'card payments',
  '3DS',
  'pix-automatic',
  'webhooks',
  'accounts',
];
const TAG_LAST = ['health', 'provider', 'sandbox', 'admin'];

/** The document's tag list, which Swagger UI follows: TAG_ORDER, any other tag by name, then TAG_LAST. */
export function orderedTags(doc: OpenAPIObject): { name: string }[] {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item) as any[]) for (const t of op?.tags ?? []) used.add(t);
  const rank = (t: string) => (TAG_ORDER.includes(t) ? TAG_ORDER.indexOf(t) : TAG_LAST.includes(t) ? 1000 + TAG_LAST.indexOf(t) : 500);
  return [...used].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((name) => ({ name }));
}

/**
 * Swagger UI on a phone: the page never scrolls sideways; long paths and tables wrap or scroll
 * inside. Its light method badges, links and version stamps are darkened to reach 4.5:1.
 */
export const SWAGGER_UI_CSS = `.swagger-ui .info a,.swagger-ui a.nostyle,.swagger-ui .info .link{color:#1d4ed8}
.swagger-ui .info .title small,.swagger-ui .info .title small.version-stamp{background:#374151}.swagger-ui .info .title small pre{color:#fff}
.swagger-ui .btn.authorize{color:#166534;border-color:#166534}.swagger-ui .btn.authorize svg{fill:#166534}
.swagger-ui .opblock.opblock-get .opblock-summary-method{background:#1d4ed8}.swagger-ui .opblock.opblock-post .opblock-summary-method{background:#166534}
.swagger-ui .opblock.opblock-put .opblock-summary-method{background:#9a3412}.swagger-ui .opblock.opblock-patch .opblock-summary-method{background:#0f766e}
.swagger-ui .opblock.opblock-delete .opblock-summary-method{background:#b91c1c}
.swagger-ui .highlight-code .microlight span{color:#f3f4f6!important}
.swagger-ui .json-schema-2020-12-expand-deep-button{color:#1d4ed8}.swagger-ui .json-schema-2020-12__attribute,.swagger-ui .json-schema-2020-12-keyword__name--secondary,.swagger-ui .json-schema-2020-12-keyword__value--secondary{color:#374151}
.swagger-ui .opblock-tag small,.swagger-ui .opblock .opblock-summary-description,.swagger-ui .parameter__in,.swagger-ui .parameter__type,.swagger-ui .prop-format,.swagger-ui .renderedMarkdown p{color:#374151}
@media (max-width: 600px) {
.swagger-ui .wrapper{padding:0 8px}.swagger-ui .info{margin:16px 0}.swagger-ui .info .title{font-size:24px}
.swagger-ui .opblock-tag{font-size:18px;padding:8px 4px}.swagger-ui .opblock-tag small{display:none}
.swagger-ui .opblock .opblock-summary{flex-wrap:wrap}.swagger-ui .opblock .opblock-summary-path{max-width:100%;word-break:break-all;flex-shrink:1}
.swagger-ui .opblock .opblock-summary-description{flex-basis:100%;padding:4px 0 0}
.swagger-ui table{display:block;overflow-x:auto}.swagger-ui .scheme-container{padding:12px 0}.swagger-ui .scheme-container .schemes{flex-wrap:wrap;gap:8px}
.swagger-ui .model-box,.swagger-ui .highlight-code,.swagger-ui .microlight{max-width:100%;overflow-x:auto}
.swagger-ui .btn.authorize{margin-top:8px}
}`;

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
