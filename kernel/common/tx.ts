declare const TX: unique symbol;

/**
 * A database session as ports and services see it: a transaction, or the pool outside one.
 * Opaque: platform/database opens it (`transaction`, `pool`) and only its helpers read it.
 * Declared here, with no runtime part, so ports in common/contracts can take one.
 */
export interface Tx {
  readonly [TX]: true;
}
