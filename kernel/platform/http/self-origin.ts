import type { AddressInfo, Server } from 'node:net';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * `http://<host>:<port>` of this process's HTTP server, read from its socket when first needed
 * (after `listen`), not PUBLIC_URL (what the payer's browser uses, which may be a proxy): the
 * default address of the receivers the service registers at the PSP (the API Pix callbacks) and
 * of the URLs the sandbox hands out (a boleto's download, a recurrence's location), so a server
 * on a random port (tests) or on PORT is reached over real HTTP without configuration. A server
 * on every IPv4 address is reached at 127.0.0.1, on every IPv6 address at [::1].
 */
export function selfOrigin(host: HttpAdapterHost): string {
  const server = host.httpAdapter?.getHttpServer?.() as Server | undefined;
  const addr = server?.address?.() as AddressInfo | string | null | undefined;
  if (!addr || typeof addr === 'string') {
    throw new Error('the HTTP server is not listening yet: cannot tell its own address');
  }
  const h =
    addr.address === '0.0.0.0' || addr.address === ''
      ? '127.0.0.1'
      : addr.address === '::'
        ? '[::1]'
        : addr.address.includes(':')
          ? `[${addr.address}]`
          : addr.address;
  return `http://${h}:${addr.port}`;
}

/**
 * Resolves once this process's HTTP server is listening (at once when it already is), so work
 * that needs {@link selfOrigin} (registering our callback URL at the PSP) starts the moment the
 * address exists instead of failing before `listen` and waiting out a retry: a Pix paid in that
 * gap had its callback dropped by the PSP. Never resolves for an app that is not served.
 */
export function whenListening(host: HttpAdapterHost): Promise<void> {
  const server = host.httpAdapter?.getHttpServer?.() as Server | undefined;
  if (!server?.once || server.listening) return Promise.resolve();
  return new Promise((resolve) => server.once('listening', () => resolve()));
}
