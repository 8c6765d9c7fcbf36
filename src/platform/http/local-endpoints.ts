import { Injectable } from '@nestjs/common';

/** The sandbox PSP's HTTPS server (API Pix over mutual TLS). */
export const SANDBOX_PSP_ENDPOINT = 'sandbox-psp';

/**
 * Addresses of servers this process runs besides the main HTTP server (the sandbox PSP's
 * HTTPS port), by name. The party that listens publishes its URL; a client whose configuration
 * leaves the address unset reads it here, so the provider never imports the sandbox.
 */
@Injectable()
export class LocalEndpoints {
  private readonly urls = new Map<string, string>();
  private readonly waiters = new Map<string, ((url: string) => void)[]>();

  set(name: string, url: string): void {
    this.urls.set(name, url);
    for (const w of this.waiters.get(name) ?? []) w(url);
    this.waiters.delete(name);
  }

  get(name: string): string | undefined {
    return this.urls.get(name);
  }

  /** The URL once published (a client may be asked to call before the server listens). */
  whenSet(name: string, timeoutMs = 10000): Promise<string> {
    const now = this.urls.get(name);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} is not listening`)), timeoutMs);
      const list = this.waiters.get(name) ?? [];
      list.push((url) => {
        clearTimeout(timer);
        resolve(url);
      });
      this.waiters.set(name, list);
    });
  }
}
