/**
 * A stub PSP for tests that need a PSP to answer what the test says (it is outside the product):
 * node:https with mutual TLS on development certificates made by OpenSSL, an OAuth2 token
 * endpoint taking any Basic client, and the rest handed to the test's handler. `env` points the
 * service's PixApiClient at it (PIX_API_URL, client certificate, key and CA).
 */
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevCertificates } from '../../src/platform/tls/dev-certificates';

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
}

export interface StubPsp {
  url: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startStubPsp(handle: (req: StubRequest) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>): Promise<StubPsp> {
  const dir = mkdtempSync(join(tmpdir(), 'stub-psp-'));
  const pki = ensureDevCertificates(join(dir, 'certs'));
  const server: Server = createServer({ key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' }, async (req, res) => {
    let text = '';
    for await (const c of req) text += c;
    const url = new URL(req.url!, 'https://x');
    const send = (status: number, body?: unknown) => {
      const b = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'content-length': Buffer.byteLength(b) });
      res.end(b);
    };
    if (req.method === 'POST' && url.pathname === '/oauth/token') return send(200, { access_token: 'stub-token', token_type: 'Bearer', expires_in: 3600 });
    try {
      const a = await handle({ method: req.method!, path: url.pathname, query: url.searchParams, body: text ? JSON.parse(text) : undefined });
      send(a.status, a.body);
    } catch (e: any) {
      send(500, { type: 'https://pix.bcb.gov.br/api/v2/error/ErroInternoDoServidor', title: 'erro', status: 500, detail: e?.message });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const certs = join(dir, 'certs');
  return {
    url,
    env: { PIX_API_URL: url, PIX_API_CERT_FILE: join(certs, 'client.crt'), PIX_API_KEY_FILE: join(certs, 'client.key'), PIX_API_CA_FILE: join(certs, 'ca.crt') },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
