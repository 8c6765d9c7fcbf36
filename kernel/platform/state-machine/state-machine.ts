/**
 * The kernel's one state-machine API, used by every stateful resource (Pix recurrences and
 * billings, links and their payment items, card payments, 3DS authentications, hosted card
 * sessions, webhook deliveries). Pure and I/O-free.
 *
 * A table is written per trigger: `trigger -> { from: [...states], to: state }`. It is the same
 * relation as the spec's `(from, trigger) -> to` rows, grouped by trigger; every trigger of the
 * spec has exactly one destination, which is what lets `allowedFrom(trigger)` drive the
 * persistence step `UPDATE ... SET status = :to WHERE id = :id AND status = ANY(:allowedFrom)`.
 *
 * A guard is a pure predicate over a context the caller passes (a link's expiry and use count,
 * for instance): the machine, not its callers, decides whether the trigger may fire now.
 * `test/support/state-machine-matrix.ts` checks a machine over every (state, trigger) pair.
 */
import { CodedError } from '../../common/formats/coded-error';
import { registerDomainErrors } from '../errors/app-error';

/** A transition table that contradicts itself; raised at module load, never at run time. */
export class StateMachineDefinitionError extends CodedError<'state_machine_invalid'> {
  constructor(message: string) {
    super('state_machine_invalid', message);
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
  /** The trigger is accepted from this state, but its guard says not now (a link not yet expired). */
  GUARD_REFUSED: 'GUARD_REFUSED',
} as const;
export type TransitionRefusal = (typeof TransitionRefusal)[keyof typeof TransitionRefusal];

export type TransitionResult<S extends string, T extends string> =
  { ok: true; from: S; trigger: T; to: S } | { ok: false; from: S; trigger: T; reason: TransitionRefusal };

export type TransitionTable<S extends string, T extends string> = {
  readonly [K in T]: { readonly from: readonly S[]; readonly to: S };
};

/** Guards by trigger: the trigger fires only when its guard holds for the context given. */
export type Guards<T extends string, C> = { readonly [K in T]?: (ctx: C) => boolean };

export interface StateMachine<S extends string, T extends string, C = never> {
  readonly name: string;
  readonly states: readonly S[];
  readonly triggers: readonly T[];
  readonly terminalStates: readonly S[];
  /** Where `trigger` takes `from`, or why not; a guarded trigger needs `ctx`. */
  transition(from: S, trigger: T, ctx?: C): TransitionResult<S, T>;
  /** The states `trigger` may leave (the conditional UPDATE's sources). */
  allowedFrom(trigger: T): S[];
  /** Same as allowedFrom: the name the card and 3DS modules use. */
  sourcesOf(trigger: T): S[];
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
export function defineStateMachine<S extends string, T extends string, C = never>(
  name: string,
  stateEnum: Readonly<Record<string, S>>,
  triggerEnum: Readonly<Record<string, T>>,
  table: TransitionTable<S, T>,
  terminal: readonly S[],
  guards: Guards<T, C> = {},
): StateMachine<S, T, C> {
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

  const fromSets = new Map<string, ReadonlySet<string>>(triggers.map((t) => [t, new Set<string>(table[t].from)] as const));

  for (const trigger of Object.keys(guards)) {
    if (!triggerSet.has(trigger)) throw new StateMachineDefinitionError(`${name}: guard for unknown trigger ${trigger}`);
  }

  return Object.freeze({
    name,
    states,
    triggers,
    terminalStates: Object.freeze([...terminal]),
    transition(from: S, trigger: T, ctx?: C): TransitionResult<S, T> {
      const row = triggerSet.has(trigger) ? table[trigger] : undefined;
      if (row && fromSets.get(trigger)!.has(from)) {
        const guard = guards[trigger];
        if (guard && (ctx === undefined || !guard(ctx))) return { ok: false, from, trigger, reason: TransitionRefusal.GUARD_REFUSED };
        return { ok: true, from, trigger, to: row.to };
      }
      if (row && row.to === from) {
        return { ok: false, from, trigger, reason: TransitionRefusal.ALREADY_IN_TARGET_STATE };
      }
      if (terminalSet.has(from)) return { ok: false, from, trigger, reason: TransitionRefusal.TERMINAL_STATE };
      return { ok: false, from, trigger, reason: TransitionRefusal.NOT_ALLOWED_FROM_STATE };
    },
    allowedFrom(trigger: T): S[] {
      return triggerSet.has(trigger) ? [...table[trigger].from] : [];
    },
    sourcesOf(trigger: T): S[] {
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

/**
 * The same machine from a state-major table (`state → { trigger: next }`), the shape the card,
 * 3DS and link tables are written in; terminal states are those with no way out. Each trigger
 * must lead to one state wherever it applies.
 */
export function stateMachineOfTable<S extends string, T extends string, C = never>(
  name: string,
  states: readonly S[],
  triggers: readonly T[],
  table: Readonly<Record<S, Readonly<Partial<Record<T, S>>>>>,
  guards: Guards<T, C> = {},
): StateMachine<S, T, C> {
  const rows = {} as Record<T, { from: S[]; to: S }>;
  for (const t of triggers) {
    const from = states.filter((s) => table[s][t] !== undefined);
    const targets = new Set(from.map((s) => table[s][t] as S));
    if (targets.size > 1) throw new StateMachineDefinitionError(`${name}: trigger ${t} leads to several states`);
    rows[t] = { from, to: [...targets][0] ?? from[0] ?? states[0] };
  }
  const terminal = states.filter((s) => Object.keys(table[s]).length === 0);
  const asEnum = <X extends string>(xs: readonly X[]) => Object.fromEntries(xs.map((x) => [x, x])) as Record<X, X>;
  return defineStateMachine<S, T, C>(name, asEnum(states), asEnum(triggers), rows, terminal, guards);
}

registerDomainErrors(StateMachineDefinitionError, { state_machine_invalid: 500 });
