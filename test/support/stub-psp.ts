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
import { ensureDevCertificates } from '../../kernel/platform/tls/dev-certificates';

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
}

export interface StubPsp {
  url: string;
  env: Record<string, string>;
  /** The recurrences it holds (POST /rec makes them CRIADA; a test moves them), by idRec. */
  recs: Map<string, { status: string; contrato: string }>;
  close(): Promise<void>;
}

let recSeq = 0;

/**
 * Besides the test's handler, it answers the recurrence half the way a PSP does, minimally:
 * `POST /locrec`, `POST /rec` (CRIADA, a fresh `RR…` idRec), `GET /rec/{idRec}` (the status the
 * test set in `recs`).
 */
export async function startStubPsp(
  handle: (req: StubRequest) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>,
): Promise<StubPsp> {
  const recs: StubPsp['recs'] = new Map();
  const recAnswer = (idRec: string) => {
    const r = recs.get(idRec)!;
    const history = [
      { status: 'CRIADA', data: new Date().toISOString() },
      ...(r.status !== 'CRIADA' ? [{ status: r.status, data: new Date().toISOString() }] : []),
    ];
    return {
      idRec,
      status: r.status,
      vinculo: { contrato: r.contrato },
      politicaRetentativa: 'PERMITE_3R_7D',
      atualizacao: history,
      loc: { id: 1, location: 'psp.example/qr/v2/rec/x' },
    };
  };
  const builtIn = (req: StubRequest): { status: number; body?: unknown } | null => {
    if (req.method === 'POST' && req.path === '/locrec')
      return { status: 201, body: { id: 1, location: 'psp.example/qr/v2/rec/x', criacao: new Date().toISOString() } };
    if (req.method === 'POST' && req.path === '/rec') {
      const idRec = `RR99999999${new Date().toISOString().slice(0, 10).replace(/-/g, '')}${String(recSeq++).padStart(11, '0')}`;
      recs.set(idRec, { status: 'CRIADA', contrato: req.body?.vinculo?.contrato });
      return { status: 201, body: recAnswer(idRec) };
    }
    const m = /^\/rec\/(\w+)$/.exec(req.path);
    if (m && req.method === 'GET' && recs.has(m[1])) return { status: 200, body: recAnswer(m[1]) };
    return null;
  };
  const dir = mkdtempSync(join(tmpdir(), 'stub-psp-'));
  const pki = ensureDevCertificates(join(dir, 'certs'));
  const server: Server = createServer(
    { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
    async (req, res) => {
      let text = '';
      for await (const c of req) text += c;
      const url = new URL(req.url!, 'https://x');
      const send = (status: number, body?: unknown) => {
        const b = body === undefined ? '' : JSON.stringify(body);
        res.writeHead(status, {
          'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
          'content-length': Buffer.byteLength(b),
        });
        res.end(b);
      };
      if (req.method === 'POST' && url.pathname === '/oauth/token')
        return send(200, { access_token: 'stub-token', token_type: 'Bearer', expires_in: 3600 });
      try {
        const r: StubRequest = {
          method: req.method!,
          path: url.pathname,
          query: url.searchParams,
          body: text ? JSON.parse(text) : undefined,
        };
        const a = builtIn(r) ?? (await handle(r));
        send(a.status, a.body);
      } catch (e: any) {
        send(500, { type: 'https://pix.bcb.gov.br/api/v2/error/ErroInternoDoServidor', title: 'erro', status: 500, detail: e?.message });
      }
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const certs = join(dir, 'certs');
  return {
    url,
    recs,
    env: {
      PIX_API_URL: url,
      PIX_API_CERT_FILE: join(certs, 'client.crt'),
      PIX_API_KEY_FILE: join(certs, 'client.key'),
      PIX_API_CA_FILE: join(certs, 'ca.crt'),
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
