import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlatformErrors } from '../../platform/errors/app-error';

const MAX_EVENT_BYTES = 64 * 1024;

/**
 * Keeps the exact bytes of the body of requests under `pathPrefix` (as `req.rawBody`) before the
 * JSON parser runs: an HMAC must be checked over what was sent, not over a re-serialization.
 */
export function captureRawBody(fastify: FastifyInstance, pathPrefix: string): void {
  // Callback style, so that every other request passes for the price of one string test.
  fastify.addHook('preParsing', (req, _reply, payload, done) => {
    if (!req.url.startsWith(pathPrefix)) {
      done(null, payload);
      return;
    }
    keep(req, payload).then((copy) => done(null, copy), (err: Error) => done(err));
  });
}

async function keep(req: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Readable> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += (chunk as Buffer).length;
    if (size > MAX_EVENT_BYTES) throw PlatformErrors.error('payload_too_large', `A provider event is at most ${MAX_EVENT_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  (req as FastifyRequest & { rawBody?: Buffer }).rawBody = raw;
  const replay = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
  replay.receivedEncodedLength = raw.length;
  return replay;
}
