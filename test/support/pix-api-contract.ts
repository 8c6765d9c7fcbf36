import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The bank edge's contract: API Pix 2.9.0 as the Central Bank publishes it (vendored unmodified
 * under test/fixtures/pix-api), checked with ajv. Requests the adapter sends, answers the sandbox
 * PSP gives and the callbacks it posts are validated against the operation's schemas.
 */
const FILE = join(__dirname, '..', 'fixtures', 'pix-api', 'bcb-pix-api-2.9.0.yaml');

type Json = any;

let loaded: { doc: Json; ajv: Ajv; cache: Map<string, ValidateFunction> } | null = null;

/**
 * `required` entries of the file that its own examples do not carry (recBody1, recResponse1…),
 * naming properties the schema never declares or declares elsewhere: read as not required.
 * Each is checked by test/support/pix-api-contract.spec.ts (the example fails without it).
 */
export const REQUIRED_QUIRKS: Readonly<Record<string, readonly string[]>> = {
  RecBase: ['retentativa'], // the property is `politicaRetentativa` (RecConfiguracao)
  PayloadLocationRecGerada: ['tipo'], // no `tipo` property is declared
  DadosPagadorRec: ['ispbParticipante'], // declared under `pagador`, required at the top
  SolicRecBase: ['pagador'],
  SolicRecCompleta: ['rec'], // the property is `recPayload` (solicRecResponse1) // no `pagador` property is declared (solicRecBody1 has none)
};
/** Required only in answers: the PSP assigns it (`POST /rec` cannot send it). */
const ANSWER_ONLY_REQUIRED: Readonly<Record<string, readonly string[]>> = { RecBase: ['idRec'] };

function relax(schemas: Json, answer: boolean): Json {
  const out = { ...schemas };
  const drops: Record<string, readonly string[]> = { ...REQUIRED_QUIRKS };
  if (!answer) for (const [name, extra] of Object.entries(ANSWER_ONLY_REQUIRED)) drops[name] = [...(drops[name] ?? []), ...extra];
  for (const [name, drop] of Object.entries(drops)) {
    if (out[name]?.required) out[name] = { ...out[name], required: out[name].required.filter((r: string) => !drop.includes(r)) };
  }
  return out;
}

/**
 * A `oneOf` whose branches are objects with no required property is met by both branches for
 * any object (so by none, as oneOf): the file means anyOf (RecEncerramento's rejeicao|cancelamento).
 */
function unsatisfiableOneOf(branches: Json[]): boolean {
  return branches.length > 1 && branches.every((b) => b && b.type === 'object' && !b.required && !b.$ref);
}

/** OpenAPI 3.0 schema dialect → JSON Schema (draft 7) as ajv reads it. */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'examples' || k === 'xml' || k === 'externalDocs' || k === 'discriminator') continue;
    if (k === 'pattern' && typeof v === 'string' && /^\/.*\/$/.test(v)) out.pattern = v.slice(1, -1);
    else out[k] = toJsonSchema(v);
  }
  if (Array.isArray(out.oneOf) && unsatisfiableOneOf(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (!out.type) return { anyOf: [out, { type: 'null' }] };
  } else delete out.nullable;
  return out;
}

function load() {
  if (loaded) return loaded;
  const doc = parse(readFileSync(FILE, 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'pixapi', components: { schemas: toJsonSchema(relax(doc.components.schemas, true)) } });
  ajv.addSchema({ $id: 'pixapi-request', components: { schemas: toJsonSchema(relax(doc.components.schemas, false)) } });
  loaded = { doc, ajv, cache: new Map() };
  return loaded;
}

function deref(doc: Json, node: Json): Json {
  let n = node;
  while (n && n.$ref && typeof n.$ref === 'string' && n.$ref.startsWith('#/')) {
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce((o: Json, k: string) => o?.[k], doc);
  }
  return n;
}

function schemaOf(content: Json): Json | null {
  if (!content) return null;
  const media = content['application/json'] ?? content['application/problem+json'] ?? Object.values(content)[0];
  return (media as Json)?.schema ?? null;
}

function compile(key: string, schema: Json, request = false): ValidateFunction {
  const { ajv, cache } = load();
  let v = cache.get(key);
  if (!v) {
    // $refs into components point at the registered document (requests: idRec is the PSP's to assign)
    const id = request ? 'pixapi-request' : 'pixapi';
    const rewritten = JSON.parse(JSON.stringify(toJsonSchema(schema)).replace(/"#\/components\/schemas\//g, `"${id}#/components/schemas/`));
    v = ajv.compile(rewritten);
    cache.set(key, v);
  }
  return v;
}

export interface ContractResult {
  valid: boolean;
  errors: string[];
}

function result(v: ValidateFunction, body: unknown): ContractResult {
  const valid = v(body) as boolean;
  return {
    valid,
    errors: valid
      ? []
      : (v.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`),
  };
}

function operation(method: string, pathTemplate: string): Json {
  const { doc } = load();
  const item = doc.paths[pathTemplate];
  if (!item) throw new Error(`API Pix has no path ${pathTemplate}`);
  const op = item[method.toLowerCase()];
  if (!op) throw new Error(`API Pix has no ${method} ${pathTemplate}`);
  return op;
}

/** The request body of `method pathTemplate` (e.g. `PUT`, `/cobr/{txid}`). */
export function validateRequest(method: string, pathTemplate: string, body: unknown): ContractResult {
  const { doc } = load();
  const rb = deref(doc, operation(method, pathTemplate).requestBody);
  const schema = schemaOf(rb?.content);
  if (!schema)
    return body === undefined || body === null ? { valid: true, errors: [] } : { valid: false, errors: ['the operation takes no body'] };
  return result(compile(`req ${method} ${pathTemplate}`, schema, true), body);
}

/** The answer `status` of `method pathTemplate`; a status the operation does not list is invalid. */
export function validateResponse(method: string, pathTemplate: string, status: number, body: unknown): ContractResult {
  const { doc } = load();
  const responses = operation(method, pathTemplate).responses ?? {};
  const r = deref(doc, responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default);
  if (!r)
    return {
      valid: false,
      errors: [`status ${status} is not an answer of ${method} ${pathTemplate} (${Object.keys(responses).join(', ')})`],
    };
  const schema = schemaOf(r.content);
  if (!schema) return { valid: true, errors: [] };
  return result(compile(`res ${method} ${pathTemplate} ${status}`, schema), body);
}

const CALLBACKS: Record<'rec' | 'cobr' | 'pix', [string, string]> = {
  rec: ['/webhookrec', 'rec'],
  cobr: ['/webhookcobr', 'cobr'],
  pix: ['/webhook/{chave}', 'pix'],
};

/** A callback the PSP posts to `{webhookUrl}/rec`, `/cobr` or `/pix`. */
export function validateCallback(kind: 'rec' | 'cobr' | 'pix', body: unknown): ContractResult {
  const { doc } = load();
  const [path, name] = CALLBACKS[kind];
  const callbacks = operation('PUT', path).callbacks ?? {};
  const cb = callbacks[name] ?? Object.values(callbacks)[0];
  if (!cb) throw new Error(`API Pix has no callback on ${path}`);
  const post = (Object.values(cb)[0] as Json).post;
  const schema = schemaOf(deref(doc, post.requestBody)?.content);
  return result(compile(`cb ${kind}`, schema), body);
}

/** Which of the standard's path templates a concrete path is (`/cobr/ABC` → `/cobr/{txid}`). */
/** The parsed standard (for tests that read its examples). */
export function standard(): Json {
  return load().doc;
}

export function templateOf(method: string, path: string): string | null {
  const { doc } = load();
  const parts = path.split('?')[0].split('/').filter(Boolean);
  let best: string | null = null;
  for (const [template, item] of Object.entries<Json>(doc.paths)) {
    const op = item[method.toLowerCase()];
    // the payload locations (`/rec/{recUrlAccessToken}`, …) are served to payers' banks on
    // another server of the PSP, not on the API the adapter calls
    if (!op || op.servers) continue;
    const t = template.split('/').filter(Boolean);
    if (t.length !== parts.length) continue;
    if (t.every((seg, i) => (seg.startsWith('{') ? true : seg === parts[i]))) {
      // a literal segment beats a parameter (`/cobv/{txid}` vs `/{pixUrlAccessToken}`)
      if (!best || t.filter((s) => !s.startsWith('{')).length > best.split('/').filter((s) => s && !s.startsWith('{')).length)
        best = template;
    }
  }
  return best;
}

/** Every exchange the sandbox PSP handled while recording, checked against the standard. */
export interface PspObservable {
  observe(fn: (req: { method: string; path: string; body: unknown }, answer: { status: number; body?: unknown }) => void): () => void;
}

export function recordExchanges(psp: PspObservable) {
  const seen: { method: string; path: string; template: string | null; request: unknown; status: number; answer: unknown }[] = [];
  const stop = psp.observe((req, answer) =>
    seen.push({
      method: req.method,
      path: req.path,
      template: templateOf(req.method, req.path),
      request: req.body,
      status: answer.status,
      answer: answer.body,
    }),
  );
  return {
    seen,
    stop,
    /** Every request and answer validated; the list of what does not conform (empty when all do). */
    violations(): string[] {
      const out: string[] = [];
      for (const x of seen) {
        if (!x.template) {
          out.push(`${x.method} ${x.path}: not an API Pix route`);
          continue;
        }
        if (x.status < 300 && x.request !== undefined) {
          const r = validateRequest(x.method, x.template, x.request);
          if (!r.valid) out.push(`${x.method} ${x.path} request: ${r.errors.join('; ')}`);
        }
        const a = validateResponse(x.method, x.template, x.status, x.answer);
        if (!a.valid) out.push(`${x.method} ${x.path} ${x.status} answer: ${a.errors.join('; ')}`);
      }
      return out;
    },
  };
}
