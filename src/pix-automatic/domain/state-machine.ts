/**
 * Generic, I/O-free transition table shared by the recurrence and billing state machines.
 *
 * A table is written per trigger: `trigger -> { from: [...states], to: state }`. It is the same
 * relation as the spec's `(from, trigger) -> to` rows, grouped by trigger; every trigger of the
 * spec has exactly one destination, which is what lets `allowedFrom(trigger)` drive the
 * persistence step `UPDATE ... SET status = :to WHERE id = :id AND status = ANY(:allowedFrom)`.
 */

/** A transition table that contradicts itself; raised at module load, never at run time. */
export class StateMachineDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateMachineDefinitionError';
  }
}

/** Why a transition was refused. */
export const TransitionRefusal = {
  /**
   * The entity already is in the state this trigger leads to (a duplicate event, a second
   * cancel). Callers normally treat it as an idempotent no-op, not as a failure.
   */
  ALREADY_IN_TARGET_STATE: 'ALREADY_IN_TARGET_STATE',
  /** The entity is in a terminal state: nothing moves it any more. */
  TERMINAL_STATE: 'TERMINAL_STATE',
  /** The trigger is not accepted from this (non-terminal) state. */
  NOT_ALLOWED_FROM_STATE: 'NOT_ALLOWED_FROM_STATE',
} as const;
export type TransitionRefusal = (typeof TransitionRefusal)[keyof typeof TransitionRefusal];

export type TransitionResult<S extends string, T extends string> =
  | { ok: true; from: S; trigger: T; to: S }
  | { ok: false; from: S; trigger: T; reason: TransitionRefusal };

export type TransitionTable<S extends string, T extends string> = {
  readonly [K in T]: { readonly from: readonly S[]; readonly to: S };
};

export interface StateMachine<S extends string, T extends string> {
  readonly states: readonly S[];
  readonly triggers: readonly T[];
  readonly terminalStates: readonly S[];
  transition(from: S, trigger: T): TransitionResult<S, T>;
  allowedFrom(trigger: T): S[];
  targetOf(trigger: T): S;
  isTerminal(state: S): boolean;
  isState(value: unknown): value is S;
  isTrigger(value: unknown): value is T;
}

/**
 * Builds the machine and checks the table once at load time (a broken table is a programming
 * error, reported with {@link StateMachineDefinitionError}): every `from` and `to` is a known
 * state, and no terminal state appears as a `from`.
 */
export function defineStateMachine<S extends string, T extends string>(
  name: string,
  stateEnum: Readonly<Record<string, S>>,
  triggerEnum: Readonly<Record<string, T>>,
  table: TransitionTable<S, T>,
  terminal: readonly S[],
): StateMachine<S, T> {
  const states = Object.freeze(Object.values(stateEnum));
  const triggers = Object.freeze(Object.values(triggerEnum));
  const stateSet = new Set<string>(states);
  const triggerSet = new Set<string>(triggers);
  const terminalSet = new Set<string>(terminal);

  for (const trigger of triggers) {
    const row = table[trigger];
    if (!row) throw new StateMachineDefinitionError(`${name}: no row for trigger ${trigger}`);
    if (!stateSet.has(row.to)) throw new StateMachineDefinitionError(`${name}: unknown state ${row.to}`);
    for (const from of row.from) {
      if (!stateSet.has(from)) throw new StateMachineDefinitionError(`${name}: unknown state ${from}`);
      if (terminalSet.has(from)) {
        throw new StateMachineDefinitionError(`${name}: terminal state ${from} used as origin of ${trigger}`);
      }
    }
  }
  for (const state of terminal) {
    if (!stateSet.has(state)) throw new StateMachineDefinitionError(`${name}: unknown terminal state ${state}`);
  }

  const fromSets = new Map<string, ReadonlySet<string>>(
    triggers.map((t) => [t, new Set<string>(table[t].from)] as const),
  );

  return Object.freeze({
    states,
    triggers,
    terminalStates: Object.freeze([...terminal]),
    transition(from: S, trigger: T): TransitionResult<S, T> {
      const row = triggerSet.has(trigger) ? table[trigger] : undefined;
      if (row && fromSets.get(trigger)!.has(from)) return { ok: true, from, trigger, to: row.to };
      if (row && row.to === from) {
        return { ok: false, from, trigger, reason: TransitionRefusal.ALREADY_IN_TARGET_STATE };
      }
      if (terminalSet.has(from)) return { ok: false, from, trigger, reason: TransitionRefusal.TERMINAL_STATE };
      return { ok: false, from, trigger, reason: TransitionRefusal.NOT_ALLOWED_FROM_STATE };
    },
    allowedFrom(trigger: T): S[] {
      return triggerSet.has(trigger) ? [...table[trigger].from] : [];
    },
    targetOf(trigger: T): S {
      return table[trigger].to;
    },
    isTerminal(state: S): boolean {
      return terminalSet.has(state);
    },
    isState(value: unknown): value is S {
      return typeof value === 'string' && stateSet.has(value);
    },
    isTrigger(value: unknown): value is T {
      return typeof value === 'string' && triggerSet.has(value);
    },
  });
}
