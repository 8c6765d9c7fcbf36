import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlatformErrors } from '../../platform/errors/app-error';

const MAX_EVENT_BYTES = 64 * 1024;

/**
 * Keeps the exact bytes of the body of requests under `pathPrefix` (as `req.rawBody`) before the
 * JSON parser runs: an HMAC must be checked over what was sent, not over a re-serialization.
 */
export function captureRawBody(fastify: FastifyInstance, pathPrefix: string): void {
  fastify.addHook('preParsing', async (req, _reply, payload) => {
    if (!req.url.startsWith(pathPrefix)) return payload;
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
  });
}
