// `--reset` of `npm start` and `npm run sandbox` (scripts/start.js): puts the sandbox's test clock
// back at real time through its route, POST /sandbox/clock/reset, which tells the service too when
// that sandbox drives it (SANDBOX_CLOCK_DRIVES_SERVICE).
'use strict';

/** The sandbox's base URL on this machine: SANDBOX_PORT (3001) on the loopback. */
function sandboxBase(env = process.env) {
  return `http://127.0.0.1:${(env.SANDBOX_PORT ?? '').trim() || '3001'}`;
}

/**
 * One reset call. Resolves `{ state: 'absent' }` when nothing listens there, `{ state: 'done', clock }`
 * on 200, `{ state: 'retry', why }` when the sandbox answered 502 (its service is not up yet) and
 * `{ state: 'failed', why }` otherwise.
 */
async function resetOnce(base) {
  let r;
  try {
    r = await fetch(`${base}/sandbox/clock/reset`, { method: 'POST', signal: AbortSignal.timeout(120_000) });
  } catch {
    return { state: 'absent' };
  }
  const body = await r.json().catch(() => ({}));
  if (r.status === 200) return { state: 'done', clock: body };
  const why = `${r.status} ${body.error ?? ''} ${body.message ?? ''}`.trim();
  return { state: r.status === 502 ? 'retry' : 'failed', why };
}

/** Resets, waiting up to `timeoutMs` for a sandbox (and its service) that is still starting. */
async function resetWhenUp(base, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await resetOnce(base);
    if (r.state === 'done' || r.state === 'failed') return r;
    if (Date.now() > until) return { state: 'failed', why: r.why ?? `nothing answered at ${base}` };
    await new Promise((res) => setTimeout(res, 500));
  }
}

function report(r, base) {
  if (r.state === 'done') process.stderr.write(`test clock reset at ${base}: now ${r.clock.now}, today ${r.clock.today}\n`);
  else process.stderr.write(`test clock not reset at ${base}: ${r.why}\n`);
}

module.exports = { sandboxBase, resetOnce, resetWhenUp, report };
