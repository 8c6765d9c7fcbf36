import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { createServer, request, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * The committed openapi.json as a validator of live answers: ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1), strict, formats on; the OpenAPI vocabulary's annotations (`example`,
 * `xml`, `externalDocs`, `discriminator`) are declared as keywords, nothing else is let through.
 */
export class OpenApiValidator {
  readonly doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'));
  private readonly ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; re: RegExp; literals: number }[];

  constructor() {
    addFormats(this.ajv);
    this.ajv.addKeyword('example');
    this.ajv.addKeyword('xml');
    this.ajv.addKeyword('externalDocs');
    this.ajv.addKeyword('discriminator');
    this.ajv.addSchema({ $id: 'doc', $defs: this.rewrite(this.doc.components.schemas) });
    this.templates = Object.keys(this.doc.paths).map((template) => ({
      template,
      re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    }));
  }

  private rewrite<T>(v: T): T {
    return JSON.parse(JSON.stringify(v).replace(/"#\/components\/schemas\//g, '"doc#/$defs/'));
  }

  templateOf(path: string): string | null {
    const p = path.split('?')[0];
    const hits = this.templates.filter((t) => t.re.test(p)).sort((a, b) => b.literals - a.literals);
    return hits[0]?.template ?? null;
  }

  /** What is wrong with this answer according to the document (empty: it conforms). */
  check(method: string, path: string, status: number, headers: Record<string, string | string[] | undefined>, body: unknown): string[] {
    const template = this.templateOf(path);
    const where = `${method} ${path} ${status}`;
    if (!template) return [`${where}: no such path in the document`];
    const op = this.doc.paths[template][method.toLowerCase()];
    if (!op) return [`${where}: no ${method} on ${template}`];
    const res = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
    if (!res) return [`${where}: status not documented (${Object.keys(op.responses).join(', ')})`];
    const out: string[] = [];
    for (const [name, h] of Object.entries<any>(res.headers ?? {})) {
      if (name === 'Retry-After' || h.required === false) continue;
      if (headers[name.toLowerCase()] === undefined) out.push(`${where}: header ${name} missing`);
    }
    const type = String(headers['content-type'] ?? '');
    const schema = res.content?.['application/json']?.schema;
    if (schema && type.includes('json')) {
      const key = `${method} ${template} ${status}`;
      let v = this.cache.get(key);
      if (!v) {
        v = this.ajv.compile(this.rewrite(schema));
        this.cache.set(key, v);
      }
      if (!v(body))
        out.push(
          `${where}: ${(v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ')}`,
        );
    }
    return out;
  }

  /** A validator of values against one schema of the document (a request body, a parameter). */
  schemaValidator(schema: object): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = this.cache.get(key);
    if (!v) {
      v = this.ajv.compile(this.rewrite(schema));
      this.cache.set(key, v);
    }
    return v;
  }
}

export interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** An HTTP hop in front of the app that keeps every JSON answer it passes on. */
export class RecordingProxy {
  readonly seen: Recorded[] = [];
  private server: Server;
  url = '';

  constructor(private readonly target: string) {
    this.server = createServer((req, res) => {
      const up = request(new URL(req.url ?? '/', this.target), { method: req.method, headers: req.headers }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const raw = Buffer.concat(chunks);
          let body: unknown = undefined;
          if (String(r.headers['content-type'] ?? '').includes('json') && raw.length) {
            try {
              body = JSON.parse(raw.toString('utf8'));
            } catch {
              body = raw.toString('utf8');
            }
          }
          this.seen.push({ method: req.method ?? 'GET', path: req.url ?? '/', status: r.statusCode ?? 0, headers: r.headers, body });
          res.writeHead(r.statusCode ?? 502, r.headers).end(raw);
        });
      });
      up.on('error', () => res.writeHead(502).end());
      req.pipe(up);
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}
