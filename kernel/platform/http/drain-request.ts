import type { IncomingMessage } from 'node:http';

/** At most this much of a refused body is read and discarded before the answer goes out. */
export const MAX_DRAIN_BYTES = 8 * 1024 * 1024;
/** And for at most this long (a client trickling its body does not hold a socket). */
export const MAX_DRAIN_MS = 5_000;

/**
 * Runs `answer` once the rest of the request body has been read and discarded, so a client
 * still sending (a body over the limit: Fastify refuses it from its Content-Length, or as soon
 * as the limit is passed) reads the answer. Answered at once, before the body, the connection is
 * closed while the client is still writing: the client sees a reset (EPIPE, ECONNRESET), not the
 * 413. Beyond MAX_DRAIN_BYTES or MAX_DRAIN_MS the answer goes out anyway (and the connection is
 * closed, as before). A request whose body was read already is answered at once.
 */
export function afterRequestBody(raw: IncomingMessage, answer: () => void): void {
  const declared = Number(raw.headers['content-length']);
  if (raw.complete || raw.readableEnded || raw.destroyed || declared > MAX_DRAIN_BYTES) {
    answer();
    return;
  }
  let read = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    raw.off('data', onData);
    raw.off('end', finish);
    raw.off('error', finish);
    raw.off('close', finish);
    answer();
  };
  const onData = (chunk: Buffer | string) => {
    read += chunk.length;
    if (read > MAX_DRAIN_BYTES) finish();
  };
  const timer = setTimeout(finish, MAX_DRAIN_MS);
  raw.on('data', onData);
  raw.once('end', finish);
  raw.once('error', finish);
  raw.once('close', finish);
  raw.resume();
}
