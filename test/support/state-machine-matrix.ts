import type { StateMachine } from '../../kernel/platform/state-machine/state-machine';

/**
 * The one exhaustive check of a state machine: every (state, trigger) pair, the allowed ones
 * (`'FROM trigger': 'TO'`) going where listed, every other refused. `ctx` feeds the guards.
 * A listed pair that is not a real (state, trigger) pair fails too, so a typo cannot pass.
 */
export function expectExhaustiveMatrix<S extends string, T extends string, C>(
  machine: StateMachine<S, T, C>,
  allowed: Record<string, S>,
  ctx?: C,
): void {
  const seen = new Set<string>();
  const wrong: string[] = [];
  for (const from of machine.states) {
    for (const trigger of machine.triggers) {
      const key = `${from} ${trigger}`;
      seen.add(key);
      const r = machine.transition(from, trigger, ctx);
      const want = allowed[key];
      if (want === undefined && r.ok) wrong.push(`${machine.name}: ${key} should be refused, went to ${r.to}`);
      if (want !== undefined && (!r.ok || r.to !== want))
        wrong.push(`${machine.name}: ${key} should go to ${want}, got ${r.ok ? r.to : r.reason}`);
    }
  }
  for (const key of Object.keys(allowed)) if (!seen.has(key)) wrong.push(`${machine.name}: ${key} is not a (state, trigger) pair`);
  if (wrong.length) throw new Error(wrong.join('\n'));
}
