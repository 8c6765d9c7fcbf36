import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Metadatas = ReturnType<Storage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<Storage['groupByPropertyName']>;

const MEMOIZED = Symbol.for('payments-platform.validation-metadata-memo');

/**
 * class-validator works out a class's rules anew on every `validate()`: it filters that class's
 * metadata, then tests the class against every class that has rules (`prototype instanceof`,
 * for inherited ones), then groups the result by property, for the DTO and again for each nested
 * one. The answer only changes when a rule is registered, which decorators do while the classes
 * load, before any request; so it is kept per (class, schema, options, groups), and the whole memo
 * is dropped whenever a rule is added. Validation itself is unchanged (the same rules, same order).
 * Idempotent: the storage is patched once.
 */
export function memoizeValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const s = storage as Storage & { [MEMOIZED]?: true };
  if (s[MEMOIZED]) return;
  s[MEMOIZED] = true;
  const compute = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  const addSchema = storage.addValidationSchema.bind(storage);
  let byClass = new Map<unknown, Map<string, Metadatas>>();
  /** The usual question (no schema, groups or `always`: a request body), without building a key. */
  let plain = new Map<unknown, Metadatas>();
  let grouped = new WeakMap<Metadatas, Grouped>();
  const forget = () => {
    byClass = new Map();
    plain = new Map();
    grouped = new WeakMap();
  };

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema === undefined && !always && !strictGroups && groups === undefined) {
      let p = plain.get(target);
      if (!p) plain.set(target, (p = compute(target, schema, always, strictGroups, groups)));
      return p;
    }
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups ? groups.join('\u0001') : '\u0002'}`;
    let known = byClass.get(target);
    if (!known) byClass.set(target, (known = new Map()));
    let m = known.get(key);
    if (!m) known.set(key, (m = compute(target, schema, always, strictGroups, groups)));
    return m;
  };
  storage.groupByPropertyName = (metadatas) => {
    let g = grouped.get(metadatas);
    if (!g) grouped.set(metadatas, (g = group(metadatas)));
    return g;
  };
  storage.addValidationMetadata = (metadata) => {
    forget();
    add(metadata);
  };
  storage.addValidationSchema = (schema) => {
    forget();
    addSchema(schema);
  };
}
