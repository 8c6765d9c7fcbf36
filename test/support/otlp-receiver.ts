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

type Fields = Map<number, (number | Buffer)[]>;

/** One protobuf message's fields by number: varints as numbers, length-delimited and fixed values as bytes. */
function fieldsOf(buf: Buffer): Fields {
  const out: Fields = new Map();
  let pos = 0;
  const varint = () => {
    let v = 0;
    for (let shift = 1; ; shift *= 128) {
      const b = buf[pos++];
      v += (b & 0x7f) * shift;
      if (b < 0x80) return v;
    }
  };
  while (pos < buf.length) {
    const tag = varint();
    const wire = tag % 8;
    let value: number | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const n = varint();
      value = buf.subarray(pos, (pos += n));
    } else if (wire === 1 || wire === 5) value = buf.subarray(pos, (pos += wire === 1 ? 8 : 4));
    else throw new Error(`wire type ${wire} is not in OTLP traces`);
    const list = out.get(Math.floor(tag / 8)) ?? [];
    list.push(value);
    out.set(Math.floor(tag / 8), list);
  }
  return out;
}

const bytesOf = (f: Fields, n: number) => (f.get(n) ?? []) as Buffer[];

function protoValue(any: Buffer): unknown {
  const f = fieldsOf(any);
  if (f.has(1)) return bytesOf(f, 1)[0].toString('utf8');
  if (f.has(2)) return f.get(2)![0] === 1;
  if (f.has(3)) return f.get(3)![0]; // as the JSON exporter writes it: a number
  if (f.has(4)) return (f.get(4)![0] as Buffer).readDoubleLE(0);
  return undefined;
}

function protoAttributes(list: Buffer[]): { key: string; value: Record<string, unknown> }[] {
  return list.map((kv) => {
    const f = fieldsOf(kv);
    return { key: bytesOf(f, 1)[0].toString('utf8'), value: { v: protoValue(bytesOf(f, 2)[0]) } };
  });
}

/**
 * An OTLP protobuf `ExportTraceServiceRequest` read by the field numbers of OTLP's
 * `trace.proto`, into the shape of its JSON form (ids in hex), so both protocols are checked
 * by the same assertions. Written here from the protocol, apart from the exporter's writer.
 */
export function decodeTraces(raw: Buffer): any {
  const hex = (b: Buffer | undefined) => (b && b.length ? b.toString('hex') : undefined);
  return {
    resourceSpans: bytesOf(fieldsOf(raw), 1).map((rsBuf) => {
      const rs = fieldsOf(rsBuf);
      const resource = bytesOf(rs, 1)[0];
      return {
        resource: { attributes: resource ? protoAttributes(bytesOf(fieldsOf(resource), 1)) : [] },
        scopeSpans: bytesOf(rs, 2).map((ssBuf) => ({
          spans: bytesOf(fieldsOf(ssBuf), 2).map((spanBuf) => {
            const s = fieldsOf(spanBuf);
            const status = bytesOf(s, 15)[0];
            return {
              traceId: hex(bytesOf(s, 1)[0]),
              spanId: hex(bytesOf(s, 2)[0]),
              parentSpanId: hex(bytesOf(s, 4)[0]),
              name: bytesOf(s, 5)[0].toString('utf8'),
              kind: s.get(6)?.[0] ?? 0,
              attributes: protoAttributes(bytesOf(s, 9)),
              status: status ? { code: fieldsOf(status).get(3)?.[0] ?? 0 } : undefined,
            };
          }),
        })),
      };
    }),
  };
}

/**
 * A tiny OTLP/HTTP traces receiver: collects every POST /v1/traces body, as a collector would
 * receive it from the service's real exporter. JSON bodies are parsed, protobuf ones decoded
 * ({@link decodeTraces}), into the same spans; the raw body is kept too.
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
          this.bodies.push({
            contentType: req.headers['content-type'],
            body: json ? JSON.parse(raw.toString('utf8')) : decodeTraces(raw),
            raw,
          });
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
