import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlatformErrors } from '../errors/app-error';

export type WithRawBody = FastifyRequest & { rawBody?: Buffer };

/**
 * Keeps the exact bytes of the bodies of the requests `matches` picks (as `req.rawBody`) before
 * the JSON parser runs: an HMAC must be checked over what was sent, not over a re-serialization.
 * A body over `maxBytes` is refused with 413 `payload_too_large`. Every other request passes
 * for the price of the `matches` test (a callback hook: no promise per request).
 */
export function captureRawBody(fastify: FastifyInstance, matches: (req: FastifyRequest) => boolean, maxBytes: number): void {
  fastify.addHook('preParsing', (req, _reply, payload, done) => {
    if (!matches(req)) {
      done(null, payload);
      return;
    }
    keep(req as WithRawBody, payload, maxBytes).then(
      (copy) => done(null, copy),
      (err: Error) => done(err),
    );
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
