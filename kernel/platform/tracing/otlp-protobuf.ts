import type { Attributes, AttributeValue, HrTime, Link, SpanContext } from '@opentelemetry/api';
import { ProtobufTraceSerializer, type IExportTraceServiceResponse } from '@opentelemetry/otlp-transformer';
import type { ISerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-node';

/**
 * The OTLP/HTTP protobuf body of an `ExportTraceServiceRequest`, written in one pass into a
 * buffer kept between exports. It writes exactly the bytes of the SDK's own
 * `ProtobufTraceSerializer` (`otlp-protobuf.spec.ts` compares the two over every field and value
 * kind), at a fraction of its cost: ids are written from their hex in place (the SDK allocates an
 * array per id), there is no second sizing pass (a nested message reserves its length's bytes
 * and moves its body only when the guess was wrong), and the span attributes most spans repeat (a
 * route, a status) are copied from their bytes kept after the first encoding. Export runs on the
 * request thread, so with every request sampled this was the largest part of tracing's cost
 * (docs/decisions/request-cost.md). Responses are read by the SDK's deserializer.
 */
export const FastProtobufTraceSerializer: ISerializer<ReadableSpan[], IExportTraceServiceResponse> = {
  serializeRequest: (spans) => encodeExportRequest(spans),
  deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
};

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) HEX[97 + i] = HEX[65 + i] = 10 + i;
const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

/** The buffer a body is written into: 64 KB, grown for a bigger batch and kept up to 1 MB between exports. */
const START_BYTES = 1 << 16;
const KEPT_BYTES = 1 << 20;
let buf = new Uint8Array(START_BYTES);
let view = new DataView(buf.buffer);
let pos = 0;
const encoder = new TextEncoder();

function ensure(n: number): void {
  if (pos + n <= buf.length) return;
  let size = buf.length * 2;
  while (size < pos + n) size *= 2;
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, pos));
  buf = next;
  view = new DataView(buf.buffer);
}

function varint(v: number): void {
  ensure(10);
  if (v >= 0 && v <= 0xffffffff) {
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
    return;
  }
  // int64 in two's complement, as the SDK writes it
  const abs = Math.abs(v);
  let low = abs >>> 0;
  let high = (abs / 0x100000000) >>> 0;
  if (v < 0) {
    low = ~low >>> 0;
    high = ~high >>> 0;
    low = (low + 1) >>> 0;
    if (low === 0) high = (high + 1) >>> 0;
  }
  while (high > 0 || low > 0x7f) {
    buf[pos++] = (low & 0x7f) | 0x80;
    low = ((low >>> 7) | (high << 25)) >>> 0;
    high >>>= 7;
  }
  buf[pos++] = low & 0x7f;
}

function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

/** Reserves `reserve` bytes for a nested message's length and returns where its body starts. */
function open(reserve: number): number {
  ensure(reserve);
  pos += reserve;
  return pos;
}

/** Writes the length of the message whose body began at `start`, moving the body when the reserve was wrong. */
function close(start: number, reserve: number): void {
  const length = pos - start;
  const size = varintSize(length);
  let at = start - reserve;
  if (size !== reserve) {
    ensure(size - reserve);
    buf.copyWithin(at + size, start, pos);
    pos += size - reserve;
  }
  let v = length;
  while (v > 0x7f) {
    buf[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[at] = v;
}

function string(s: string): void {
  const n = s.length;
  ensure(n + 5);
  if (n < 0x80) {
    // ASCII (the usual case: names, keys, routes) written straight; anything else re-encoded
    const at = pos;
    buf[pos++] = n;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) {
        pos = at;
        return utf8(s);
      }
      buf[pos++] = c;
    }
    return;
  }
  utf8(s);
}

function utf8(s: string): void {
  const bytes = encoder.encode(s);
  varint(bytes.length);
  ensure(bytes.length);
  buf.set(bytes, pos);
  pos += bytes.length;
}

/** A hex id (trace or span) as its bytes, with its length, in place. */
function hexId(hex: string): void {
  const n = hex.length >>> 1;
  varint(n);
  ensure(n);
  for (let i = 0; i < n; i++) {
    const h = hex.charCodeAt(2 * i);
    const l = hex.charCodeAt(2 * i + 1);
    buf[pos++] = (hexDigit(h) << 4) | hexDigit(l);
  }
}

function hexDigit(c: number): number {
  // the SDK's mapping, invalid characters included (its `charCode - 55` fallback)
  const v = c < 128 ? HEX[c] : -1;
  return v >= 0 ? v : c - 55;
}

function fixed64(time: HrTime): void {
  // seconds × 1e9 + nanos as uint64, split so that no product passes 2^53 (as the SDK does)
  const seconds = time[0];
  const lowerSecondsNanos = (seconds & 0xffff) * 1e9;
  const upperSecondsNanos = ((seconds / 0x10000) >>> 0) * 1e9;
  const low = (lowerSecondsNanos >>> 0) + (((upperSecondsNanos & 0xffff) * 0x10000) >>> 0) + time[1];
  const high = (Math.floor(lowerSecondsNanos / 0x100000000) + ((upperSecondsNanos / 0x10000) >>> 0) + Math.floor(low / 0x100000000)) >>> 0;
  ensure(8);
  view.setUint32(pos, low >>> 0, true);
  view.setUint32(pos + 4, high, true);
  pos += 8;
}

function attributes(attrs: Attributes, field: number): void {
  for (const key in attrs) {
    if (!Object.prototype.hasOwnProperty.call(attrs, key)) continue;
    const value = attrs[key];
    const known = field === SPAN_ATTRIBUTES ? knownPair(key, value) : undefined;
    if (known !== undefined) {
      copy(known);
      continue;
    }
    const start = pos;
    tag(field, 2);
    const kv = open(1);
    keyValue(key, value);
    close(kv, 1);
    if (field === SPAN_ATTRIBUTES) remember(key, value, start);
  }
}

/**
 * Most spans carry the same few span attributes (method, route, scheme, status, a statement's
 * name): each such pair's whole field (tag, length, key and value) is kept as bytes after its
 * first encoding and copied after that, the same bytes for a fraction of the work. Only pairs
 * with a scalar value of at most {@link PAIR_CHARS} characters are kept, at most
 * {@link PAIR_VALUES} values per key and {@link PAIR_BUDGET} bytes in all: a high-cardinality
 * attribute (an id) takes its key's few slots and is encoded as before once they are full.
 */
const SPAN_ATTRIBUTES = 9;
const PAIR_CHARS = 128;
const PAIR_VALUES = 64;
const PAIR_BUDGET = 1 << 17;
const pairs = new Map<string, Map<string | number | boolean, Uint8Array>>();
let pairBytes = 0;

function knownPair(key: string, value: unknown): Uint8Array | undefined {
  const values = pairs.get(key);
  return values === undefined ? undefined : values.get(value as string | number | boolean);
}

/** Keeps the field just written (from `start`) for its pair, while the pair qualifies and the budget holds. */
function remember(key: string, value: unknown, start: number): void {
  const kind = typeof value;
  if (kind === 'string') {
    if ((value as string).length > PAIR_CHARS) return;
  } else if (kind !== 'number' && kind !== 'boolean') return;
  if (key.length > PAIR_CHARS || pairBytes + (pos - start) > PAIR_BUDGET) return;
  let values = pairs.get(key);
  if (values === undefined) pairs.set(key, (values = new Map()));
  else if (values.size >= PAIR_VALUES) return;
  values.set(value as string | number | boolean, buf.slice(start, pos));
  pairBytes += pos - start;
}

function copy(bytes: Uint8Array): void {
  const n = bytes.length;
  ensure(n);
  for (let i = 0; i < n; i++) buf[pos + i] = bytes[i];
  pos += n;
}

function keyValue(key: string, value: unknown): void {
  tag(1, 2);
  string(key);
  tag(2, 2);
  const v = open(1);
  anyValue(value);
  close(v, 1);
}

function anyValue(value: unknown): void {
  switch (typeof value) {
    case 'string':
      tag(1, 2);
      return string(value);
    case 'boolean':
      tag(2, 0);
      return varint(value ? 1 : 0);
    case 'number':
      if (Number.isInteger(value) && value >= MIN_INT64 && value < MAX_INT64) {
        tag(3, 0);
        return varint(value);
      }
      tag(4, 1);
      ensure(8);
      view.setFloat64(pos, value, true);
      pos += 8;
      return;
  }
  if (value instanceof Uint8Array) {
    tag(7, 2);
    varint(value.length);
    ensure(value.length);
    buf.set(value, pos);
    pos += value.length;
  } else if (Array.isArray(value)) {
    tag(5, 2);
    const array = open(1);
    for (const item of value as AttributeValue[]) {
      tag(1, 2);
      const at = open(1);
      anyValue(item);
      close(at, 1);
    }
    close(array, 1);
  } else if (typeof value === 'object' && value !== null) {
    tag(6, 2);
    const list = open(1);
    const obj = value as Record<string, unknown>;
    for (const k in obj) {
      if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
      tag(1, 2);
      const kv = open(1);
      keyValue(k, obj[k]);
      close(kv, 1);
    }
    close(list, 1);
  }
}

function tag(field: number, wire: number): void {
  // every tag this file writes is below 128 except field 16 (span flags), written where it occurs
  ensure(1);
  buf[pos++] = (field << 3) | wire;
}

function flags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | HAS_IS_REMOTE | (isRemote ? IS_REMOTE : 0);
}

/** Fields 1–3 of a span and of a link alike: trace id, span id, trace state (when any). */
function ids(ctx: SpanContext): void {
  tag(1, 2);
  hexId(ctx.traceId);
  tag(2, 2);
  hexId(ctx.spanId);
  const traceState = ctx.traceState?.serialize();
  if (traceState) {
    tag(3, 2);
    string(traceState);
  }
}

function span(s: ReadableSpan): void {
  const ctx = s.spanContext();
  ids(ctx);
  const parent = s.parentSpanContext;
  if (parent?.spanId) {
    tag(4, 2);
    hexId(parent.spanId);
  }
  tag(5, 2);
  string(s.name);
  const kind = s.kind == null ? 0 : s.kind + 1;
  if (kind !== 0) {
    tag(6, 0);
    varint(kind);
  }
  tag(7, 1);
  fixed64(s.startTime);
  tag(8, 1);
  fixed64(s.endTime);
  if (s.attributes) attributes(s.attributes, 9);
  const code = s.status.code;
  if (
    s.droppedAttributesCount === 0 &&
    s.events.length === 0 &&
    s.droppedEventsCount === 0 &&
    s.links.length === 0 &&
    s.droppedLinksCount === 0 &&
    !s.status.message &&
    code >= 0 &&
    code < 0x80
  ) {
    // how most spans end, in one write (the fields below, each by its own call, cost as much again)
    ensure(16);
    buf[pos] = 0x50; // dropped attributes (field 10, varint): 0
    buf[pos + 1] = 0;
    buf[pos + 2] = 0x60; // dropped events (12): 0
    buf[pos + 3] = 0;
    buf[pos + 4] = 0x70; // dropped links (14): 0
    buf[pos + 5] = 0;
    buf[pos + 6] = 0x7a; // status (15, two bytes long): its code (3) alone
    buf[pos + 7] = 2;
    buf[pos + 8] = 0x18;
    buf[pos + 9] = code;
    buf[pos + 10] = 0x85; // flags (16, fixed32): a two-byte tag
    buf[pos + 11] = 0x01;
    view.setUint32(pos + 12, flags(ctx.traceFlags, parent?.isRemote), true);
    pos += 16;
    return;
  }
  tag(10, 0);
  varint(s.droppedAttributesCount);
  for (const e of s.events) event(e);
  tag(12, 0);
  varint(s.droppedEventsCount);
  for (const l of s.links) link(l);
  tag(14, 0);
  varint(s.droppedLinksCount);
  tag(15, 2);
  const status = open(1);
  if (s.status.message) {
    tag(2, 2);
    string(s.status.message);
  }
  tag(3, 0);
  varint(s.status.code);
  close(status, 1);
  // flags (field 16, fixed32): its tag takes two bytes
  ensure(6);
  buf[pos++] = 0x85;
  buf[pos++] = 0x01;
  view.setUint32(pos, flags(ctx.traceFlags, parent?.isRemote), true);
  pos += 4;
}

function event(e: TimedEvent): void {
  tag(11, 2);
  const at = open(1);
  tag(1, 1);
  fixed64(e.time);
  tag(2, 2);
  string(e.name);
  if (e.attributes) attributes(e.attributes, 3);
  tag(4, 0);
  varint(e.droppedAttributesCount || 0);
  close(at, 1);
}

function link(l: Link): void {
  tag(13, 2);
  const at = open(1);
  const ctx = l.context;
  ids(ctx);
  if (l.attributes) attributes(l.attributes, 4);
  tag(5, 0);
  varint(l.droppedAttributesCount || 0);
  ensure(6);
  buf[pos++] = 0x35; // flags (field 6, fixed32)
  view.setUint32(pos, flags(ctx.traceFlags, ctx.isRemote), true);
  pos += 4;
  close(at, 1);
}

type Scope = ReadableSpan['instrumentationScope'];
type Resource = ReadableSpan['resource'];

function encodeExportRequest(spans: ReadableSpan[]): Uint8Array {
  // grouped by resource, then scope, in first-seen order (the SDK's order)
  const byResource = new Map<Resource, Map<Scope, ReadableSpan[]>>();
  // a batch is mostly runs of spans of one resource and scope: a span like the one before joins
  // its list without the two lookups
  let lastResource: Resource | undefined;
  let lastScope: Scope | undefined;
  let lastList: ReadableSpan[] = [];
  for (const s of spans) {
    if (s.resource === lastResource && s.instrumentationScope === lastScope) {
      lastList.push(s);
      continue;
    }
    let scopes = byResource.get(s.resource);
    if (!scopes) byResource.set(s.resource, (scopes = new Map()));
    let list = scopes.get(s.instrumentationScope);
    if (list) list.push(s);
    else scopes.set(s.instrumentationScope, (list = [s]));
    lastResource = s.resource;
    lastScope = s.instrumentationScope;
    lastList = list;
  }
  pos = 0;
  for (const [resource, scopes] of byResource) {
    tag(1, 2);
    const rs = open(3);
    tag(1, 2);
    const r = open(1);
    if (resource.attributes) attributes(resource.attributes, 1);
    tag(2, 0);
    varint(0);
    close(r, 1);
    for (const [scope, list] of scopes) {
      tag(2, 2);
      const ss = open(3);
      tag(1, 2);
      const sc = open(1);
      tag(1, 2);
      string(scope.name);
      if (scope.version) {
        tag(2, 2);
        string(scope.version);
      }
      // the SDK's scope type has no attributes yet; written if it ever carries them
      const extra = scope as Scope & { attributes?: Attributes; droppedAttributesCount?: number };
      if (extra.attributes) attributes(extra.attributes, 3);
      if (extra.droppedAttributesCount) {
        tag(4, 0);
        varint(extra.droppedAttributesCount);
      }
      close(sc, 1);
      for (const s of list) {
        tag(2, 2);
        const at = open(2);
        span(s);
        close(at, 2);
      }
      if (scope.schemaUrl) {
        tag(3, 2);
        string(scope.schemaUrl);
      }
      close(ss, 3);
    }
    if (resource.schemaUrl) {
      tag(3, 2);
      string(resource.schemaUrl);
    }
    close(rs, 3);
  }
  // a copy: the HTTP send keeps the body while the next export reuses the buffer
  const body = buf.slice(0, pos);
  if (buf.length > KEPT_BYTES) {
    // one batch of huge attributes does not pin its size for the life of the process
    buf = new Uint8Array(START_BYTES);
    view = new DataView(buf.buffer);
  }
  return body;
}

/** The bytes the encoder keeps between exports: its buffer and the kept pairs (tests). */
export function retainedEncoderBytes(): { buffer: number; pairs: number } {
  return { buffer: buf.length, pairs: pairBytes };
}
