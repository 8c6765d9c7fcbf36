import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createServer, Server } from 'node:http';
import { PlatformConfig } from '../config/platform.config';
import { PlatformErrors } from '../errors/app-error';
import { ConnectionDrain } from './connection-drain';

/**
 * The operator's routes: the Prometheus scrape, the OpenAPI document and Swagger UI, the `/admin`
 * API. With OPS_PORT set they are served on that port only, so the Service an ingress exposes
 * (PORT) carries the API alone; with it unset everything is on PORT.
 */
export function isOpsPath(url: string): boolean {
  return underPrefix(url, '/metrics') || underPrefix(url, '/admin') || url.startsWith('/docs');
}

/** `url` is `prefix` itself, or below it (`/admin/tenants`), with or without a query string. */
function underPrefix(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === 0x2f || next === 0x3f; // end, '/', '?'
}

/** Probes answer on both ports (kubelet probes the API port, an operator may ask the other). */
function isHealthPath(url: string): boolean {
  return underPrefix(url, '/health');
}

/**
 * What a request on the wrong port gets: the same 404 as a path no route matches, so the API
 * port does not even tell that an operator route exists. Null when the port may serve it
 * (always, when no OPS_PORT is set).
 */
export function wrongPort(opsPort: number | undefined, localPort: number | undefined, url: string): Error | null {
  if (opsPort === undefined || isHealthPath(url)) return null;
  if ((localPort === opsPort) === isOpsPath(url)) return null;
  return PlatformErrors.error('route_not_found', 'No route matches this method and path');
}

/**
 * The second listener of OPS_PORT: a plain HTTP server that hands every request to the app's own
 * Fastify handler (one router, one set of hooks, one error envelope); the hooks tell the two
 * ports apart by the socket's local port. Listens once the app is initialised, before the main
 * port; closed with the app.
 */
@Injectable()
export class OpsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | null = null;
  private connections: ConnectionDrain | null = null;

  constructor(
    private readonly platform: PlatformConfig,
    private readonly adapter: HttpAdapterHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.platform.opsPort;
    if (port === undefined) return;
    const main: Server = this.adapter.httpAdapter.getHttpServer();
    const server = createServer((req, res) => main.emit('request', req, res));
    this.connections = new ConnectionDrain(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.platform.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    this.connections?.destroyAll();
    await new Promise((r) => server.close(r));
  }
}
