import { Injectable } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * `http://127.0.0.1:<port>` of this process's HTTP server, read when first needed (after
 * `listen`): the default address of its own receivers (the API Pix callbacks the service
 * registers at the PSP), so a server on a random port (tests) or on PORT is reached over real
 * HTTP without configuration.
 */
export function selfOrigin(host: HttpAdapterHost): string {
  const server = host.httpAdapter?.getHttpServer?.();
  const addr = server?.address?.() as AddressInfo | string | null | undefined;
  if (!addr || typeof addr === 'string') {
    throw new Error('the HTTP server is not listening yet: cannot tell its own address');
  }
  const ip = addr.address === '0.0.0.0' || addr.address === '::' || addr.address === '' ? '127.0.0.1' : addr.address;
  const h = ip.includes(':') ? `[${ip}]` : ip;
  return `http://${h}:${addr.port}`;
}

/**
 * Resolves once this process's HTTP server is listening (at once when it already is), so work
 * that needs {@link selfOrigin} (registering our callback URL at the PSP) starts the moment the
 * address exists instead of failing before `listen` and waiting out a retry: a Pix paid in that
 * gap had its callback dropped by the PSP. Never resolves for an app that is not served.
 */
export function whenListening(host: HttpAdapterHost): Promise<void> {
  const server = host.httpAdapter?.getHttpServer?.() as { listening?: boolean; once?: (e: string, f: () => void) => void } | undefined;
  if (!server?.once || server.listening) return Promise.resolve();
  return new Promise((resolve) => server.once!('listening', () => resolve()));
}

/**
 * The origin this process listens on, read from the socket (not PUBLIC_URL, which is what the
 * payer's browser uses and may be a proxy): the sandbox app's default for the URLs it hands out
 * (a boleto's download), on any port.
 */
@Injectable()
export class SelfOrigin {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get(): string {
    const server = this.adapterHost.httpAdapter?.getHttpServer?.();
    const addr = server?.address?.() as AddressInfo | string | null | undefined;
    if (!addr || typeof addr === 'string') throw new Error('the HTTP server is not listening yet');
    const host =
      addr.address === '0.0.0.0' || addr.address === ''
        ? '127.0.0.1'
        : addr.address === '::'
          ? '[::1]'
          : addr.family === 'IPv6'
            ? `[${addr.address}]`
            : addr.address;
    return `http://${host}:${addr.port}`;
  }
}
