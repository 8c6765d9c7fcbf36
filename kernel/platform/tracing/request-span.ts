import {
  Attributes,
  AttributeValue,
  Context,
  diag,
  Exception,
  HrTime,
  Link,
  Span,
  SpanContext,
  SpanKind,
  SpanStatus,
  SpanStatusCode,
  TimeInput,
  TraceFlags,
} from '@opentelemetry/api';
import {
  InstrumentationScope,
  isAttributeValue,
  isTimeInput,
  isTimeInputHrTime,
  millisToHrTime,
  otperformance,
  sanitizeAttributes,
} from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { IdGenerator, ReadableSpan, SpanLimits, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-node';
import { ATTR_EXCEPTION_MESSAGE, ATTR_EXCEPTION_STACKTRACE, ATTR_EXCEPTION_TYPE } from '@opentelemetry/semantic-conventions';

/**
 * The span limits of every span of the process, the SDK's defaults written out: the provider is
 * given these, and {@link RequestSpan} applies the same ones.
 */
export const SPAN_LIMITS: Required<SpanLimits> = {
  attributeCountLimit: 128,
  attributeValueLengthLimit: Infinity,
  eventCountLimit: 128,
  linkCountLimit: 128,
  attributePerEventCountLimit: 128,
  attributePerLinkCountLimit: 128,
};

/** What a request span is made with: the provider's processor, resource, scope and ids. */
export interface RequestSpanSource {
  readonly processor: SpanProcessor;
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  readonly ids: IdGenerator;
}

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
// What a span starts with and most request spans end with, shared (read-only) rather than made per
// span: the first event or link gives the span its own list, and `end` its own times.
const NO_LINKS = Object.freeze([]) as unknown as Link[];
const NO_EVENTS = Object.freeze([]) as unknown as TimedEvent[];
const NOT_ENDED = Object.freeze([0, 0]) as unknown as HrTime;
const NO_DURATION = Object.freeze([-1, -1]) as unknown as HrTime;

/**
 * The server span of a request that starts a trace the head decision kept: the root of its trace,
 * already sampled, so the sampler is not asked again. The SDK's `Tracer.startSpan` would make the
 * same span through a sampler call, span metrics, a sanitized copy of the attributes and three
 * clock reads converted to `[seconds, nanoseconds]` arrays, about a third of what tracing
 * costs a request on this route (docs/decisions/request-cost.md). This one keeps the SDK span's
 * behaviour where anything can see it: the limits ({@link SPAN_LIMITS}), the start time (the wall
 * clock's millisecond, as the SDK takes it) and an end time and duration from the monotonic clock,
 * status rules, events, links and exceptions, the same processor (`onStart`, `onEnd`) and the same
 * resource and scope objects, so it is exported in the batch and the group of the SDK's spans.
 * `request-span.spec.ts` exports one beside an SDK span and compares the two.
 */
export class RequestSpan implements Span, ReadableSpan {
  readonly kind = SpanKind.SERVER;
  readonly parentSpanContext: SpanContext | undefined = undefined;
  readonly attributes: Attributes = {};
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  readonly startTime: HrTime;
  endTime: HrTime = NOT_ENDED;
  duration: HrTime = NO_DURATION;
  status: SpanStatus = UNSET;
  ended = false;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  private attributeCount = 0;
  private readonly startedAt: number;
  private readonly startMs: number;
  private readonly context: SpanContext;

  constructor(
    private readonly source: RequestSpanSource,
    public name: string,
    attributes: Attributes,
    parent: Context,
  ) {
    this.startMs = Date.now();
    this.startedAt = otperformance.now();
    this.startTime = millisToHrTime(this.startMs);
    this.context = { traceId: source.ids.generateTraceId(), spanId: source.ids.generateSpanId(), traceFlags: TraceFlags.SAMPLED };
    this.resource = source.resource;
    this.instrumentationScope = source.scope;
    this.setAttributes(attributes);
    source.processor.onStart(this, parent);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value?: AttributeValue): this {
    if (value == null || this.closed()) return this;
    if (key.length === 0) diag.warn(`Invalid attribute key: ${key}`);
    else if (typeof value !== 'string' && !isAttributeValue(value)) diag.warn(`Invalid attribute value set for key: ${key}`);
    else if (!Object.prototype.hasOwnProperty.call(this.attributes, key)) {
      if (this.attributeCount >= SPAN_LIMITS.attributeCountLimit) this.droppedAttributesCount++;
      else {
        this.attributes[key] = truncated(value);
        this.attributeCount++;
      }
    } else this.attributes[key] = truncated(value);
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      if (Object.prototype.hasOwnProperty.call(attributes, key)) this.setAttribute(key, attributes[key]);
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.closed()) return this;
    if (this.events === NO_EVENTS) this.events = [];
    if (this.events.length >= SPAN_LIMITS.eventCountLimit) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    let given: Attributes | undefined;
    if (isTimeInput(attributesOrTime)) time = isTimeInput(time) ? time : attributesOrTime;
    else given = attributesOrTime;
    const { kept, dropped } = limited(given, SPAN_LIMITS.attributePerEventCountLimit);
    this.events.push({ name, attributes: kept, time: this.timeOf(time), droppedAttributesCount: dropped });
    return this;
  }

  addLink(link: Link): this {
    if (this.closed()) return this;
    if (this.links === NO_LINKS) this.links = [];
    if (this.links.length >= SPAN_LIMITS.linkCountLimit) {
      this.links.shift();
      this.droppedLinksCount++;
    }
    const { kept, dropped, count } = limited(link.attributes, SPAN_LIMITS.attributePerLinkCountLimit);
    const added: Link = { context: link.context };
    if (count > 0) added.attributes = kept;
    if (dropped > 0) added.droppedAttributesCount = dropped;
    this.links.push(added);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.closed() || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    const next: SpanStatus = { code: status.code };
    if (status.code === SpanStatusCode.ERROR && typeof status.message === 'string') next.message = status.message;
    this.status = next;
    return this;
  }

  updateName(name: string): this {
    if (!this.closed()) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) {
      diag.error(`${this.name} ${this.context.traceId}-${this.context.spanId} - You can only call end() on a span once.`);
      return;
    }
    this.endTime = this.timeOf(endTime);
    const ns = (this.endTime[0] - this.startTime[0]) * 1e9 + (this.endTime[1] - this.startTime[1]);
    if (ns < 0) {
      this.endTime = this.startTime;
      this.duration = [0, 0];
    } else this.duration = [Math.floor(ns / 1e9), ns % 1e9];
    this.source.processor.onEnding?.(this);
    this.ended = true;
    this.source.processor.onEnd(this);
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes[ATTR_EXCEPTION_MESSAGE] = exception;
    else if (exception) {
      if (exception.code) attributes[ATTR_EXCEPTION_TYPE] = exception.code.toString();
      else if (exception.name) attributes[ATTR_EXCEPTION_TYPE] = exception.name;
      if (exception.message) attributes[ATTR_EXCEPTION_MESSAGE] = exception.message;
      if (exception.stack) attributes[ATTR_EXCEPTION_STACKTRACE] = exception.stack;
    }
    if (attributes[ATTR_EXCEPTION_TYPE] || attributes[ATTR_EXCEPTION_MESSAGE]) this.addEvent('exception', attributes, time);
    else diag.warn(`Failed to record an exception ${String(exception)}`);
  }

  /** True (and a warning) when the span already ended: what the SDK's span does with a late call. */
  private closed(): boolean {
    if (this.ended)
      diag.warn(`Cannot execute the operation on ended Span {traceId: ${this.context.traceId}, spanId: ${this.context.spanId}}`);
    return this.ended;
  }

  /** A time input as the SDK's span reads it; none: the start plus the monotonic clock's elapsed time. */
  private timeOf(input?: TimeInput): HrTime {
    if (typeof input === 'number') return millisToHrTime(input <= otperformance.now() ? input + this.startMs - this.startedAt : input);
    if (input instanceof Date) return millisToHrTime(input.getTime());
    if (isTimeInputHrTime(input)) return input;
    const elapsedNs = Math.round((otperformance.now() - this.startedAt) * 1e6);
    const nanos = this.startTime[1] + elapsedNs;
    return [this.startTime[0] + Math.floor(nanos / 1e9), nanos % 1e9];
  }
}

/** A value cut to the limit's length: strings and the strings of an array (none with the SDK's default, Infinity). */
function truncated<T extends AttributeValue | undefined>(value: T): T {
  const limit = SPAN_LIMITS.attributeValueLengthLimit;
  if (typeof value === 'string') return (value.length > limit ? value.substring(0, limit) : value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => (typeof v === 'string' && v.length > limit ? v.substring(0, limit) : v)) as T;
  return value;
}

/** An event's or a link's attributes, sanitized and cut at the limit. */
function limited(given: Attributes | undefined, limit: number): { kept: Attributes; dropped: number; count: number } {
  const sanitized = sanitizeAttributes(given);
  const kept: Attributes = {};
  let count = 0;
  let dropped = 0;
  for (const key in sanitized) {
    if (!Object.prototype.hasOwnProperty.call(sanitized, key)) continue;
    if (count >= limit) dropped++;
    else {
      kept[key] = truncated(sanitized[key]);
      count++;
    }
  }
  return { kept, dropped, count };
}
