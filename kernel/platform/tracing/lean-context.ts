import type { Context } from '@opentelemetry/api';

/** A key's value taken away in a child context (`deleteValue`). */
const DELETED = Symbol('deleted');
const NOTHING = Symbol('nothing');

/**
 * An OpenTelemetry context as a chain of single entries: `setValue` makes one small object that
 * points at its parent, and `getValue` walks the chain. The API's own context copies its whole
 * `Map` and makes three closures on every `setValue`, which a traced request pays for its span
 * and its parent's sampling mark (docs/decisions/request-cost.md). Contexts are immutable either
 * way, and a chain is as deep as the code that nests spans, a handful of entries.
 */
export class LeanContext implements Context {
  /** The empty context: the root of requests' contexts (the API's `ROOT_CONTEXT` is a `Map` one). */
  static readonly ROOT: Context = new LeanContext(null, NOTHING, undefined);

  private constructor(
    private readonly parent: LeanContext | null,
    private readonly key: symbol,
    private readonly value: unknown,
  ) {}

  getValue(key: symbol): unknown {
    if (this.key === key) return this.value === DELETED ? undefined : this.value;
    return this.parent === null ? undefined : this.parent.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new LeanContext(this, key, value);
  }

  deleteValue(key: symbol): Context {
    return new LeanContext(this, key, DELETED);
  }
}
