import { randomUUID } from 'node:crypto';
import { futureDay } from '../fixtures';

/** Reading the committed OpenAPI 3.1 document's schemas: references, unions, sample values. */
export type Schema = Record<string, any>;

export class Schemas {
  constructor(private readonly doc: any) {}

  /** The schema behind a `$ref`, an `allOf` merged into one object schema. */
  resolve(s: Schema | undefined): Schema {
    if (!s) return {};
    if (s.$ref) return this.resolve(this.doc.components.schemas[String(s.$ref).split('/').pop()!]);
    if (s.allOf) {
      const parts = s.allOf.map((x: Schema) => this.resolve(x));
      return {
        ...Object.assign({}, ...parts),
        properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {})),
        required: parts.flatMap((p: Schema) => p.required ?? []),
      };
    }
    return s;
  }

  /** The non-null branch of `anyOf [X, null]` / `type: [X, 'null']`, resolved. */
  core(s: Schema | undefined): Schema {
    const r = this.resolve(s);
    const branches = r.anyOf ?? r.oneOf;
    if (branches) return this.resolve(branches.find((b: Schema) => b.type !== 'null') ?? branches[0]);
    return r;
  }

  nullable(s: Schema | undefined): boolean {
    const r = this.resolve(s);
    if (Array.isArray(r.type) && r.type.includes('null')) return true;
    return (r.anyOf ?? r.oneOf ?? []).some((b: Schema) => b.type === 'null');
  }

  typeOf(s: Schema | undefined): string {
    const c = this.core(s);
    const t = Array.isArray(c.type) ? c.type.find((x: string) => x !== 'null') : c.type;
    if (t) return t;
    if (c.properties) return 'object';
    if (c.items) return 'array';
    if (c.enum) return typeof c.enum[0];
    return 'any';
  }

  /** A plausible valid value: the document's example where it has one, else from the type. */
  sample(s: Schema | undefined, depth = 0): unknown {
    const c = this.core(s);
    const type = this.typeOf(s);
    if (c.format === 'date') return futureDay(10);
    if (c.example !== undefined && depth < 6) return clone(c.example);
    if (c.const !== undefined) return c.const;
    if (c.enum) return c.enum[0];
    if (c.default !== undefined) return clone(c.default);
    switch (type) {
      case 'string':
        if (c.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
        if (c.format === 'email') return 'ana@example.com';
        if (c.format === 'uuid') return randomUUID();
        if (c.format === 'uri' || c.format === 'url') return 'https://merchant.example.com/hooks';
        return 'x'.repeat(Math.max(c.minLength ?? 0, 3));
      case 'integer':
        return c.minimum ?? (c.exclusiveMinimum !== undefined ? c.exclusiveMinimum + 1 : 1);
      case 'number':
        return c.minimum ?? (c.exclusiveMinimum !== undefined ? c.exclusiveMinimum + 10 : 10);
      case 'boolean':
        return true;
      case 'array':
        return depth > 5 ? [] : [this.sample(c.items, depth + 1)];
      case 'object': {
        if (depth > 5) return {};
        const required: string[] = c.required ?? [];
        const out: Record<string, unknown> = {};
        for (const [k, p] of Object.entries<Schema>(c.properties ?? {})) {
          if (required.includes(k) || this.resolve(p).example !== undefined) out[k] = this.sample(p, depth + 1);
        }
        return out;
      }
      default:
        return 'x';
    }
  }
}

export function clone<T>(v: T): T {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Whether any string (or key) in the value holds a C0 control character (the input boundary refuses them). */
export function hasControl(v: unknown): boolean {
  if (typeof v === 'string') return CONTROL.test(v);
  if (Array.isArray(v)) return v.some(hasControl);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => CONTROL.test(k) || hasControl(x));
  return false;
}

/** mulberry32, the sandbox's seeded PRNG: a run is reproducible from its seed. */
export { seededRandom as prng } from '../../../sandbox/src/bank/bank-rules';
