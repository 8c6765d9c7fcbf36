import type { FastifyInstance } from 'fastify';
import { PlatformErrors } from '../errors/app-error';

/** Deeper than this, a body is refused before any code walks it (recursive walkers overflow the stack). */
export const MAX_BODY_DEPTH = 32;

/** How deep arrays and objects nest in a parsed JSON value (iterative: no recursion on hostile input). */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > stopAt) return max;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, d + 1]);
  }
  return max;
}

/**
 * The JSON body parser, with three differences from Fastify's:
 * - an empty body sent with `Content-Type: application/json` is no body (as if the header were
 *   absent), not 400 `malformed_json`: the spec has every call carry that header, and many calls
 *   have no body (refresh, cancel, challenge, credentials, DELETE, replay);
 * - a body must be a JSON object or array: `null`, a number, a string or a boolean is 400
 *   `validation_error` (a bare `null` would otherwise read as "no body");
 * - nesting deeper than MAX_BODY_DEPTH is 400 `validation_error`.
 * Everything else goes through Fastify's own parser, its prototype-poisoning protection unchanged.
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string; // parseAs: 'string'
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parse(req, text, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      if (value === null || typeof value !== 'object') {
        return done(
          PlatformErrors.error('validation_error', 'The request body must be a JSON object', {
            details: [{ field: 'body', code: 'not_an_object', message: 'the body must be a JSON object' }],
          }),
          undefined,
        );
      }
      if (jsonDepth(value, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
        return done(
          PlatformErrors.error('validation_error', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`, {
            details: [{ field: 'body', code: 'too_deep', message: `at most ${MAX_BODY_DEPTH} levels of nesting` }],
          }),
          undefined,
        );
      }
      done(null, value);
    });
  });
}
