import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';
import { PlatformErrors } from '../errors/app-error';

export type WithRawBody = FastifyRequest & { rawBody?: Buffer };

/** The one route whose bodies are kept: its method and its URL template, as the router knows it. */
export interface RawBodyRoute {
  method: string;
  url: string;
}

/**
 * Keeps the exact bytes of the bodies sent to `route` (as `req.rawBody`) before the JSON parser
 * runs: an HMAC must be checked over what was sent, not over a re-serialization. A body over
 * `maxBytes` is refused with 413 `payload_too_large`. The hook is the route's own (`preParsing`
 * set through `onRoute`), so every other request pays nothing for it, not even a test of its
 * path. Call it before the app's routes are registered (a provider's or module's constructor:
 * Nest registers routes in `init()`); a route it never saw fails the boot.
 */
export function captureRawBody(fastify: FastifyInstance, route: RawBodyRoute, maxBytes: number): void {
  let seen = false;
  fastify.addHook('onRoute', (opts) => {
    const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
    if (opts.url !== route.url || !methods.includes(route.method as never)) return;
    seen = true;
    const hook: preParsingHookHandler = (req, _reply, payload, done) => {
      keep(req as WithRawBody, payload, maxBytes).then(
        (copy) => done(null, copy),
        (err: Error) => done(err),
      );
    };
    opts.preParsing = ([] as preParsingHookHandler[]).concat(opts.preParsing ?? [], hook);
  });
  fastify.addHook('onReady', (done) => {
    done(seen ? undefined : new Error(`captureRawBody: no route ${route.method} ${route.url} was registered`));
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
