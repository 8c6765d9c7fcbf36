import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { startTestApp, TestApp } from '../support/test-app';
import { PixApiClient, PixApiRejection } from '../../src/provider/pix-api/pix-api-client';
import { PixApiConfig } from '../../src/provider/pix-api/pix-api.config';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { pspProblem } from '../../sandbox/src/psp/problems';
import { ProviderCallError } from '../../kernel/platform/http/resilient-http';
import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';

/** A raw HTTPS request to the sandbox PSP with the given TLS material (the client's, or none). */
function raw(url: string, tls: { ca: string; cert?: string; key?: string }, path = '/oauth/token'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', ...tls, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API Pix client over mutual TLS and OAuth2, against the sandbox PSP', () => {
  let t: TestApp;
  let psp: SandboxPspServer;
  let client: PixApiClient;
  let probeCalls = 0;

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_PSP_TOKEN_TTL_S: '2', PROVIDER_RETRY_DELAYS_MS: '20,20', PROVIDER_TIMEOUT_MS: '1000' } });
    psp = t.sandbox.get(SandboxPspServer);
    client = t.app.get(PixApiClient);
    psp.register('GET', '/probe/:id', async (req) => {
      probeCalls++;
      return { status: 200, body: { id: req.params.id, clientId: req.clientId, q: req.query.get('q') } };
    });
    psp.register('PUT', '/refuse/:id', async () =>
      pspProblem(400, 'CobROperacaoInvalida', 'Cobrança inválida.', 'A requisição não respeita o schema.', [
        { razao: 'O campo cobr.valor.original não respeita o schema.', propriedade: 'cobr.valor.original' },
      ]),
    );
  });
  afterAll(() => t?.close());

  const pki = () => {
    const dir = join(t.dataDir, 'psp-certs');
    const f = (n: string) => readFileSync(join(dir, n), 'utf8');
    return { dir, ca: f('ca.crt'), cert: f('client.crt'), key: f('client.key') };
  };

  it('the development certificates are made with OpenSSL once, under DATA_DIR, and chain to their CA', () => {
    const { dir } = pki();
    for (const leaf of ['server.crt', 'client.crt']) {
      expect(execFileSync('openssl', ['verify', '-CAfile', join(dir, 'ca.crt'), join(dir, leaf)], { encoding: 'utf8' })).toContain(': OK');
    }
    const server = execFileSync('openssl', ['x509', '-in', join(dir, 'server.crt'), '-noout', '-ext', 'subjectAltName'], {
      encoding: 'utf8',
    });
    expect(server).toContain('IP Address:127.0.0.1');
  });

  it('a connection without the client certificate is refused; with it, the token endpoint answers', async () => {
    const url = psp.url()!;
    const { ca, cert, key } = pki();
    await expect(raw(url, { ca })).rejects.toThrow();
    expect(await raw(url, { ca, cert, key })).toBe(401); // no client credentials: refused by OAuth2, past TLS
  });

  it('a route without a bearer token is 401', async () => {
    const { ca, cert, key } = pki();
    expect(await raw(psp.url()!, { ca, cert, key }, '/probe/1')).toBe(401);
  });

  it('takes a token once and reuses it; an expired token is renewed; a revoked one is renewed once and the call retried', async () => {
    const before = psp.tokensIssued;
    for (let i = 0; i < 3; i++)
      expect(await client.call({ operation: 'probe', method: 'GET', path: `/probe/${i}`, query: { q: 'x y' }, idempotent: true })).toEqual({
        id: String(i),
        clientId: 'sandbox-psp-client',
        q: 'x y',
      });
    expect(psp.tokensIssued - before).toBe(1);

    await new Promise((r) => setTimeout(r, 2100)); // past the 2 s lifetime
    await client.call({ operation: 'probe', method: 'GET', path: '/probe/a', idempotent: true });
    expect(psp.tokensIssued - before).toBe(2);

    psp.revokeAllTokens(); // the PSP forgets it while the client still holds it
    const calls = probeCalls;
    expect(await client.call({ operation: 'probe', method: 'GET', path: '/probe/b', idempotent: true })).toMatchObject({ id: 'b' });
    expect(psp.tokensIssued - before).toBe(3);
    expect(probeCalls - calls).toBe(1);
  });

  it('a 4xx problem is a PixApiRejection with the violations, never retried, never a breaker failure', async () => {
    for (let i = 0; i < 12; i++) {
      const e: any = await client
        .call({ operation: 'refuse', method: 'PUT', path: `/refuse/${i}`, body: { x: 1 }, idempotent: true })
        .catch((x) => x);
      expect(e).toBeInstanceOf(PixApiRejection);
      expect(e.code).toBe('provider_rejected');
      expect(e.problemName).toBe('CobROperacaoInvalida');
      expect(e.problem.violacoes).toEqual([
        { razao: 'O campo cobr.valor.original não respeita o schema.', propriedade: 'cobr.valor.original' },
      ]);
    }
    const breaker = t.app.get(BreakerRegistry).get('psp.refuse', async () => undefined, { timeoutMs: 1000 });
    expect(breaker.opened).toBe(false);
  });

  it('nothing secret reaches the logs', () => {
    const secret = t.app.get(PixApiConfig).clientSecret;
    expect(secret.length).toBeGreaterThanOrEqual(24);
    expect(t.logs()).not.toContain(secret);
    expect(t.logs()).not.toMatch(/Bearer|access_token|BEGIN [A-Z ]*PRIVATE KEY/);
  });

  it('PSP down: provider_unavailable, then the breaker answers fast', async () => {
    await psp.onApplicationShutdown();
    const first: any = await client.call({ operation: 'probe', method: 'GET', path: '/probe/down', idempotent: true }).catch((x) => x);
    expect(first).toBeInstanceOf(ProviderCallError);
    expect(first.code).toBe('provider_unavailable');
    for (let i = 0; i < 6; i++)
      await client.call({ operation: 'probe', method: 'GET', path: '/probe/down', idempotent: true }).catch(() => undefined);
    const started = Date.now();
    const fast: any = await client.call({ operation: 'probe', method: 'GET', path: '/probe/down', idempotent: true }).catch((x) => x);
    expect(fast.code).toBe('provider_unavailable');
    expect(fast.message).toContain('circuit open');
    expect(Date.now() - started).toBeLessThan(200);
  });
});
