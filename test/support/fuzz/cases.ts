import type { ValidateFunction } from 'ajv';
import { clone, hasControl, Schema, Schemas } from './schema-values';

/** One request of the fuzz run, and whether the document (or the input boundary) forbids it. */
export interface FuzzCase {
  /** `POST /v1/acquiring/links`: the operation, as the document names it. */
  op: string;
  /** What was done to the valid request: `body.name: null`, `query.limit: -1`, … */
  name: string;
  method: string;
  /** Concrete path and query string, already percent-encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  forbidden: boolean;
  /** Statuses the document answers with an HTML page (a browser's error page is not the JSON envelope). */
  htmlStatuses: number[];
}

export interface Operation {
  method: string;
  template: string;
  op: any;
}

export interface CaseContext {
  schemas: Schemas;
  validator(schema: object): ValidateFunction;
  /** A real value for a path parameter (an existing resource of the fixtures). */
  pathValue(template: string, name: string): string;
  /** The credentials the operation's security asks for. */
  auth(op: any): Record<string, string>;
}

type Key = string | number;
interface Slot {
  path: Key[];
  schema: Schema;
  required: boolean;
}

const HOSTILE_PATH: { v: string; forbidden?: boolean; why: string }[] = [
  { v: 'a'.repeat(600), why: 'over the parameter length limit' },
  { v: '%00', forbidden: true, why: 'NUL' },
  { v: 'a%1Bb', forbidden: true, why: 'ESC' },
  { v: '%E0%A4%A', forbidden: true, why: 'bad percent-encoding' },
  { v: '..%2F..%2Fetc%2Fpasswd', why: 'traversal' },
  { v: "'%20OR%20'1'%3D'1", why: 'SQL quote' },
  { v: 'a%C3%A7%C3%A3o', why: 'non-ASCII' },
  { v: '00000000-0000-4000-8000-000000000000', why: 'nobody' },
  { v: '-1', why: 'negative number' },
  { v: '%F0%9F%92%B8', why: 'emoji' },
];

const RAW_BODIES: { v: string; why: string }[] = [
  { v: '{', why: 'truncated JSON' },
  { v: '{"a":', why: 'truncated member' },
  { v: 'null', why: 'JSON null' },
  { v: '[]', why: 'JSON array' },
  { v: '0', why: 'JSON number' },
  { v: '"x"', why: 'JSON string' },
  { v: 'true', why: 'JSON boolean' },
  { v: '['.repeat(4000) + ']'.repeat(4000), why: 'deep nesting' },
  { v: '{"x":' + '{"x":'.repeat(2000) + '1' + '}'.repeat(2001), why: 'deep objects' },
  { v: '{"a":1e999}', why: 'number beyond double' },
  { v: '\u0000', why: 'NUL body' },
];

/** Every case for one operation: the valid request, then one defect at a time. */
export function casesFor(o: Operation, ctx: CaseContext): FuzzCase[] {
  const { schemas } = ctx;
  const opName = `${o.method.toUpperCase()} ${o.template}`;
  const params: any[] = o.op.parameters ?? [];
  const pathParams = Object.fromEntries(
    params.filter((p) => p.in === 'path').map((p) => [p.name, encodeURIComponent(ctx.pathValue(o.template, p.name))]),
  );
  const query: Record<string, string> = {};
  for (const p of params.filter((x) => x.in === 'query' && x.required)) query[p.name] = String(schemas.sample(p.schema));
  const content = o.op.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const bodyRequired = o.op.requestBody?.required === true;
  const base = jsonSchema ? schemas.sample(jsonSchema) : undefined;
  const bodyValid = jsonSchema ? ctx.validator(jsonSchema) : null;
  const headers = ctx.auth(o.op);
  const htmlStatuses = Object.entries<any>(o.op.responses ?? {})
    .filter(([, r]) => r.content?.['text/html'])
    .map(([st]) => Number(st));

  const build = (
    name: string,
    over: {
      path?: Record<string, string>;
      query?: Record<string, string | string[]>;
      rawQuery?: string;
      body?: unknown;
      raw?: string;
      type?: string | null;
      headers?: Record<string, string>;
    },
    forbidden: boolean,
  ): FuzzCase => {
    const pp = { ...pathParams, ...over.path };
    let url = o.template.replace(/\{([^}]+)\}/g, (_, n) => pp[n] ?? 'x');
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(over.query ?? query)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
    const qs = [q.toString(), over.rawQuery].filter(Boolean).join('&');
    if (qs) url += `?${qs}`;
    const h: Record<string, string> = { ...headers, ...over.headers };
    let body: string | undefined;
    if (over.raw !== undefined) body = over.raw;
    else if (over.body !== undefined) body = JSON.stringify(over.body);
    else if (base !== undefined) body = JSON.stringify(base);
    const type = over.type === undefined ? (body !== undefined ? 'application/json' : null) : over.type;
    if (type) h['content-type'] = type;
    return { op: opName, name, method: o.method.toUpperCase(), url, headers: h, body, forbidden, htmlStatuses };
  };
  const bodyForbidden = (b: unknown) => (bodyValid ? !bodyValid(b) : false) || hasControl(b);

  const out: FuzzCase[] = [build('as documented', {}, base !== undefined && bodyForbidden(base))];

  // path parameters
  for (const p of params.filter((x) => x.in === 'path')) {
    for (const h of HOSTILE_PATH) {
      let decoded: string | null;
      try {
        decoded = decodeURIComponent(h.v);
      } catch {
        decoded = null;
      }
      const forbidden = !!h.forbidden || decoded === null || !ctx.validator(p.schema)(decoded);
      out.push(build(`path.${p.name}: ${h.why}`, { path: { [p.name]: h.v } }, forbidden));
    }
  }

  // query parameters
  for (const p of params.filter((x) => x.in === 'query')) {
    const t = schemas.typeOf(p.schema);
    const s = schemas.core(p.schema);
    const values: string[] = [
      'abc',
      '',
      '-1',
      '0',
      '1.5',
      '1e308',
      '99999999999999999999',
      '\u0000',
      'a\u001bb',
      'x'.repeat(5000),
      'NOT_A_VALUE',
    ];
    if (s.maximum !== undefined) values.push(String(s.maximum + 1));
    if (s.minimum !== undefined) values.push(String(s.minimum - 1));
    for (const v of values) {
      out.push(
        build(
          `query.${p.name}: ${JSON.stringify(v.length > 20 ? `${v.slice(0, 8)}…(${v.length})` : v)}`,
          { query: { ...query, [p.name]: v } },
          queryForbidden(ctx, p.schema, t, v),
        ),
      );
    }
    out.push(
      build(
        `query.${p.name}: repeated`,
        { query: { ...query, [p.name]: [String(schemas.sample(p.schema)), String(schemas.sample(p.schema))] } },
        t !== 'array',
      ),
    );
    if (p.required) {
      const rest = { ...query };
      delete rest[p.name];
      out.push(build(`query.${p.name}: missing`, { query: rest }, true));
    }
  }
  out.push(build('query: an unknown parameter', { rawQuery: 'zzUnknown=1' }, false));
  out.push(build('query: bad percent-encoding', { rawQuery: 'limit=%E0%A4%A' }, true));

  // header parameters
  for (const p of params.filter((x) => x.in === 'header')) {
    out.push(build(`header.${p.name}: 5000 characters`, { headers: { [p.name]: 'k'.repeat(5000) } }, false));
    out.push(build(`header.${p.name}: empty`, { headers: { [p.name]: '' } }, false));
  }

  if (!jsonSchema) {
    if (['POST', 'PUT', 'PATCH'].includes(o.method.toUpperCase())) {
      out.push(build('body: unexpected JSON', { body: { zzUnknown: 1 } }, false));
      out.push(build('body: malformed JSON', { raw: '{' }, true));
    }
    return out;
  }

  // the body as a whole
  for (const r of RAW_BODIES) out.push(build(`body: ${r.why}`, { raw: r.v }, true));
  if (bodyRequired) out.push(build('body: none', { raw: '', type: 'application/json' }, true));
  out.push(build('body: no content type', { type: null }, true));
  for (const t of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16'].filter(
    (x) => !content[x],
  )) {
    out.push(build(`content-type: ${t}`, { type: t }, !t.startsWith('application/json')));
  }
  out.push(build('body: UTF-8 byte order mark', { raw: `\uFEFF${JSON.stringify(base)}` }, false));
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    const withProto = `{"__proto__":{"polluted":true},${JSON.stringify(base).slice(1)}`;
    out.push(build('body: __proto__ key', { raw: withProto }, bodyForbidden({ ...(base as object), ['__proto__']: { polluted: true } })));
    const extra = { ...(base as object), zzUnknown: 'x' };
    out.push(build('body: an unknown field', { body: extra }, bodyForbidden(extra)));
  }

  // each field, one defect at a time
  for (const slot of slotsOf(schemas, jsonSchema)) {
    for (const m of mutationsOf(schemas, slot)) {
      const b = applyAt(base, slot.path, m.value);
      out.push(build(`body.${slot.path.join('.')}: ${m.why}`, { body: b }, bodyForbidden(b)));
    }
  }
  return out;
}

function queryForbidden(ctx: CaseContext, schema: Schema, t: string, v: string): boolean {
  if (hasControl(v)) return true;
  let value: unknown = v;
  if (t === 'integer' || t === 'number') {
    if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v)) return true;
    value = Number(v);
  } else if (t === 'boolean') {
    if (v !== 'true' && v !== 'false') return true;
    value = v === 'true';
  }
  return !ctx.validator(schema)(value);
}

/** Every property of the body schema, nested objects and the first item of arrays included. */
export function slotsOf(schemas: Schemas, root: Schema, path: Key[] = [], depth = 0): Slot[] {
  const c = schemas.core(root);
  const out: Slot[] = [];
  if (depth > 4) return out;
  const t = schemas.typeOf(root);
  if (t === 'object') {
    const required: string[] = c.required ?? [];
    for (const [k, p] of Object.entries<Schema>(c.properties ?? {})) {
      out.push({ path: [...path, k], schema: p, required: required.includes(k) });
      out.push(...slotsOf(schemas, p, [...path, k], depth + 1));
    }
  } else if (t === 'array' && c.items) {
    out.push({ path: [...path, 0], schema: c.items, required: (c.minItems ?? 0) > 0 });
    out.push(...slotsOf(schemas, c.items, [...path, 0], depth + 1));
  }
  return out;
}

const MISSING = Symbol('missing');

function mutationsOf(schemas: Schemas, slot: Slot): { value: unknown; why: string }[] {
  const c = schemas.core(slot.schema);
  const t = schemas.typeOf(slot.schema);
  const m: { value: unknown; why: string }[] = [
    { value: MISSING, why: 'missing' },
    { value: null, why: 'null' },
  ];
  const sample = schemas.sample(slot.schema);
  switch (t) {
    case 'string':
      m.push({ value: 12345, why: 'a number' }, { value: ['x'], why: 'an array' }, { value: { a: 1 }, why: 'an object' });
      m.push({ value: 'a\u0000b', why: 'NUL' }, { value: 'x\u001b[31m', why: 'ESC' }, { value: '\u007f', why: 'DEL' });
      m.push(
        { value: '', why: 'empty' },
        { value: '   ', why: 'blank' },
        { value: 'x'.repeat((c.maxLength ?? 4999) + 1), why: 'too long' },
      );
      m.push(
        { value: "'; DROP TABLE tenants; --", why: 'SQL' },
        { value: '\ud800', why: 'lone surrogate' },
        { value: '<script>alert(1)</script>', why: 'markup' },
      );
      if (c.enum || c.format || c.pattern) m.push({ value: 'NOT_A_VALUE', why: 'outside its enum/format/pattern' });
      if (c.format === 'date')
        m.push(
          { value: '2026-02-30', why: 'no such day' },
          { value: '1900-01-01', why: 'long past' },
          { value: '9999-12-31', why: 'far future' },
        );
      if (c.format === 'date-time') m.push({ value: '2026-13-01T00:00:00Z', why: 'bad month' });
      break;
    case 'integer':
    case 'number':
      m.push({ value: String(sample), why: 'a numeric string' }, { value: true, why: 'a boolean' }, { value: [1], why: 'an array' });
      m.push(
        { value: 0, why: 'zero' },
        { value: -1, why: 'negative' },
        { value: 1e308, why: '1e308' },
        { value: 1e-7, why: 'tiny' },
        { value: 2 ** 53 + 1, why: 'beyond safe integers' },
      );
      m.push({ value: 1.005, why: 'sub-cent' }, { value: 10.5, why: 'fractional' });
      if (c.maximum !== undefined) m.push({ value: c.maximum + 1, why: 'maximum + 1' });
      if (c.minimum !== undefined) m.push({ value: c.minimum - 1, why: 'minimum - 1' });
      break;
    case 'boolean':
      m.push({ value: 'true', why: 'a string' }, { value: 1, why: 'a number' });
      break;
    case 'array':
      m.push(
        { value: [], why: 'empty' },
        { value: 'x', why: 'a string' },
        { value: { 0: sample }, why: 'an object' },
        { value: [null], why: 'a null item' },
      );
      m.push({ value: Array.from({ length: (c.maxItems ?? 999) + 1 }, () => (sample as unknown[])[0]), why: 'too many items' });
      break;
    case 'object':
      m.push(
        { value: {}, why: 'empty' },
        { value: [], why: 'an array' },
        { value: 'x', why: 'a string' },
        { value: [{}], why: 'an array of one empty object' },
      );
      break;
  }
  return m;
}

function applyAt(base: unknown, path: Key[], value: unknown): unknown {
  const root: any = clone(base) ?? {};
  let cur = root;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[k];
  }
  const last = path[path.length - 1];
  if (value === MISSING) {
    if (Array.isArray(cur) && typeof last === 'number') cur.splice(last, 1);
    else delete cur[last];
  } else cur[last] = value;
  return root;
}

/** A random value of any JSON shape, from the seeded generator. */
export function randomJson(rnd: () => number, depth = 0): unknown {
  const pick = Math.floor(rnd() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rnd() < 0.5;
    case 2:
      return Math.floor((rnd() - 0.5) * 10 ** Math.floor(rnd() * 20));
    case 3:
      return (rnd() - 0.3) * 10 ** Math.floor(rnd() * 12 - 4);
    case 4:
    case 5: {
      const len = Math.floor(rnd() ** 3 * 300);
      let s = '';
      for (let i = 0; i < len; i++) {
        const r = rnd();
        s += String.fromCodePoint(
          r < 0.05
            ? Math.floor(rnd() * 32)
            : r < 0.7
              ? 32 + Math.floor(rnd() * 95)
              : r < 0.95
                ? 160 + Math.floor(rnd() * 1000)
                : 0x1f300 + Math.floor(rnd() * 200),
        );
      }
      return s;
    }
    case 6:
      return Array.from({ length: Math.floor(rnd() * 4) }, () => randomJson(rnd, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 4) }, (_, i) => [`k${i}`, randomJson(rnd, depth + 1)]));
  }
}

/** `count` random cases for one operation: a random field (or parameter) set to a random value. */
export function randomCasesFor(o: Operation, ctx: CaseContext, rnd: () => number, count: number): FuzzCase[] {
  const { schemas } = ctx;
  const content = o.op.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const base = jsonSchema ? schemas.sample(jsonSchema) : undefined;
  const slots = jsonSchema ? slotsOf(schemas, jsonSchema) : [];
  const queryParams = (o.op.parameters ?? []).filter((p: any) => p.in === 'query');
  const template = casesFor(
    {
      ...o,
      op: { ...o.op, parameters: (o.op.parameters ?? []).filter((p: any) => p.in !== 'query' || p.required), requestBody: undefined },
    },
    ctx,
  )[0];
  const out: FuzzCase[] = [];
  const pathParams = (o.op.parameters ?? []).filter((p: any) => p.in === 'path');
  for (let i = 0; i < count; i++) {
    if (slots.length) {
      const slot = slots[Math.floor(rnd() * slots.length)];
      const body = applyAt(base, slot.path, randomJson(rnd));
      const valid = ctx.validator(jsonSchema);
      out.push({
        ...template,
        headers: { ...template.headers, 'content-type': 'application/json' },
        name: `random body.${slot.path.join('.')}`,
        body: JSON.stringify(body),
        forbidden: !valid(body) || hasControl(body),
      });
    } else if (queryParams.length) {
      const p = queryParams[Math.floor(rnd() * queryParams.length)];
      const v = randomJson(rnd);
      const s = typeof v === 'string' ? v : JSON.stringify(v);
      const sep = template.url.includes('?') ? '&' : '?';
      out.push({
        ...template,
        name: `random query.${p.name}`,
        url: `${template.url}${sep}${encodeURIComponent(p.name)}=${encodeURIComponent(s)}`,
        forbidden: queryForbidden(ctx, p.schema, schemas.typeOf(p.schema), s),
      });
    } else if (pathParams.length) {
      const p = pathParams[Math.floor(rnd() * pathParams.length)];
      const v = randomJson(rnd);
      const s = (typeof v === 'string' ? v : JSON.stringify(v)) || 'x';
      const url = o.template.replace(/\{([^}]+)\}/g, (_, n) => encodeURIComponent(n === p.name ? s : ctx.pathValue(o.template, n)));
      out.push({ ...template, name: `random path.${p.name}`, url, forbidden: hasControl(s) || !ctx.validator(p.schema)(s) });
    }
  }
  return out;
}
