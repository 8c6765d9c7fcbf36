import { randomJson } from '../support/fuzz/cases';
import { prng } from '../support/fuzz/schema-values';
import { startTestApp, TestApp } from '../support/test-app';
import { PixApiClient, PixApiRejection } from '../../src/provider/pix-api/pix-api-client';

/**
 * The sandbox answers bad input with 400, never 500, as the service does: a client's bad input is
 * its own fault and must say so. Every write route of the sandbox
 * PSP (API Pix over mutual TLS and OAuth2, through the service's own client) gets malformed,
 * wrong-typed, oversized, control-character and seeded random bodies; each answer is a 4xx
 * problem, never a 5xx.
 */
describe('the sandbox PSP answers hostile input with a 4xx problem, never a 500', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let client: PixApiClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_RETRY_DELAYS_MS: '10', PROVIDER_TIMEOUT_MS: '3000' } });
    client = t.app.get(PixApiClient);
  });
  afterAll(() => t?.close());

  const routes: [string, string][] = [
    ['POST', '/rec'],
    ['PATCH', '/rec/RR1234567820261124aB3dE5gH7jK'],
    ['PUT', '/cobr/txidHostile0000000000000001'],
    ['PATCH', '/cobr/txidHostile0000000000000001'],
    ['PUT', '/cob/txidHostile0000000000000002'],
    ['PUT', '/cobv/txidHostile0000000000000003'],
    ['POST', '/locrec'],
    ['POST', '/solicrec'],
    ['PUT', '/webhook/chave-hostil'],
    ['PUT', '/webhookrec'],
    ['PUT', '/webhookcobr'],
  ];
  const fixed: unknown[] = [
    {},
    [],
    'x',
    1,
    { valor: { original: '1e308' } },
    { valor: { original: 1e308 } },
    { valor: { original: '-1.00' } },
    { calendario: { dataDeVencimento: '2026-02-30', expiracao: -1 }, valor: { original: '10.00' }, chave: 'x' },
    { devedor: { nome: 'a\u0000b', cpf: '12345678909' }, valor: { original: '10.00' }, chave: 'x' },
    { chave: '\ud800', valor: { original: '10.00' } },
    { vinculo: { objeto: 'x'.repeat(100_000), devedor: { cpf: '1'.repeat(5000) } } },
    JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)),
    { webhookUrl: 'not a url' },
    { status: 'CANCELADA', idRec: null, calendario: null, valor: null },
  ];

  it('every route, fixed and seeded random bodies: 4xx every time', async () => {
    const rnd = prng(18);
    const outcomes: Record<string, number> = {};
    const bad: string[] = [];
    for (const [method, path] of routes) {
      const bodies = [...fixed, ...Array.from({ length: 25 }, () => randomJson(rnd))];
      for (const body of bodies) {
        let status: number;
        try {
          await client.call({ operation: 'hostile', method: method as any, path, body, idempotent: false });
          status = 200;
        } catch (e) {
          status = e instanceof PixApiRejection ? e.problem.status : 500;
        }
        outcomes[status] = (outcomes[status] ?? 0) + 1;
        if (status >= 500) bad.push(`${method} ${path} ${JSON.stringify(body).slice(0, 120)} → ${status}`);
      }
    }
    expect(bad).toEqual([]);
    // mostly refused as the schema violation it is
    expect(outcomes[400]).toBeGreaterThan(routes.length * 10);
  });
});
