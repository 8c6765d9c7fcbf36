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
 * again on EADDRINUSE).
 */
export async function freePorts(n: number): Promise<number[]> {
  const [lo] = ephemeralRange();
  const from = Math.min(10000, lo - 1000);
  const ports = new Set<number>();
  for (let tries = 0; ports.size < n; tries++) {
    if (tries >= 50 * n) throw new Error(`no ${n} free ports found below the ephemeral range (${from}–${lo - 1})`);
    const port = from + Math.floor(Math.random() * (lo - from));
    if (!ports.has(port) && (await canListen(port))) ports.add(port);
  }
  return [...ports];
}
