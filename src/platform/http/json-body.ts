import type { FastifyInstance } from 'fastify';

/**
 * The JSON body parser, with one difference from Fastify's: an empty body sent with
 * `Content-Type: application/json` is no body (as if the header were absent), not 400
 * `malformed_json`. The spec has every call carry that header, and many calls have no body
 * (refresh, cancel, challenge, credentials, DELETE, replay). Anything non-empty goes through
 * Fastify's own parser, with its prototype-poisoning protection unchanged.
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
    parse(req, text, done);
  });
}
