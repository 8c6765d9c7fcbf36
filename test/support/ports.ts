import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's range for ephemeral ports (outgoing connections and `listen(0)`). */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (lo > 0 && hi >= lo) return [lo, hi];
  } catch {
    /* not Linux */
  }
  return [32768, 60999];
}

/**
 * The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking): a browser refuses
 * to load any URL on them (Chromium's ERR_UNSAFE_PORT), so a page test served on one fails. 10080 lies
 * inside the range drawn from below.
 */
const BROWSER_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * `n` distinct ports for apps and processes that must be told their ports before they listen (the
 * service and the sandbox app, each configured with the other's address; an embedded PostgreSQL).
 * Each is free now and released, so something else could take it before it is listened on; they
 * are drawn at random from below the ephemeral range, which outgoing connections and `listen(0)`
 * of every other test never use, so only another such draw could (the in-process test app boots
 * again on EADDRINUSE). None is a port browsers refuse, since pages are tested on them.
 */
export async function freePorts(n: number): Promise<number[]> {
  const [lo] = ephemeralRange();
  const from = Math.min(10000, lo - 1000);
  const ports = new Set<number>();
  for (let tries = 0; ports.size < n; tries++) {
    if (tries >= 50 * n) throw new Error(`no ${n} free ports found below the ephemeral range (${from}–${lo - 1})`);
    const port = from + Math.floor(Math.random() * (lo - from));
    if (!ports.has(port) && !BROWSER_BAD_PORTS.has(port) && (await canListen(port))) ports.add(port);
  }
  return [...ports];
}

/** The ports of an `npm start` pair on free ports, and the variables that tell each app where it and the other are. */
export async function npmStartPorts(): Promise<{
  port: number;
  pgPort: number;
  sandboxPort: number;
  pspPort: number;
  env: Record<string, string>;
}> {
  const [port, pgPort, sandboxPort, pspPort, sandboxPgPort] = await freePorts(5);
  return {
    port,
    pgPort,
    sandboxPort,
    pspPort,
    env: {
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_PSP_PORT: String(pspPort),
      SANDBOX_EMBEDDED_PG_PORT: String(sandboxPgPort),
      SANDBOX_URL: `http://127.0.0.1:${sandboxPort}`,
      SANDBOX_PSP_URL: `https://127.0.0.1:${pspPort}`,
      SANDBOX_SERVICE_URL: `http://127.0.0.1:${port}`,
    },
  };
}
