/**
 * The sandbox PSP's cobr face over the sandbox bank's books (real PostgreSQL, the test clock):
 * PUT/PATCH/GET /cobr, GET /cobr by inicio/fim, retentativa, webhook registration and the
 * `{cobsr:[…]}` callbacks it POSTs when a cobr changes. The handlers are called as the PSP
 * server calls them (psp-core's HTTPS server mounts them).
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SandboxPspCobrHandlers } from '../../sandbox/src/psp/psp-cobr.handlers';
import { PspRequest } from '../../sandbox/src/psp/psp-http';
import { SandboxPspWebhookHandlers } from '../../sandbox/src/psp/psp-webhooks.handlers';
import { validateCallback, validateResponse } from '../support/pix-api-contract';
import { http, TestApp } from '../support/test-app';
import { advance, createRecurrence, day, newTenant, startPixApp } from './support';

const REC_R = 'RR0000000020261124abcdefghijk';
const REC_N = 'RN0000000020261124abcdefghijk';
let seq = 0;
const txid = () => `CB${Date.now()}${String(seq++).padStart(4, '0')}`.padEnd(32, 'X');

function req(over: Partial<PspRequest>): PspRequest {
  return { method: 'GET', path: '/', params: {}, query: new URLSearchParams(), body: undefined, clientId: 'sandbox-client', ...over };
}

describe('sandbox PSP: cobr and its callbacks', () => {
  let t: TestApp;
  let h: SandboxPspCobrHandlers;
  let receiver: Server;
  const callbacks: { path: string; body: any }[] = [];

  const nonConforming: string[] = [];
  /** Checks an answer against the standard's schema for the operation and status. */
  function conform<A extends { status: number; body?: unknown }>(method: string, template: string, a: A): A {
    const r = validateResponse(method, template, a.status, a.body);
    if (!r.valid) nonConforming.push(`${method} ${template} ${a.status}: ${r.errors.join('; ')}`);
    return a;
  }
  const seen = (tx: string) =>
    callbacks
      .filter((c) => c.path === '/hooks/cobr')
      .flatMap((c) => c.body.cobsr)
      .filter((c: any) => c.txid === tx);
  async function until(f: () => boolean) {
    for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 30));
    expect(f()).toBe(true);
  }
  const put = async (tx: string, over: Record<string, unknown> = {}) =>
    conform(
      'PUT',
      '/cobr/{txid}',
      await h.put(
        req({
          method: 'PUT',
          params: { txid: tx },
          body: {
            idRec: REC_R,
            calendario: { dataDeVencimento: day(t, 5) },
            valor: { original: '10.54' },
            ajusteDiaUtil: true,
            recebedor: { conta: '1234567', tipoConta: 'CORRENTE', agencia: '0001' },
            ...over,
          },
        }),
      ),
    );

  beforeAll(async () => {
    receiver = createServer((rq, rs) => {
      let text = '';
      rq.on('data', (c) => (text += c));
      rq.on('end', () => {
        callbacks.push({ path: rq.url!, body: JSON.parse(text) });
        rs.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    t = await startPixApp();
    h = t.sandbox.get(SandboxPspCobrHandlers);
    const ctx = await newTenant(t);
    for (const idRec of [REC_R, REC_N]) {
      const r = await createRecurrence(t, ctx, { firstDueDate: day(t, 60) });
      expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`)).status).toBe(200);
      // What psp-core's POST /rec records: the PSP's idRec of the recurrence (R: retries allowed, N: not).
      await t.sql(`UPDATE sandbox_bank_recurrences SET id_rec = $2 WHERE recurrence_id = $1`, [r.recurrenceId, idRec]);
    }
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const w = t.sandbox.get(SandboxPspWebhookHandlers);
    expect((await w.put('cobr', req({ method: 'PUT', body: { webhookUrl: hook } }))).status).toBe(200);
    expect((await w.put('cobr', req({ method: 'PUT', body: { webhookUrl: hook } }))).status).toBe(200);
    expect((await w.get('cobr', req({}))).body).toMatchObject({ webhookUrl: hook });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('refuses what the standard refuses, with its problem and violations', async () => {
    const bad = await h.put(req({ params: { txid: 'short' }, body: { idRec: 'x', valor: { original: '1' } } }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida', status: 400 });
    expect((bad.body as any).violacoes.map((v: any) => v.propriedade)).toEqual([
      'cobr.txid',
      'cobr.idRec',
      'cobr.calendario',
      'cobr.valor',
      'cobr.ajusteDiaUtil',
      'cobr.recebedor',
    ]);
    // Outside the Central Bank's window (2 to 10 days before the due date).
    expect((await put(txid(), { calendario: { dataDeVencimento: day(t, 1) } })).status).toBe(400);
    expect((await put(txid(), { calendario: { dataDeVencimento: day(t, 11) } })).status).toBe(400);
    const tx = txid();
    expect((await put(tx)).status).toBe(201);
    const again = await put(tx);
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain('encontra-se em uso');
    expect((await h.get(req({ params: { txid: 'Z'.repeat(30) } }))).status).toBe(404);
  });

  it('no balance on the due date, a retry asked, paid on the retry; each change called back', async () => {
    const tx = txid();
    const created = await put(tx);
    expect(created).toMatchObject({
      status: 201,
      body: { txid: tx, idRec: REC_R, status: 'CRIADA', politicaRetentativa: 'PERMITE_3R_7D', valor: { original: '10.54' } },
    });
    // (no callback for the receiver's own create: it has the answer)
    await advance(t, 1);
    await until(() => seen(tx).some((c: any) => c.status === 'ATIVA'));
    await advance(t, 4); // the due date: the scheduled attempt fails (.54)
    await until(() => seen(tx).some((c: any) => c.tentativas?.[0]?.status === 'REJEITADA'));
    const failed = conform('GET', '/cobr/{txid}', await h.get(req({ params: { txid: tx } }))).body as any;
    expect(failed.status).toBe('ATIVA');
    expect(failed.tentativas).toMatchObject([{ tipo: 'AGND', status: 'REJEITADA', rejeicao: { codigo: 'AM02' } }]);
    // The retry: not today, not twice.
    expect((await h.retry(req({ method: 'POST', params: { txid: tx, data: day(t, 0) } }))).status).toBe(400);
    const retry = conform(
      'POST',
      '/cobr/{txid}/retentativa/{data}',
      await h.retry(req({ method: 'POST', params: { txid: tx, data: day(t, 1) } })),
    );
    expect(retry).toMatchObject({
      status: 201,
      body: { tentativas: [{ tipo: 'AGND' }, { tipo: 'NTAG', status: 'AGENDADA', dataLiquidacao: day(t, 1) }] },
    });
    expect((await h.retry(req({ method: 'POST', params: { txid: tx, data: day(t, 2) } }))).status).toBe(400);
    await advance(t, 1);
    await until(() => seen(tx).some((c: any) => c.status === 'CONCLUIDA'));
    const done = conform('GET', '/cobr/{txid}', await h.get(req({ params: { txid: tx } }))).body as any;
    expect(done.atualizacao.map((a: any) => a.status)).toEqual(['CRIADA', 'ATIVA', 'CONCLUIDA']);
    expect(done.tentativas.map((a: any) => a.status)).toEqual(['REJEITADA', 'PAGA']);
  });

  it('without the retry policy (RN…) no balance rejects the cobr at once', async () => {
    const tx = txid();
    expect((await put(tx, { idRec: REC_N, valor: { original: '3.51' }, calendario: { dataDeVencimento: day(t, 2) } })).status).toBe(201);
    expect((await h.retry(req({ method: 'POST', params: { txid: tx, data: day(t, 3) } }))).status).toBe(400);
    await advance(t, 2);
    await until(() => seen(tx).some((c: any) => c.status === 'REJEITADA'));
    expect((await h.get(req({ params: { txid: tx } }))).body).toMatchObject({
      status: 'REJEITADA',
      encerramento: { rejeicao: { codigo: 'AM02' } },
    });
  });

  it('the receiver cancels before the first attempt, not on or after it', async () => {
    const a = txid();
    const b = txid();
    await put(a, { valor: { original: '5.00' } });
    // .54: the attempt on the due date fails and the cobr stays ATIVA, still open on that day.
    await put(b, { calendario: { dataDeVencimento: day(t, 2) } });
    const cancelled = conform(
      'PATCH',
      '/cobr/{txid}',
      await h.patch(req({ method: 'PATCH', params: { txid: a }, body: { status: 'CANCELADA' } })),
    );
    expect(cancelled).toMatchObject({
      status: 200,
      body: { status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR' } } },
    });
    expect((await h.patch(req({ method: 'PATCH', params: { txid: a }, body: { status: 'CANCELADA' } }))).status).toBe(200);
    await advance(t, 2);
    const late = await h.patch(req({ method: 'PATCH', params: { txid: b }, body: { status: 'CANCELADA' } }));
    expect(late.status).toBe(400);
    expect((late.body as any).detail).toContain('primeira tentativa');
    await until(() => seen(a).some((c: any) => c.status === 'CANCELADA'));
  });

  it('lists cobrs created between inicio and fim, in pages', async () => {
    const inicio = new Date(Date.now() - 400 * 86_400_000).toISOString();
    const fim = new Date(Date.now() + 400 * 86_400_000).toISOString();
    const page = conform(
      'GET',
      '/cobr',
      await h.list(req({ query: new URLSearchParams({ inicio, fim, 'paginacao.itensPorPagina': '2' }) })),
    );
    expect(page.status).toBe(200);
    const body = page.body as any;
    expect(body.cobsr).toHaveLength(2);
    expect(body.parametros.paginacao).toMatchObject({ paginaAtual: 0, itensPorPagina: 2 });
    expect(body.parametros.paginacao.quantidadeTotalDeItens).toBeGreaterThanOrEqual(5);
    const none = await h.list(req({ query: new URLSearchParams({ inicio: fim, fim: inicio }) }));
    expect(none).toMatchObject({ status: 400, body: { type: 'https://pix.bcb.gov.br/api/v2/error/CobRConsultaInvalida' } });
  });

  it('every answer checked and every callback posted conforms to the standard (API Pix 2.9.0 schemas)', () => {
    expect(callbacks.length).toBeGreaterThan(0);
    for (const c of callbacks) {
      const r = validateCallback('cobr', c.body);
      if (!r.valid) nonConforming.push(`callback ${JSON.stringify(c.body).slice(0, 200)}: ${r.errors.join('; ')}`);
    }
    expect(nonConforming).toEqual([]);
  });
});
