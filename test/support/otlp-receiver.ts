import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** One span as OTLP/JSON encodes it (ids in hex), with its resource's attributes. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number };
  resource: Record<string, unknown>;
}

function attributesOf(list: { key: string; value: Record<string, unknown> }[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list ?? []) out[a.key] = Object.values(a.value ?? {})[0];
  return out;
}

/**
 * A tiny OTLP/HTTP traces receiver: collects every POST /v1/traces body, as a collector would
 * receive it from the service's real exporter. JSON bodies are parsed into spans; protobuf ones
 * are kept raw.
 */
export class OtlpReceiver {
  readonly bodies: any[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          const raw = Buffer.concat(chunks);
          const json = req.headers['content-type'] === 'application/json';
          this.bodies.push({ contentType: req.headers['content-type'], body: json ? JSON.parse(raw.toString('utf8')) : {}, raw });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  spans(): ExportedSpan[] {
    const out: ExportedSpan[] = [];
    for (const { body } of this.bodies) {
      for (const rs of body.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) out.push({ ...s, attributes: attributesOf(s.attributes), resource });
        }
      }
    }
    return out;
  }

  /** Waits until a span matches (the exporter batches), up to `ms`. */
  async waitFor(what: string, match: (s: ExportedSpan) => boolean, ms = 10000): Promise<ExportedSpan> {
    const until = Date.now() + ms;
    for (;;) {
      const found = this.spans().find(match);
      if (found) return found;
      if (Date.now() > until)
        throw new Error(
          `no exported span for ${what}; got: ${this.spans()
            .map((s) => s.name)
            .join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
