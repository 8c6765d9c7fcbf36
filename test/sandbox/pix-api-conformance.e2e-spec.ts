import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevCertificates } from '../../kernel/platform/tls/dev-certificates';
import { SANDBOX_PIX_KEY } from '../../src/provider/pix-api/pix-api.config';
import { SandboxPspConfig } from '../../sandbox/src/psp/sandbox-psp.config';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { PixApi, pixApiClient } from '../support/pix-api-client/client';
import { recordExchanges } from '../support/pix-api-contract';
import { startTestApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const txid = (tag: string) => `conf${tag}${Date.now()}${Math.random().toString(36).slice(2)}`.replace(/[^A-Za-z0-9]/g, '').slice(0, 35);

/**
 * The sandbox PSP driven by an API Pix client that is not ours: openapi-fetch over the types
 * openapi-typescript generates from the Central Bank's file as published, over mutual TLS with
 * the sandbox's development certificates and OAuth2 client credentials, as an integrator's
 * generated client would. Every exchange is validated against the vendored file.
 */
describe('sandbox PSP, driven by a client generated from the API Pix file', () => {
  let t: TestApp;
  let api: PixApi;
  let exchanges: ReturnType<typeof recordExchanges>;

  beforeAll(async () => {
    t = await startTestApp();
    const psp = t.sandbox.get(SandboxPspServer);
    const pki = ensureDevCertificates(join(t.dataDir, 'psp-certs'));
    const creds = t.sandbox.get(SandboxPspConfig);
    exchanges = recordExchanges(psp);
    api = await pixApiClient(psp.url()!, { cert: pki.clientCert, key: pki.clientKey, ca: pki.ca }, creds.clientId, creds.clientSecret);
  });
  afterAll(async () => {
    exchanges.stop();
    await t.close();
  });

  it('the committed client types are what openapi-typescript makes from the vendored file today', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-pix-types-'));
    try {
      execFileSync(
        join(ROOT, 'node_modules/.bin/openapi-typescript'),
        [
          'test/fixtures/pix-api/bcb-pix-api-2.9.0.yaml',
          '--redocly',
          'test/support/pix-api-client/redocly.yaml',
          '-o',
          join(dir, 'pix-api.d.ts'),
        ],
        { cwd: ROOT, stdio: 'ignore' },
      );
      expect(readFileSync(join(dir, 'pix-api.d.ts'), 'utf8')).toBe(
        readFileSync(join(ROOT, 'test/support/pix-api-client/pix-api.d.ts'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an immediate charge: created, read, revised and removed', async () => {
    const id = txid('cob');
    const made = await api.PUT('/cob/{txid}', {
      params: { path: { txid: id } },
      body: { calendario: { expiracao: 3600 }, valor: { original: '10.50' }, chave: SANDBOX_PIX_KEY, solicitacaoPagador: 'Pedido 42' },
    });
    expect(made.response.status).toBe(201);
    expect(made.data).toMatchObject({ txid: id, status: 'ATIVA', valor: { original: '10.50' } });

    const read = await api.GET('/cob/{txid}', { params: { path: { txid: id } } });
    expect(read.data?.status).toBe('ATIVA');

    const revised = await api.PATCH('/cob/{txid}', { params: { path: { txid: id } }, body: { valor: { original: '12.00' } } });
    expect(revised.data?.valor.original).toBe('12.00');

    const removed = await api.PATCH('/cob/{txid}', { params: { path: { txid: id } }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(removed.data?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });

  it('a charge with a due date, for a debtor', async () => {
    const id = txid('cobv');
    const due = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const made = await api.PUT('/cobv/{txid}', {
      params: { path: { txid: id } },
      body: {
        calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
        devedor: { cpf: '52998224725', nome: 'Maria Souza' },
        valor: { original: '153.49' },
        chave: SANDBOX_PIX_KEY,
      },
    });
    expect(made.response.status).toBe(201);
    expect(made.data).toMatchObject({ txid: id, status: 'ATIVA', calendario: { dataDeVencimento: due } });
    expect((await api.GET('/cobv/{txid}', { params: { path: { txid: id } } })).data?.devedor).toMatchObject({ nome: 'Maria Souza' });
  });

  it("the key's webhook, received Pix, a recurrence location, and problems in the file's shape", async () => {
    const set = await api.PUT('/webhook/{chave}', {
      params: { path: { chave: SANDBOX_PIX_KEY } },
      body: { webhookUrl: 'https://receiver.example/pix' },
    });
    expect([200, 204]).toContain(set.response.status);
    expect((await api.GET('/webhook/{chave}', { params: { path: { chave: SANDBOX_PIX_KEY } } })).data?.webhookUrl).toBe(
      'https://receiver.example/pix',
    );
    expect((await api.DELETE('/webhook/{chave}', { params: { path: { chave: SANDBOX_PIX_KEY } } })).response.status).toBe(204);

    const now = new Date();
    const pix = await api.GET('/pix', {
      params: { query: { inicio: new Date(now.getTime() - 86_400_000).toISOString(), fim: now.toISOString() } },
    });
    expect(pix.response.status).toBe(200);
    expect(Array.isArray(pix.data?.pix)).toBe(true);

    const loc = await api.POST('/locrec');
    expect(loc.response.status).toBe(201);
    expect(loc.data?.location).toBeTruthy();

    const missing = await api.GET('/cob/{txid}', { params: { path: { txid: txid('none') } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({
      status: 404,
      title: expect.any(String),
      type: expect.stringContaining('https://pix.bcb.gov.br/api/v2/error/'),
    });
  });

  it('every exchange above is valid against the vendored API Pix file', () => {
    expect(exchanges.seen.length).toBeGreaterThanOrEqual(12);
    expect(exchanges.violations()).toEqual([]);
  });
});
