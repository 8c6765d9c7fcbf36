import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiProduces } from '@nestjs/swagger';
import { errorCodesWithStatus } from '../errors/app-error';

/**
 * What the decorators cannot say, said once for the whole document (issue: "the contract that
 * lies"): the document is OpenAPI 3.1 (its schemas are JSON Schema 2020-12, so `null`, exclusive
 * bounds and formats mean what validators and generators read), dates and integers carry their
 * format and type, amounts their real lower bound, error answers the codes they can carry, and
 * every answer the headers the gateway sets.
 */
type Json = any;

/** Number fields that only ever hold whole numbers (counts, pages, cents, seconds, codes). */
const INTEGER_FIELDS = new Set([
  'limit',
  'offset',
  'total',
  'expires_in',
  'sendAttempts',
  'attempts',
  'attempt',
  'installments',
  'maxInstallments',
  'maxUses',
  'paidCount',
  'viewCount',
  'attemptCount',
  'checkoutAttemptsPerMinute',
  'rateLimitPerMinute',
  'statusCode',
  'lastStatusCode',
  'latencyMs',
  'days',
  'daysAdvanced',
  'expMonth',
  'expYear',
  'remaining',
  'resetSeconds',
  'windowSeconds',
  'rewrapped',
  'unreadable',
  'amountCents',
  'httpBrowserColorDepth',
  'httpBrowserScreenHeight',
  'httpBrowserScreenWidth',
  'httpBrowserTimeDifference',
  'perTransaction',
  'daytime',
  'nighttime',
]);

/** Money in currency units (2 decimals): positive unless the schema says otherwise. */
const AMOUNT_FIELD = /^(amount|minAmount|maxAmount|capturedAmount|grossAmount|netAmount|totalPaid)$/;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isObj(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** OpenAPI 3.0 schema → 3.1 (JSON Schema 2020-12), recursively; `name` is the property's. */
function schema31(s: Json, name?: string): Json {
  if (!isObj(s)) return s;
  if (s.$ref) return s;
  const out: Json = { ...s };
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(out[k])) out[k] = out[k].map((x: Json) => schema31(x));
  if (isObj(out.items)) out.items = schema31(out.items, name);
  if (isObj(out.additionalProperties)) out.additionalProperties = schema31(out.additionalProperties);
  if (isObj(out.properties)) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, schema31(v, k)]));

  if (name && out.type === 'number' && INTEGER_FIELDS.has(name)) out.type = 'integer';
  if (name && out.type === 'number' && AMOUNT_FIELD.test(name) && out.minimum === 1 && out.exclusiveMinimum === undefined) {
    // the swagger plugin writes @IsPositive() as `minimum: 1`; amounts are positive with 2 decimals
    delete out.minimum;
    out.exclusiveMinimum = 0;
  }
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  }
  if (out.type === 'string' && !out.format && !out.enum) {
    const ex = out.example;
    if (typeof ex === 'string' && DATE.test(ex)) out.format = 'date';
    else if (typeof ex === 'string' && DATE_TIME.test(ex)) out.format = 'date-time';
    else if (name && /(^|[a-z])(At)$/.test(name)) out.format = 'date-time';
  }
  if (out.type === 'object' && !out.properties && out.additionalProperties === undefined && !out.allOf && !out.oneOf && !out.anyOf) {
    // a free-form map (Record<…>): say so instead of "no properties"
    const ex = out.example;
    out.additionalProperties =
      isObj(ex) && Object.values(ex).length && Object.values(ex).every((v) => Number.isInteger(v)) ? { type: 'integer' } : true;
  }
  if (out.nullable === true) {
    delete out.nullable;
    const single = Array.isArray(out.allOf) && out.allOf.length === 1 ? out.allOf[0] : null;
    if (single) {
      const { allOf: _a, type: _t, ...rest } = out;
      return { ...rest, anyOf: [single, { type: 'null' }] };
    }
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  } else delete out.nullable;
  return out;
}

function mediaSchemas(content: Json, fn: (s: Json) => Json): void {
  if (!isObj(content)) return;
  for (const media of Object.values<Json>(content)) if (isObj(media) && media.schema) media.schema = fn(media.schema);
}

const REQUEST_ID = {
  description: 'The request id (also in error bodies and logs); a caller-sent X-Request-Id is kept',
  schema: { type: 'string' },
};
const RATE_LIMIT = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this tenant', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
};
const RETRY_AFTER = { description: 'Seconds to wait before retrying', schema: { type: 'integer' } };

const ERROR_REF = '#/components/schemas/ErrorEnvelopeDto';

/** The error codes an answer with this status can carry (every module's table, the kernel's). */
function errorSchema(status: number): Json {
  const codes = errorCodesWithStatus(status);
  if (!codes.length) return { $ref: ERROR_REF };
  return { allOf: [{ $ref: ERROR_REF }, { type: 'object', properties: { error: { type: 'string', enum: codes } } }] };
}

const WEBHOOKS: { webhooks: Record<string, Json>; schemas: Record<string, Json> } = { webhooks: {}, schemas: {} };

/** A module describes the requests the service sends to callers (OpenAPI 3.1 `webhooks`). */
export function registerOpenApiWebhooks(webhooks: Record<string, Json>, schemas: Record<string, Json>): void {
  Object.assign(WEBHOOKS.webhooks, webhooks);
  Object.assign(WEBHOOKS.schemas, schemas);
}

/** Whether a request body's JSON schema requires any field (a body of only optional fields may be left out: an empty body is no body). */
function bodyHasRequiredFields(doc: Json, body: Json): boolean {
  const schema = body.content?.['application/json']?.schema;
  if (!schema) return true;
  const ref = typeof schema.$ref === 'string' ? doc.components?.schemas?.[schema.$ref.split('/').pop()] : schema;
  return !isObj(ref) || ref.type !== 'object' || (Array.isArray(ref.required) && ref.required.length > 0);
}

/** Marks an operation that answers a browser with HTML pages, its errors included (`@ApiExtension(PAGE_EXTENSION, true)`). */
export const PAGE_EXTENSION = 'x-html-page';
const HTML = { schema: { type: 'string' } };

/** A page's answers below 500 are HTML (an error page too); a JSON error it can also give stays beside it. */
function htmlPage(op: Json): void {
  delete op[PAGE_EXTENSION];
  for (const [status, res] of Object.entries<Json>(op.responses)) {
    if (Number(status) >= 500 || Number(status) === 302) continue;
    res.content = { 'text/html': HTML, ...(res.content ?? {}) };
  }
}

export function makeTruthful(doc: Json): Json {
  doc.openapi = '3.1.0';
  for (const [name, s] of Object.entries<Json>(doc.components?.schemas ?? {})) doc.components.schemas[name] = schema31(s);
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!isObj(op) || !op.responses) continue;
      for (const p of op.parameters ?? []) if (p.schema) p.schema = schema31(p.schema, p.name);
      if (op.requestBody) mediaSchemas(op.requestBody.content, (s) => schema31(s));
      if (op.requestBody && !bodyHasRequiredFields(doc, op.requestBody)) op.requestBody.required = false;
      const tenantRoute = (op.security ?? []).some((r: Json) => 'bearer' in r);
      if (op[PAGE_EXTENSION]) htmlPage(op);
      for (const [status, res] of Object.entries<Json>(op.responses)) {
        const code = Number(status);
        mediaSchemas(res.content, (s) => (s.$ref === ERROR_REF && code >= 400 ? errorSchema(code) : schema31(s)));
        res.headers = { ...(res.headers ?? {}), 'X-Request-Id': REQUEST_ID };
        if (tenantRoute && (code < 300 || code === 429)) Object.assign(res.headers, RATE_LIMIT);
        if (code === 429 || code === 503) res.headers['Retry-After'] = RETRY_AFTER;
      }
      void method;
    }
  }
  if (Object.keys(WEBHOOKS.webhooks).length) {
    doc.webhooks = WEBHOOKS.webhooks;
    Object.assign(doc.components.schemas, WEBHOOKS.schemas);
  }
  return doc;
}

/** An operation that answers a browser with HTML pages, error pages included (the document says so). */
export function ApiHtmlPage(): MethodDecorator {
  return applyDecorators(ApiProduces('text/html'), ApiExtension(PAGE_EXTENSION, true));
}
