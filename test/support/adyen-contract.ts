import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The card edge's `adyen` contract: Adyen's own OpenAPI 3.1 files (vendored unmodified under
 * test/fixtures/adyen), read by ajv as JSON Schema 2020-12. Vendor extensions (`x-…`) are
 * annotations; formats are checked.
 */
const DIR = join(__dirname, '..', 'fixtures', 'adyen');

type Json = any;

/**
 * Where the file must be read more loosely than written, each pinned by
 * test/provider/adyen-contract.spec.ts (which shows the file as written fails without it).
 */
export const CONTRACT_EXCEPTIONS = {
  /**
   * `NotificationAdditionalData` is closed (`additionalProperties: false`) and does not declare
   * `hmacSignature`, where Adyen documents the signature of every item: it is declared here.
   */
  hmacSignature: 'NotificationAdditionalData.hmacSignature',
} as const;

function load(file: string, id: string, relax: (schemas: Json) => void): { ajv: Ajv2020; doc: Json } {
  const doc = parse(readFileSync(join(DIR, file), 'utf8'));
  const schemas = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', `"${id}#/$defs/`));
  relax(schemas);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: id, $defs: schemas });
  return { ajv, doc };
}

let checkout: { ajv: Ajv2020; doc: Json; cache: Map<string, ValidateFunction> } | null = null;
let webhooks: { ajv: Ajv2020; doc: Json; cache: Map<string, ValidateFunction> } | null = null;

export function checkoutDoc(): Json {
  return (checkout ??= { ...load('CheckoutService-v72.yaml', 'checkout', () => undefined), cache: new Map() }).doc;
}

function errorsOf(v: ValidateFunction): string[] {
  return (v.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Errors of `value` against a Checkout v72 component schema as written (empty when valid). */
export function checkoutErrors(schema: string, value: unknown): string[] {
  checkoutDoc();
  const c = checkout!;
  let v = c.cache.get(schema);
  if (!v) {
    v = c.ajv.getSchema(`checkout#/$defs/${schema}`)!;
    c.cache.set(schema, v);
  }
  return v(value) ? [] : errorsOf(v);
}

function loadWebhooks(relaxed: boolean) {
  return load('Webhooks-v1.yaml', 'webhooks', (s) => {
    if (relaxed) s.NotificationAdditionalData.properties.hmacSignature = { type: 'string' };
  });
}

/** Errors of a webhook body against Webhooks-v1's `NotificationRequest` (or another component). */
export function webhookErrors(value: unknown, schema = 'NotificationRequest', relaxed = true): string[] {
  const w = relaxed ? (webhooks ??= { ...loadWebhooks(true), cache: new Map() }) : loadWebhooks(false);
  const v = w.ajv.getSchema(`webhooks#/$defs/${schema}`)!;
  return v(value) ? [] : errorsOf(v);
}

/** The schema name of an operation's request body or of one of its answers in Checkout v72. */
export function operationSchema(path: string, status?: string): string {
  const op = checkoutDoc().paths[path].post;
  const node = status ? op.responses[status].content['application/json'].schema : op.requestBody.content['application/json'].schema;
  return String(node.$ref).split('/').pop()!;
}
