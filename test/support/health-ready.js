// Waiting for an app's readiness (GET /health/ready answering 200), shared by the tests (through
// health-ready.d.ts) and the benchmarks (bench/ is plain CommonJS run by node, without a build).
'use strict';

/**
 * Until every one of `bases` (an app's base URL, or several polled together) answers
 * GET /health/ready with 200 in the same round, asking again every `intervalMs`. Throws once
 * `timeoutMs` has passed, or as soon as `exited()` says the process behind it has ended; the
 * error's message is `failure(exited)`, or by default names the URLs.
 */
async function waitHealthReady(bases, { timeoutMs = 60000, intervalMs = 150, exited = () => false, failure } = {}) {
  const list = [].concat(bases);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await Promise.all(
      list.map((base) =>
        fetch(`${base}/health/ready`).then(
          (r) => r.status,
          () => 0, // not listening yet
        ),
      ),
    );
    if (statuses.every((status) => status === 200)) return;
    const gone = Boolean(exited());
    if (gone || Date.now() > until) throw new Error(failure ? failure(gone) : `${list.join(', ')} not ready`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

module.exports = { waitHealthReady };
