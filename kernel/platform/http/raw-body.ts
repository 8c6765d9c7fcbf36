import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlatformErrors } from '../errors/app-error';

export type WithRawBody = FastifyRequest & { rawBody?: Buffer };

interface Capture {
  matches: (req: FastifyRequest) => boolean;
  maxBytes: number;
}

/** The captures of each Fastify instance, all behind its one hook. */
const captures = new WeakMap<FastifyInstance, Capture[]>();

/**
 * Keeps the exact bytes of the bodies of the requests `matches` picks (as `req.rawBody`) before
 * the JSON parser runs: an HMAC must be checked over what was sent, not over a re-serialization.
 * A body over `maxBytes` is refused with 413 `payload_too_large`. Every other request passes
 * for the price of the `matches` tests: the captures of an instance share one callback hook (no
 * promise per request, and one hook step however many modules capture); the first that matches
 * takes the body, so their `matches` must not overlap.
 */
export function captureRawBody(fastify: FastifyInstance, matches: (req: FastifyRequest) => boolean, maxBytes: number): void {
  const known = captures.get(fastify);
  if (known) {
    known.push({ matches, maxBytes });
    return;
  }
  const list: Capture[] = [{ matches, maxBytes }];
  captures.set(fastify, list);
  fastify.addHook('preParsing', (req, _reply, payload, done) => {
    for (const c of list) {
      if (!c.matches(req)) continue;
      keep(req as WithRawBody, payload, c.maxBytes).then(
        (copy) => done(null, copy),
        (err: Error) => done(err),
      );
      return;
    }
    done(null, payload);
  });
}

async function keep(req: WithRawBody, payload: NodeJS.ReadableStream, maxBytes: number): Promise<Readable> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw PlatformErrors.error('payload_too_large', `This body is at most ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  req.rawBody = raw;
  const replay = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
  replay.receivedEncodedLength = raw.length;
  return replay;
}
