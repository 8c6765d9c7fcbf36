/**
 * BANK_PROVIDER=pix-api, the PSP's callbacks on the service side, against a stub PSP (node:https
 * with mutual TLS and OAuth2, test/support/stub-psp.ts: the PSP is outside the product). A callback is a trigger: the service reads
 * the cobr back (GET /cobr/{txid}) and applies that state through the provider-event handling,
 * so repeated and out-of-order callbacks change nothing twice; a failed attempt under
 * PERMITE_3R_7D makes it ask for a retry; reconciliation finds what a dropped callback left.
 */
import { PixApiCallbacks } from '../../src/provider/pix-api/pix-api-callbacks';
import { PixApiCobrApplier } from '../../src/provider/pix-api/pix-api-cobr-applier';
import { until } from '../provider/adyen-support';
import { PixApiReconciler } from '../../src/provider/pix-api/pix-api-reconciler';
import { PixApiWebhookRegistrar } from '../../src/provider/pix-api/pix-api-webhooks.registrar';
import { CreateAdHocBilling } from '../../src/pix-automatic/use-cases/create-ad-hoc-billing';
import { startStubPsp } from '../support/stub-psp';
import { http, TestApp } from '../support/test-app';
import { createRecurrence, day, newTenant, startPixApp, today } from './support';

const ID_REC = 'RR0000000020261124abcdefghijk';

interface Stub {
  url: string;
  env: Record<string, string>;
  cobrs: Map<string, Record<string, unknown>>;
  recs: Map<string, { status: string; contrato: string }>;
  calls: { method: string; path: string; body: unknown }[];
  close(): Promise<void>;
}

const problem = (status: number, name: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: { type: `https://pix.bcb.gov.br/api/v2/error/${name}`, title: name, status, ...extra },
});

async function stubPsp(): Promise<Stub> {
  const cobrs = new Map<string, Record<string, unknown>>();
  const calls: Stub['calls'] = [];
  const psp = await startStubPsp((req) => {
    calls.push({ method: req.method, path: req.path, body: req.body });
    let m: RegExpExecArray | null;
    if (req.method === 'PUT' && /^\/webhook(rec|cobr)$/.test(req.path)) return { status: 200 };
    if (req.method === 'GET' && req.path === '/cobr') {
      const all = [...cobrs.values()];
      return {
        status: 200,
        body: {
          parametros: {
            inicio: req.query.get('inicio'),
            fim: req.query.get('fim'),
            paginacao: { paginaAtual: 0, itensPorPagina: 1000, quantidadeDePaginas: 1, quantidadeTotalDeItens: all.length },
          },
          cobsr: all,
        },
      };
    }
    if ((m = /^\/cobr\/(\w+)\/retentativa\/([\d-]+)$/.exec(req.path)) && req.method === 'POST') {
      const c = cobrs.get(m[1])!;
      if ((c.tentativas as { dataLiquidacao: string }[]).some((x) => x.dataLiquidacao === m![2])) {
        return problem(400, 'CobROperacaoInvalida', {
          violacoes: [{ razao: 'Existe uma tentativa vigente para a data informada.', propriedade: 'data' }],
        });
      }
      c.tentativas = [
        ...(c.tentativas as object[]),
        { dataLiquidacao: m[2], tipo: 'NTAG', status: 'AGENDADA', endToEndId: 'E'.padEnd(32, '0'), atualizacao: [] },
      ];
      return { status: 201, body: c };
    }
    if ((m = /^\/cobr\/(\w+)$/.exec(req.path)) && req.method === 'PUT')
      return { status: 201, body: { ...req.body, txid: m[1], status: 'CRIADA' } };
    if ((m = /^\/cobr\/(\w+)$/.exec(req.path)) && req.method === 'GET') {
      const c = cobrs.get(m[1]);
      return c ? { status: 200, body: c } : problem(404, 'CobRNaoEncontrado');
    }
    return problem(404, 'NaoEncontrado');
  });
  return { ...psp, cobrs, calls };
}

function cobr(txid: string, status: string, over: Record<string, unknown> = {}) {
  return {
    idRec: ID_REC,
    txid,
    status,
    calendario: { dataDeVencimento: '2099-01-01' },
    politicaRetentativa: 'PERMITE_3R_7D',
    atualizacao: [{ status, data: new Date().toISOString() }],
    ...over,
  };
}

describe('pix-api: the PSP callbacks on the service side', () => {
  let t: TestApp;
  let psp: Stub;
  const tenantEvents = async (idTx: string) =>
    (await t.sql<{ type: string }>(`SELECT type FROM webhook_events WHERE id_tx = $1 ORDER BY created_at, type`, [idTx])).map(
      (r) => r.type,
    );

  beforeAll(async () => {
    psp = await stubPsp();
    t = await startPixApp({
      env: {
        BANK_PROVIDER: 'pix-api',
        ...psp.env,
        PIX_API_RECONCILE_INTERVAL_MS: '0',
        PIX_API_CALLBACK_MAX_ATTEMPTS: '3',
        PIX_API_CALLBACK_RETRY_BASE_MS: '100',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await psp?.close();
  });

  async function sentBilling(amount = 10) {
    const ctx = await newTenant(t, `T${Math.random()}`);
    const r = await createRecurrence(t, ctx);
    const [{ id_rec: idRec }] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [r.recurrenceId]);
    // The payer approves at their bank; the PSP calls back and the service reads the rec.
    psp.recs.get(idRec)!.status = 'APROVADA';
    expect((await http(t.url, 'POST', '/provider/pix-api/rec', { recs: [{ idRec, status: 'APROVADA', atualizacao: [] }] })).status).toBe(
      200,
    );
    await t.app.get(PixApiCallbacks).settle();
    expect((await t.sql(`SELECT status FROM pix_recurrences WHERE id = $1`, [r.recurrenceId]))[0].status).toBe('ACCEPTED');
    const b = await t.app
      .get(CreateAdHocBilling)
      .execute(ctx, { recurrenceId: r.recurrenceId, dueDate: day(t, 5), amount, currency: 'BRL' });
    expect(b.status).toBe('SENT');
    return b;
  }

  async function callback(txids: string[]) {
    const res = await http(t.url, 'POST', '/provider/pix-api/cobr', {
      cobsr: txids.map((txid) => ({ txid, idRec: ID_REC, status: 'ATIVA', atualizacao: [] })),
    });
    expect(res.status).toBe(200);
    await t.app.get(PixApiCallbacks).settle();
  }

  it('registers its callback URL at the PSP (PUT /webhookrec and /webhookcobr) at start-up', async () => {
    await t.app.get(PixApiWebhookRegistrar).register();
    // (the Pix charges' own registration, PUT /webhook/{chave}, is the links side's)
    const puts = psp.calls.filter((c) => c.method === 'PUT' && /^\/webhook(rec|cobr)$/.test(c.path));
    expect(puts.map((c) => c.path).sort()).toEqual(['/webhookcobr', '/webhookrec']);
    expect(puts[0].body).toEqual({ webhookUrl: `${t.url}/provider/pix-api` });
  });

  it('applies the state read back once: repeated and out-of-order callbacks change nothing twice', async () => {
    const b = await sentBilling();
    psp.cobrs.set(b.idTx, cobr(b.idTx, 'CONCLUIDA'));
    await callback([b.idTx, b.idTx]);
    await callback([b.idTx]);
    const row = async () => (await t.sql(`SELECT status FROM pix_billings WHERE id_tx = $1`, [b.idTx]))[0].status;
    expect(await row()).toBe('COMPLETED');
    // An older state arriving late (the PSP now answers ATIVA): nothing moves back.
    psp.cobrs.set(b.idTx, cobr(b.idTx, 'ATIVA'));
    await callback([b.idTx]);
    expect(await row()).toBe('COMPLETED');
    const told = (await tenantEvents(b.idTx)).filter((e) => e !== 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED');
    expect(told.sort()).toEqual(['PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE', 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED']);
  });

  it('a CANCELADA by the payer becomes CANCELLED_PAYER, and one by the receiver CANCELLED_RECEIVER', async () => {
    const a = await sentBilling();
    const b = await sentBilling();
    psp.cobrs.set(
      a.idTx,
      cobr(a.idTx, 'CANCELADA', { encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLBD', descricao: 'x' } } }),
    );
    psp.cobrs.set(
      b.idTx,
      cobr(b.idTx, 'CANCELADA', { encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'x' } } }),
    );
    await callback([a.idTx, b.idTx]);
    const st = await t.sql(`SELECT id_tx, status FROM pix_billings WHERE id_tx = ANY($1)`, [[a.idTx, b.idTx]]);
    expect(Object.fromEntries(st.map((r) => [r.id_tx, r.status]))).toEqual({ [a.idTx]: 'CANCELLED_PAYER', [b.idTx]: 'CANCELLED_RECEIVER' });
  });

  it('asks the PSP for a retry once when an attempt failed for lack of balance (PERMITE_3R_7D)', async () => {
    const b = await sentBilling(10.54);
    const due = today(t);
    psp.cobrs.set(
      b.idTx,
      cobr(b.idTx, 'ATIVA', {
        calendario: { dataDeVencimento: due },
        tentativas: [
          {
            dataLiquidacao: due,
            tipo: 'AGND',
            status: 'REJEITADA',
            endToEndId: 'E'.padEnd(32, '1'),
            atualizacao: [],
            rejeicao: { codigo: 'AM02', descricao: 'saldo' },
          },
        ],
      }),
    );
    await callback([b.idTx]);
    await callback([b.idTx]);
    const retries = psp.calls.filter((c) => c.method === 'POST' && c.path.startsWith(`/cobr/${b.idTx}/retentativa/`));
    expect(retries.map((c) => c.path)).toEqual([`/cobr/${b.idTx}/retentativa/${day(t, 1)}`]);
    expect((psp.cobrs.get(b.idTx)!.tentativas as object[]).length).toBe(2);
    expect((await t.sql(`SELECT status FROM pix_billings WHERE id_tx = $1`, [b.idTx]))[0].status).toBe('ACTIVE');
  });

  it("refuses a body that is not the standard's, and drops a cobr the PSP does not know", async () => {
    const bad = await http(t.url, 'POST', '/provider/pix-api/cobr', { cobsr: [{ txid: 'short' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_callback');
    expect((await http(t.url, 'POST', '/provider/pix-api/cobr', { pix: [] })).status).toBe(400);
    await callback(['X'.repeat(30)]);
    expect(
      await t.sql(`SELECT status, attempts, last_error FROM jobs WHERE kind = 'pix-api.cobr' AND key = $1`, [`cobr:${'X'.repeat(30)}`]),
    ).toEqual([{ status: 'done', attempts: 0, last_error: null }]);
  });

  it('reconciles by GET /cobr (inicio/fim) a billing whose callback never came', async () => {
    const b = await sentBilling();
    psp.cobrs.set(b.idTx, cobr(b.idTx, 'CONCLUIDA'));
    // Its due date has passed with no verdict on our side.
    await t.sql(`UPDATE pix_billings SET due_date = $2 WHERE id_tx = $1`, [b.idTx, day(t, -1)]);
    const queued = await t.app.get(PixApiReconciler).reconcile();
    expect(queued).toBeGreaterThanOrEqual(1);
    const list = psp.calls.filter((c) => c.method === 'GET' && c.path === '/cobr');
    expect(list.length).toBeGreaterThanOrEqual(1);
    await t.app.get(PixApiCallbacks).settle();
    expect((await t.sql(`SELECT status FROM pix_billings WHERE id_tx = $1`, [b.idTx]))[0].status).toBe('COMPLETED');
  });

  it('a callback whose application fails is retried, then dead, while later ones are applied; a replay applies it once', async () => {
    const bad = await sentBilling();
    const good = await sentBilling();
    psp.cobrs.set(bad.idTx, cobr(bad.idTx, 'CONCLUIDA'));
    psp.cobrs.set(good.idTx, cobr(good.idTx, 'CONCLUIDA'));
    const applier = t.app.get(PixApiCobrApplier);
    const original = applier.apply.bind(applier);
    let fault = true;
    let appliedBad = 0;
    const spy = jest.spyOn(applier, 'apply').mockImplementation(async (c) => {
      if (c.txid === bad.idTx) {
        if (fault) throw new Error('injected fault');
        appliedBad++;
      }
      return original(c);
    });
    const status = async (idTx: string) => (await t.sql(`SELECT status FROM pix_billings WHERE id_tx = $1`, [idTx]))[0].status;
    const job = async (idTx: string) =>
      (
        await t.sql(`SELECT id::text, status, attempts, last_error FROM jobs WHERE kind = 'pix-api.cobr' AND key = $1`, [`cobr:${idTx}`])
      )[0];
    const admin = { 'X-Admin-Key': t.adminKey };
    try {
      for (const b of [bad, good])
        expect((await http(t.url, 'POST', '/provider/pix-api/cobr', { cobsr: [{ txid: b.idTx, status: 'CONCLUIDA' }] })).status).toBe(200);
      expect(await until(async () => (await status(good.idTx)) === 'COMPLETED', 15_000)).toBe(true);
      const dead = await until(async () => ((await job(bad.idTx))?.status === 'dead' ? job(bad.idTx) : null), 15_000);
      expect(dead).toMatchObject({ attempts: 3, last_error: 'injected fault' });
      expect(await status(bad.idTx)).toBe('SENT');
      await until(async () => /job_queue_jobs\{kind="pix-api.cobr",status="dead"\} 1/.test((await http(t.url, 'GET', '/metrics')).text));
      const ready = await http(t.url, 'GET', '/health/ready', undefined, admin);
      expect(ready.body.details.jobQueue).toMatchObject({ degraded: true, dead: { 'pix-api.cobr': 1 } });
      const list = await http(t.url, 'GET', '/admin/jobs/dead?kind=pix-api.cobr', undefined, admin);
      expect(list.body.items).toEqual([expect.objectContaining({ id: dead.id, key: `cobr:${bad.idTx}`, status: 'dead' })]);

      fault = false;
      expect((await http(t.url, 'POST', `/admin/jobs/${dead.id}/replay`, undefined, admin)).status).toBe(200);
      expect(await until(async () => (await status(bad.idTx)) === 'COMPLETED', 15_000)).toBe(true);
      expect(await job(bad.idTx)).toMatchObject({ status: 'done' });
      expect(appliedBad).toBe(1);

      // the job is the entity's: a later callback runs a done one again (it reads the cobr back once more)
      const reads = () => psp.calls.filter((c) => c.method === 'GET' && c.path === `/cobr/${good.idTx}`).length;
      const before = reads();
      await callback([good.idTx]);
      expect(reads()).toBe(before + 1);
      expect(await job(good.idTx)).toMatchObject({ status: 'done', attempts: 0 });
    } finally {
      spy.mockRestore();
    }
  });
});
