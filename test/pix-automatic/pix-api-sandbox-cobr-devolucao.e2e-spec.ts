/**
 * A Pix Automático payment given back at the sandbox PSP: the paid attempt of a cobr is a received
 * Pix (GET /pix/{e2eid}), a devolução of it settles on the PSP's tick, and MED may return it as
 * MED_PIX_AUTOMATICO (a Pix comum's MED_OPERACIONAL is refused). Over the PSP's mutual TLS.
 */
import { PixApiClient } from '../../src/provider/pix-api/pix-api-client';
import { SandboxPspCobrHandlers } from '../../sandbox/src/psp/psp-cobr.handlers';
import { PspDevolucaoSettlement } from '../../sandbox/src/psp/psp-devolucao.settlement';
import { PspRequest } from '../../sandbox/src/psp/psp-http';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { recordExchanges } from '../support/pix-api-contract';
import { http, TestApp } from '../support/test-app';
import { advance, createRecurrence, day, newTenant, startPixApp } from './support';

const REC = 'RR0000000020261124devolucao01';

function req(over: Partial<PspRequest>): PspRequest {
  return { method: 'GET', path: '/', params: {}, query: new URLSearchParams(), body: undefined, clientId: 'sandbox-client', ...over };
}

describe('sandbox PSP: a Pix Automático payment given back', () => {
  let t: TestApp;
  let client: PixApiClient;
  let recorder: ReturnType<typeof recordExchanges>;
  const call = <T = any>(method: 'GET' | 'PUT', path: string, body?: unknown) =>
    client.call<T>({ operation: 'test', method, path, body, idempotent: false });

  beforeAll(async () => {
    t = await startPixApp({ env: { SANDBOX_ACQUIRER_TICK_MS: '60000' } });
    client = t.app.get(PixApiClient);
    recorder = recordExchanges(t.sandbox.get(SandboxPspServer));
  });
  afterAll(async () => {
    recorder?.stop();
    await t?.close();
  });

  it('the paid attempt is a received Pix; a devolução and a MED_PIX_AUTOMATICO give it back, never more than it', async () => {
    const ctx = await newTenant(t);
    const r = await createRecurrence(t, ctx, { firstDueDate: day(t, 60) });
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`)).status).toBe(200);
    await t.sql(`UPDATE sandbox_bank_recurrences SET id_rec = $2 WHERE recurrence_id = $1`, [r.recurrenceId, REC]);
    const txid = `DV${Date.now()}`.padEnd(32, 'X');
    const put = await t.sandbox.get(SandboxPspCobrHandlers).put(
      req({
        method: 'PUT',
        params: { txid },
        body: {
          idRec: REC,
          calendario: { dataDeVencimento: day(t, 2) },
          valor: { original: '7.00' },
          ajusteDiaUtil: false,
          recebedor: { conta: '1234567', tipoConta: 'CORRENTE', agencia: '0001' },
        },
      }),
    );
    expect(put.status).toBe(201);
    await advance(t, 2);
    const cobr = await call('GET', `/cobr/${txid}`);
    expect(cobr.status).toBe('CONCLUIDA');
    const e2e = cobr.tentativas.find((a: any) => a.status === 'PAGA').endToEndId;
    expect(await t.sql(`SELECT txid, amount_cents::int AS cents, origin FROM sandbox_psp_pix WHERE end_to_end_id = $1`, [e2e])).toEqual([
      { txid, cents: 700, origin: 'cobr' },
    ]);
    expect(await call('GET', `/pix/${e2e}`)).toMatchObject({ endToEndId: e2e, txid, valor: '7.00' });

    expect(await call('PUT', `/pix/${e2e}/devolucao/pa1`, { valor: '2.00' })).toMatchObject({ status: 'EM_PROCESSAMENTO' });
    await t.sandbox.get(PspDevolucaoSettlement).tick();
    const op = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '1.00', natureza: 'MED_OPERACIONAL' });
    expect([op.status, op.body.error]).toEqual([422, 'med_natureza_not_allowed']);
    const med = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '5.00', natureza: 'MED_PIX_AUTOMATICO' });
    expect(med.status).toBe(201);
    const over = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '0.01', natureza: 'MED_FRAUDE' });
    expect([over.status, over.body.error]).toEqual([409, 'devolucao_over_pix']);
    expect((await call('GET', `/pix/${e2e}`)).devolucoes.map((d: any) => [d.natureza, d.valor, d.status])).toEqual([
      ['ORIGINAL', '2.00', 'DEVOLVIDO'],
      ['MED_PIX_AUTOMATICO', '5.00', 'DEVOLVIDO'],
    ]);
  });

  it('every exchange conforms to API Pix 2.9.0', () => {
    expect(recorder.seen.some((x) => x.template === '/pix/{e2eid}/devolucao/{id}')).toBe(true);
    expect(recorder.violations()).toEqual([]);
  });
});
