import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type RuntimeEnv = 'development' | 'test' | 'production';

/** Values that look like a template default and must never guard production. */
const PLACEHOLDER = /^(change[-_ ]?me|changeit|secret|password|placeholder|example|todo|xxx+|test|dev|default|<.*>|\$\{.*\})$/i;

export interface SecretOptions {
  /** Bytes of randomness generated for development (base64url encoded). */
  bytes?: number;
  minLength?: number;
}

/**
 * Reads one environment map and collects every problem instead of stopping at the first,
 * so a boot failure lists all bad variables at once.
 */
export class EnvReader {
  readonly problems: string[] = [];

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly runtime: RuntimeEnv,
    private readonly devSecrets: DevSecretStore | null,
  ) {}

  raw(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  str(name: string, fallback: string): string;
  str(name: string): string | undefined;
  str(name: string, fallback?: string): string | undefined {
    return this.raw(name) ?? fallback;
  }

  required(name: string, hint: string): string {
    const v = this.raw(name);
    if (v === undefined) this.problems.push(`${name} is required: ${hint}`);
    return v ?? '';
  }

  int(name: string, fallback: number, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (!/^-?\d+$/.test(v)) {
      this.problems.push(`${name} must be an integer, got "${v}"`);
      return fallback;
    }
    const n = Number(v);
    if (n < min || n > max) {
      this.problems.push(`${name} must be between ${min} and ${max}, got ${n}`);
      return fallback;
    }
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (/^(true|1|yes|on)$/i.test(v)) return true;
    if (/^(false|0|no|off)$/i.test(v)) return false;
    this.problems.push(`${name} must be true or false, got "${v}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(v)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${v}"`);
      return fallback;
    }
    return v as T;
  }

  url(name: string, fallback?: string, protocols: string[] = ['http:', 'https:']): string | undefined {
    const v = this.raw(name) ?? fallback;
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) {
        this.problems.push(`${name} must use ${protocols.join(' or ')}, got "${u.protocol}"`);
      }
      return v.replace(/\/+$/, '');
    } catch {
      this.problems.push(`${name} must be a URL, got "${redactUrl(v)}"`);
      return v;
    }
  }

  list(name: string, fallback: string[] = []): string[] {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  /**
   * A secret: required and non-placeholder in production; generated once and kept under
   * the data directory in development and test.
   */
  secret(name: string, opts: SecretOptions = {}): string {
    const minLength = opts.minLength ?? 16;
    const v = this.raw(name);
    if (v !== undefined) {
      if (this.runtime === 'production' && (PLACEHOLDER.test(v) || v.length < minLength)) {
        this.problems.push(`${name} looks like a placeholder or is shorter than ${minLength} characters; set a real secret`);
      }
      return v;
    }
    if (this.runtime === 'production' || !this.devSecrets) {
      this.problems.push(`${name} is required in production (a secret; it is never generated there)`);
      return '';
    }
    return this.devSecrets.get(name, opts.bytes ?? 32);
  }
}

/** Secrets generated for development, kept in one file readable only by its owner. */
export class DevSecretStore {
  private cache: Record<string, string> | null = null;

  constructor(private readonly file: string) {}

  /**
   * The named secret, made on first use. The service and the sandbox app read the same file (the
   * sandbox must know the PROVIDER_API_KEY the service sends), and `npm start` boots them at
   * once: a miss is settled under a lock file, re-reading the file inside it, so the two
   * processes never make two different values of one secret.
   */
  get(name: string, bytes: number): string {
    const known = this.load()[name];
    if (known) return known;
    mkdirSync(dirname(this.file), { recursive: true });
    return this.locked(() => {
      const all = (this.cache = this.read());
      if (!all[name]) {
        all[name] = randomBytes(bytes).toString('base64url');
        const tmp = `${this.file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
        renameSync(tmp, this.file);
      }
      return all[name];
    });
  }

  private locked<T>(fn: () => T): T {
    const lock = `${this.file}.lock`;
    const deadline = Date.now() + 5000;
    for (;;) {
      try {
        closeSync(openSync(lock, 'wx'));
        break;
      } catch (e: any) {
        if (e?.code !== 'EEXIST') throw e;
        // a lock older than the deadline was left by a process that died holding it
        if (Date.now() > deadline) rmSync(lock, { force: true });
        else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
    try {
      return fn();
    } finally {
      rmSync(lock, { force: true });
    }
  }

  private read(): Record<string, string> {
    return existsSync(this.file) ? JSON.parse(readFileSync(this.file, 'utf8')) : {};
  }

  private load(): Record<string, string> {
    return (this.cache ??= this.read());
  }
}

export function redactUrl(u: string): string {
  return u.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
