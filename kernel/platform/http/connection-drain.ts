import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';

/** A response's connection, as Node's HTTP server keeps it (the response it is answering now, if any). */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/** A connection ended by {@link ConnectionDrain} that its client has not closed after this is cut. */
const END_GRACE_MS = 1000;

/**
 * Lets an HTTP server's `close()` end when its work ends, not when its clients' connections time
 * out. Node's `server.close()` closes the connections idle at that moment and then waits for every
 * other one to close by itself, and two kinds never do for a long time:
 * - a connection that has sent nothing yet (a TCP probe, a browser's speculative preconnect, a
 *   client between connect and write): Node waits for its headers timeout, 60 to 90 s;
 * - the connection of a request in flight: its keep-alive answer leaves it idle after the one
 *   sweep, and Node waits for the keep-alive timeout (Fastify's 72 s), or for the client to leave.
 * Either held a SIGTERM (and a test's `app.close()`) past Kubernetes' grace period. So at close the
 * silent connections are cut (nothing was asked on them), and the requests in flight are
 * answered with `Connection: close` (or, when their headers are already out, their connection is
 * ended once the answer is), so each ends as its work does. Requests that arrive on an open
 * connection while closing get Fastify's 503 with `Connection: close` (`return503OnClosing`).
 * Only the connection event is listened to: requests pay nothing.
 */
export class ConnectionDrain {
  private readonly open = new Set<HttpSocket>();

  constructor(server: Server) {
    server.on('connection', (socket: HttpSocket) => {
      this.open.add(socket);
      socket.once('close', () => this.open.delete(socket));
    });
  }

  /** As the server stops listening: cut the silent connections, make the busy ones the last of theirs. */
  drain(): void {
    for (const socket of this.open) {
      const res = socket._httpMessage;
      if (res) lastOnItsConnection(res, socket);
      else if (socket.bytesRead === 0) socket.destroy();
      // else idle between requests (the server's close sweeps it), or a request still arriving
      // (answered 503 with Connection: close)
    }
  }

  /** Every connection cut, busy or not (a server whose close answers nothing more). */
  destroyAll(): void {
    for (const socket of this.open) socket.destroy();
  }
}

function lastOnItsConnection(res: ServerResponse, socket: Socket): void {
  if (!res.headersSent) {
    res.setHeader('connection', 'close'); // Node ends the connection after this answer
    return;
  }
  const end = () => {
    socket.end();
    setTimeout(() => socket.destroy(), END_GRACE_MS).unref();
  };
  if (res.writableFinished) end();
  else res.once('finish', end);
}

/** Installs a {@link ConnectionDrain} on a Fastify app's server, drained as Fastify begins to close. */
export function drainConnectionsOnClose(fastify: FastifyInstance): ConnectionDrain {
  const drain = new ConnectionDrain(fastify.server);
  fastify.addHook('preClose', (done) => {
    // after this hook Fastify calls server.close() at once: no connection is accepted in between
    drain.drain();
    done();
  });
  return drain;
}
