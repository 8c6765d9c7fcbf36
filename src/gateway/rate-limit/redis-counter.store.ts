import Redis from 'ioredis';

const INCR_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

type Listener = (up: boolean, reason: string) => void;

/**
 * Counters shared by every replica: one Redis key per (limit key, window), INCR + PEXPIRE in
 * one script. No offline queue and a short command timeout: when Redis is away a command fails
 * at once and the limiter falls back to its in-process store.
 */
export class RedisCounterStore {
  readonly client: Redis;
  private up = false;

  constructor(
    url: string,
    commandTimeoutMs: number,
    private readonly prefix: string,
    private readonly onChange: Listener,
  ) {
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: 2000,
      lazyConnect: true,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.client.defineCommand('rlIncr', { numberOfKeys: 1, lua: INCR_SCRIPT });
    this.client.on('ready', () => this.set(true, 'connected'));
    this.client.on('close', () => this.set(false, 'connection closed'));
    this.client.on('error', (e: Error) => this.set(false, e.message));
  }

  isUp(): boolean {
    return this.up;
  }

  /** Waits up to `ms` for the first connection; the service starts either way. */
  async connect(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.client.connect().catch(() => undefined),
      new Promise((r) => {
        timer = setTimeout(r, ms);
      }),
    ]);
    clearTimeout(timer);
  }

  async incr(key: string, window: number, windowMs: number): Promise<number> {
    const n = await (this.client as any).rlIncr(`${this.prefix}rl:${key}:${window}`, windowMs + 1000);
    return Number(n);
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('close');
    this.client.removeAllListeners('error');
    this.client.on('error', () => undefined);
    this.client.disconnect();
  }

  private set(up: boolean, reason: string): void {
    if (this.up === up) return;
    this.up = up;
    this.onChange(up, reason);
  }
}
