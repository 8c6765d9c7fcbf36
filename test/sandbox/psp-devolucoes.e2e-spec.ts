import { PixApiClient, PixApiRejection } from '../../src/provider/pix-api/pix-api-client';
import { SANDBOX_PIX_KEY } from '../../src/provider/pix-api/pix-api.config';
import { PspDevolucaoSettlement } from '../../sandbox/src/psp/psp-devolucao.settlement';
import { SLOW_TICKS } from '../../sandbox/src/psp/psp-devolucao.view';
import { jsonCollector } from '../support/json-collector';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { recordExchanges, validateCallback } from '../support/pix-api-contract';
import { eventually } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';

/**
 * The sandbox PSP's devoluções over mutual TLS and OAuth2 as a client sees them (PUT/GET
 * /pix/{e2eid}/devolucao/{id}, the standard's PixDevolucaoInvalida rules, the test amounts, the
 * Pix's callback re-sent with its devoluções), MED injected by the control route, and payouts.
 * Every exchange and every callback is checked against API Pix 2.9.0.
 */
describe('sandbox PSP: devoluções, MED and payouts', () => {
  let t: TestApp;
  let client: PixApiClient;
  let recorder: ReturnType<typeof recordExchanges>;
  let hook: Awaited<ReturnType<typeof jsonCollector>>;
  const callbacks: { path: string; body: any }[] = [];
  let n = 0;

  const call = <T = any>(method: 'GET' | 'PUT', path: string, body?: unknown, query?: Record<string, string>) =>
    client.call<T>({ operation: 'test', method, path, body, query, idempotent: false });
  const refused = async (p: Promise<unknown>) => {
    const e: any = await p.then(
      () => null,
      (x) => x,
    );
    expect(e).toBeInstanceOf(PixApiRejection);
    return { status: e.problem.status, name: e.problemName, props: (e.problem.violacoes ?? []).map((v: any) => v.propriedade) };
  };
  const tick = () => t.sandbox.get(PspDevolucaoSettlement).tick();
  const devolucao = (e2e: string, id: string, body?: unknown) => call('PUT', `/pix/${e2e}/devolucao/${id}`, body);
  const callbacksOf = (e2e: string) => callbacks.filter((c) => c.body.pix?.some((p: any) => p.endToEndId === e2e));

  /** A Pix of `valor` received by the sandbox PSP: a cob, paid from the sandbox bank; its endToEndId. */
  async function receivedPix(valor = '100.00'): Promise<{ e2e: string; txid: string }> {
    const txid = `DEV${String(++n).padStart(4, '0')}${Date.now().toString(36)}`.padEnd(30, '0');
    await call('PUT', `/cob/${txid}`, { calendario: { expiracao: 600 }, valor: { original: valor }, chave: SANDBOX_PIX_KEY });
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${txid}/pay`)).status).toBe(200);
    const cob = await call('GET', `/cob/${txid}`);
    expect(cob.pix).toHaveLength(1);
    return { e2e: cob.pix[0].endToEndId, txid };
  }

  beforeAll(async () => {
    hook = await jsonCollector((path, body) => void callbacks.push({ path, body }));
    t = await startTestApp({
      env: {
        BANK_PROVIDER: 'pix-api',
        PIX_API_WEBHOOK_URL: `${hook.url}/hook`,
        // the test drives the PSP's ticks itself
        SANDBOX_ACQUIRER_TICK_MS: '60000',
        SANDBOX_BANK_TICK_MS: '0',
        BILLING_ENGINE_INTERVAL_MS: '0',
      },
    });
    recorder = recordExchanges(t.sandbox.get(SandboxPspServer));
    client = t.app.get(PixApiClient);
    await eventually(async () => (await t.sql(`SELECT 1 FROM sandbox_psp_pix_webhooks`)).length > 0, 10_000);
  });
  afterAll(async () => {
    recorder?.stop();
    await t?.close();
    await hook.close();
  });

  it('a devolução: 201 EM_PROCESSAMENTO, the same PUT again answers it, one tick → DEVOLVIDO, the Pix re-sent with it', async () => {
    const { e2e, txid } = await receivedPix('100.00');
    const body = { valor: '10.00', natureza: 'ORIGINAL', descricao: 'Devolução do pedido 1' };
    const made = await devolucao(e2e, 'dev1', body);
    expect(made).toEqual({
      id: 'dev1',
      rtrId: expect.stringMatching(/^D99999999\d{12}[a-z0-9]{11}$/),
      valor: '10.00',
      natureza: 'ORIGINAL',
      descricao: 'Devolução do pedido 1',
      horario: { solicitacao: expect.any(String) },
      status: 'EM_PROCESSAMENTO',
    });
    expect(await devolucao(e2e, 'dev1', body)).toEqual(made); // idempotent
    expect(await call('GET', `/pix/${e2e}/devolucao/dev1`)).toEqual(made);
    const before = callbacksOf(e2e).length;

    expect(await tick()).toBe(1);
    const done = await call('GET', `/pix/${e2e}/devolucao/dev1`);
    expect(done).toMatchObject({ rtrId: made.rtrId, status: 'DEVOLVIDO', horario: { solicitacao: made.horario.solicitacao } });
    expect(Date.parse(done.horario.liquidacao)).toBeGreaterThanOrEqual(Date.parse(done.horario.solicitacao));
    expect(await devolucao(e2e, 'dev1', body)).toEqual(done); // still the same devolução, as it is now

    await eventually(async () => callbacksOf(e2e).length > before, 5000);
    const cb = callbacksOf(e2e).at(-1)!;
    expect(cb.path).toBe('/hook/pix');
    expect(validateCallback('pix', cb.body)).toEqual({ valid: true, errors: [] });
    expect(cb.body.pix[0]).toMatchObject({ endToEndId: e2e, txid, valor: '100.00', devolucoes: [done] });

    // the received Pix lists it everywhere
    expect((await call('GET', `/pix/${e2e}`)).devolucoes).toEqual([done]);
    expect((await call('GET', `/cob/${txid}`)).pix[0].devolucoes).toEqual([done]);
    const window = { inicio: new Date(Date.now() - 3600_000).toISOString(), fim: new Date(Date.now() + 3600_000).toISOString() };
    const withDev = await call('GET', '/pix', undefined, { ...window, devolucaoPresente: 'true' });
    expect(withDev.pix.map((p: any) => p.endToEndId)).toContain(e2e);
    expect(withDev.pix.every((p: any) => p.devolucoes?.length)).toBe(true);
    const without = await call('GET', '/pix', undefined, { ...window, devolucaoPresente: 'false' });
    expect(without.pix.map((p: any) => p.endToEndId)).not.toContain(e2e);
  });

  it('the three rules: the sum over the Pix, an id already used with another body, the 90-day window (400 PixDevolucaoInvalida)', async () => {
    const { e2e } = await receivedPix('30.00');
    await devolucao(e2e, 'a1', { valor: '20.00' });
    expect(await refused(devolucao(e2e, 'a2', { valor: '10.01' }))).toEqual({
      status: 400,
      name: 'PixDevolucaoInvalida',
      props: ['devolucao.valor'],
    });
    expect((await devolucao(e2e, 'a2', { valor: '10.00' })).status).toBe('EM_PROCESSAMENTO'); // exactly what is left
    expect(await refused(devolucao(e2e, 'a1', { valor: '19.00' }))).toEqual({ status: 400, name: 'PixDevolucaoInvalida', props: ['id'] });
    expect(await refused(devolucao(e2e, 'a1', { valor: '20.00', descricao: 'outra' }))).toMatchObject({ props: ['id'] });
    // the id is the client's per e2eid: another Pix may use it
    const other = await receivedPix('5.00');
    expect((await devolucao(other.e2e, 'a1', { valor: '1.00' })).id).toBe('a1');

    // 90 days since the Pix settled
    const old = await receivedPix('50.00');
    await t.sql(`UPDATE sandbox_psp_pix SET paid_at = paid_at - interval '90 days 1 minute' WHERE end_to_end_id = $1`, [old.e2e]);
    expect(await refused(devolucao(old.e2e, 'late', { valor: '1.00' }))).toEqual({
      status: 400,
      name: 'PixDevolucaoInvalida',
      props: ['e2eid'],
    });
    await t.sql(`UPDATE sandbox_psp_pix SET paid_at = paid_at + interval '2 minutes' WHERE end_to_end_id = $1`, [old.e2e]);
    expect((await devolucao(old.e2e, 'late', { valor: '1.00' })).status).toBe('EM_PROCESSAMENTO');
  });

  it('refuses what the schema does not allow, and answers 404 for a Pix or a devolução it does not have', async () => {
    const { e2e } = await receivedPix('10.00');
    const props = async (id: string, body: unknown) => (await refused(devolucao(e2e, id, body))).props;
    expect(await props('s1', { valor: '0.00' })).toEqual(['devolucao.valor']);
    expect(await props('s1', { valor: '1.5' })).toEqual(['devolucao.valor']);
    expect(await props('s1', { valor: '1.00', natureza: 'MED_FRAUDE' })).toEqual(['devolucao.natureza']);
    expect(await props('s1', { valor: '1.00', descricao: 'x'.repeat(141) })).toEqual(['devolucao.descricao']);
    expect(await props('s1', {})).toEqual(['devolucao.valor']);
    expect(await props('way-too-long-and-with-dashes', { valor: '1.00' })).toEqual(['id']);
    expect(await props('s1', { valor: '1.00', natureza: 'RETIRADA' })).toEqual(['devolucao.natureza']); // not a Pix Saque/Troco
    expect(await refused(devolucao('E00000000202601010000aaaaaaaaaaa', 's1', { valor: '1.00' }))).toMatchObject({
      status: 404,
      name: 'PixNaoEncontrado',
    });
    expect(await refused(call('GET', `/pix/${e2e}/devolucao/nope`))).toMatchObject({ status: 404, name: 'PixDevolucaoNaoEncontrada' });
    expect(await t.sql(`SELECT 1 FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1`, [e2e])).toEqual([]);
  });

  it('test data: …13 ends NAO_REALIZADO with a motivo (and frees its valor); …16 stays EM_PROCESSAMENTO for its ticks', async () => {
    const { e2e } = await receivedPix('20.00');
    await devolucao(e2e, 'fail', { valor: '15.13' });
    await devolucao(e2e, 'slow', { valor: '0.16' });
    await tick();
    expect(await call('GET', `/pix/${e2e}/devolucao/fail`)).toMatchObject({
      status: 'NAO_REALIZADO',
      motivo: 'Conta do pagador encerrada',
    });
    expect((await call('GET', `/pix/${e2e}/devolucao/fail`)).horario.liquidacao).toBeUndefined();
    await eventually(
      async () => callbacksOf(e2e).some((c) => c.body.pix[0].devolucoes?.some((d: any) => d.status === 'NAO_REALIZADO')),
      5000,
    );
    for (const c of callbacksOf(e2e)) expect(validateCallback('pix', c.body)).toEqual({ valid: true, errors: [] });
    // what was not given back can be asked for again
    expect((await devolucao(e2e, 'again', { valor: '19.84' })).status).toBe('EM_PROCESSAMENTO');

    // the first tick above was the slow one's first
    for (let i = 2; i < SLOW_TICKS; i++) {
      await tick();
      expect((await call('GET', `/pix/${e2e}/devolucao/slow`)).status).toBe('EM_PROCESSAMENTO');
    }
    await tick();
    expect((await call('GET', `/pix/${e2e}/devolucao/slow`)).status).toBe('DEVOLVIDO');
    const slowIn = (c: { body: any }) => c.body.pix[0].devolucoes?.find((d: any) => d.id === 'slow')?.status;
    await eventually(async () => callbacksOf(e2e).some((c) => slowIn(c) === 'DEVOLVIDO'), 5000);
  });

  it('racing devoluções on one Pix never give back more than it received', async () => {
    const { e2e } = await receivedPix('100.00');
    const answers = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => devolucao(e2e, `race${i}`, { valor: '20.00' })));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(5);
    const [sum] = await t.sql(`SELECT sum(amount_cents)::int AS cents FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1`, [e2e]);
    expect(sum.cents).toBe(10000);
  });

  it('MED: a devolução the receiver did not ask for, DEVOLVIDO at once, sent in the Pix callback; it counts against the Pix', async () => {
    const { e2e } = await receivedPix('40.00');
    const r = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, {
      valor: '25.00',
      natureza: 'MED_FRAUDE',
      descricao: 'Fraude',
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^MED[A-Z0-9]{29}$/),
      rtrId: expect.stringMatching(/^D99999999/),
      valor: '25.00',
      natureza: 'MED_FRAUDE',
      descricao: 'Fraude',
      horario: { solicitacao: expect.any(String), liquidacao: expect.any(String) },
      status: 'DEVOLVIDO',
    });
    await eventually(async () => callbacksOf(e2e).some((c) => c.body.pix[0].devolucoes?.[0]?.id === r.body.id), 5000);
    const cb = callbacksOf(e2e).find((c) => c.body.pix[0].devolucoes?.[0]?.id === r.body.id)!;
    expect(validateCallback('pix', cb.body)).toEqual({ valid: true, errors: [] });
    expect(await call('GET', `/pix/${e2e}/devolucao/${r.body.id}`)).toEqual(r.body);

    expect(await refused(devolucao(e2e, 'after', { valor: '15.01' }))).toMatchObject({ props: ['devolucao.valor'] });
    const over = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '15.01', natureza: 'MED_OPERACIONAL' });
    expect([over.status, over.body.error]).toEqual([409, 'devolucao_over_pix']);
    const auto = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '1.00', natureza: 'MED_PIX_AUTOMATICO' });
    expect([auto.status, auto.body.error]).toEqual([422, 'med_natureza_not_allowed']); // not a Pix Automático payment
    const none = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/E00000000202601010000aaaaaaaaaaa/med`, {
      valor: '1.00',
      natureza: 'MED_FRAUDE',
    });
    expect([none.status, none.body.error]).toEqual([404, 'sandbox_pix_not_found']);
    for (const bad of [
      { valor: '1.00', natureza: 'ORIGINAL' },
      { valor: '0.00', natureza: 'MED_FRAUDE' },
      { valor: 1, natureza: 'MED_FRAUDE' },
    ]) {
      expect((await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, bad)).status).toBe(400);
    }
  });

  it('MED on a Pix Automático payment: MED_PIX_AUTOMATICO, its Pix read back with it', async () => {
    const { e2e } = await receivedPix('12.00');
    await t.sql(`UPDATE sandbox_psp_pix SET origin = 'cobr' WHERE end_to_end_id = $1`, [e2e]);
    const r = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '12.00', natureza: 'MED_PIX_AUTOMATICO' });
    expect(r.status).toBe(201);
    const op = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '0.01', natureza: 'MED_OPERACIONAL' });
    expect(op.status).toBe(422);
    expect((await call('GET', `/pix/${e2e}`)).devolucoes).toEqual([r.body]);
  });

  it('payouts: a Pix the merchant sends (sandbox only), answered with its endToEndId and read back by it', async () => {
    const toKey = await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', {
      valor: '80.00',
      chave: 'payer1@example.com',
      descricao: 'Reembolso',
    });
    expect(toKey.status).toBe(201);
    expect(toKey.body).toEqual({
      endToEndId: expect.stringMatching(/^E99999999\d{12}[a-z0-9]{11}$/),
      valor: '80.00',
      chave: 'payer1@example.com',
      descricao: 'Reembolso',
      status: 'REALIZADO',
      horario: expect.any(String),
    });
    expect((await http(t.sandboxUrl, 'GET', `/sandbox/psp/payouts/${toKey.body.endToEndId}`)).body).toEqual(toKey.body);
    const account = { ispb: '99999999', agencia: '0001', conta: '123456', tipoConta: 'CACC', cpf: '52998224725', nome: 'Payer 1' };
    const toAccount = await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', { valor: '1.00', account });
    expect([toAccount.status, toAccount.body.account]).toEqual([201, account]);
    expect((await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', { valor: '1.00', chave: 'k', account })).body.error).toBe(
      'payout_invalid',
    );
    expect((await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', { valor: '1.00' })).body.error).toBe('payout_invalid');
    expect((await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', { valor: '0.00', chave: 'k' })).status).toBe(400);
    expect((await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', { valor: '1', chave: 'k' })).status).toBe(400);
    expect((await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', { valor: '1.00', account: { ...account, ispb: 'x' } })).status).toBe(
      400,
    );
    const missing = await http(t.sandboxUrl, 'GET', '/sandbox/psp/payouts/E00000000202601010000aaaaaaaaaaa');
    expect([missing.status, missing.body.error]).toEqual([404, 'payout_not_found']);
  });

  it('every exchange conforms to API Pix 2.9.0', () => {
    expect(recorder.seen.filter((x) => x.template === '/pix/{e2eid}/devolucao/{id}').length).toBeGreaterThan(20);
    expect(recorder.violations()).toEqual([]);
  });
});
