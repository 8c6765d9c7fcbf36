import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can take down and bring back, to show what
 * the service does when its database goes away and returns (a real outage, not a mock); also
 * a fixed public port in front of an app that is not started yet (`retarget`).
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private targetPort: number,
  ) {}

  /** New connections go to this port from now on. */
  retarget(port: number): void {
    this.targetPort = port;
  }

  async up(port = this.port): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
      if (this.stalled) for (const s of [client, upstream]) s.pause();
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as { port: number }).port;
  }

  /**
   * Stops carrying bytes either way on every connection, open or new, without closing any: work
   * sent now waits for an answer that does not come (a database that hangs, then `down()` dies).
   */
  stall(): void {
    this.stalled = true;
    for (const s of this.sockets) s.pause();
  }

  /** Refuses new connections and cuts the open ones, like a database that died. */
  async down(): Promise<void> {
    this.stalled = false;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
