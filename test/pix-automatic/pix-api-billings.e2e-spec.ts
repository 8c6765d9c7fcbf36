/**
 * BANK_PROVIDER=pix-api: the engine sends each billing with `PUT /cobr/{txid}` inside the send
 * window, against a stub PSP (node:https with mutual TLS
 * and OAuth2, test/support/stub-psp.ts: the PSP is outside the product). A 4xx
 * is never retried and its problem is visible on the billing; a PSP that is down leaves the
 * billing waiting, and it goes out when the PSP returns within the window; once the window has
 * closed it is not sent late.
 */
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { CreateAdHocBilling } from '../../src/pix-automatic/use-cases/create-ad-hoc-billing';
import { CancelBilling } from '../../src/pix-automatic/use-cases/cancel-billing';
import { ListBillings } from '../../src/pix-automatic/use-cases/list-billings';
import { PixApiCallbacks } from '../../src/provider/pix-api/pix-api-callbacks';
import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';
import { validateRequest } from '../support/pix-api-contract';
import { startStubPsp } from '../support/stub-psp';
import { http, TestApp } from '../support/test-app';
import { advance, businessDay, createRecurrence, day, newTenant, startPixApp } from './support';

const ID_REC = 'RR0000000020261124abcdefghijk';

interface Stub {
  url: string;
  env: Record<string, string>;
  mode: Map<string, 'ok' | 'down' | 'reject'>;
  /** By `valor.original`. */
  modeByValue: Map<string, 'ok' | 'down' | 'reject'>;
  defaultMode: 'ok' | 'down' | 'reject';
  /** How long an accepted PUT /cobr takes to be answered. */
  putDelayMs: number;
  puts: { txid: string; body: any }[];
  patches: string[];
  recs: Map<string, { status: string; contrato: string }>;
  close(): Promise<void>;
}

async function stubPsp(): Promise<Stub> {
  const stub = { mode: new Map(), modeByValue: new Map(), defaultMode: 'ok', putDelayMs: 0, puts: [], patches: [] } as unknown as Stub;
  const psp = await startStubPsp((req) => {
    const m = /^\/cobr\/(\w+)$/.exec(req.path);
    const body = req.body;
    if (!m) return { status: 200 };
    if (req.method === 'PATCH') {
      stub.patches.push(m[1]);
      return {
        status: 200,
        body: { txid: m[1], idRec: ID_REC, status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR' } } },
      };
    }
    const mode = stub.mode.get(m[1]) ?? stub.modeByValue.get(body?.valor?.original) ?? stub.defaultMode;
    if (mode === 'down')
      return {
        status: 503,
        body: { type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', title: 'Serviço indisponível', status: 503 },
      };
    stub.puts.push({ txid: m[1], body });
    if (mode === 'reject') {
      return {
        status: 400,
        body: {
          type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida',
          title: 'Cobrança inválida.',
          status: 400,
          detail: 'A cobrança não respeita o schema.',
          violacoes: [{ razao: 'O objeto cobr.recebedor não respeita o schema.', propriedade: 'cobr.recebedor' }],
        },
      };
    }
    const created = {
      status: 201,
      body: { ...body, txid: m[1], status: 'CRIADA', calendario: { ...body.calendario, criacao: '2026-01-01' } },
    };
    return stub.putDelayMs ? new Promise<typeof created>((r) => setTimeout(() => r(created), stub.putDelayMs)) : created;
  });
  return Object.assign(stub, psp);
}

describe('pix-api: billings through PUT /cobr inside the send window', () => {
  let t: TestApp;
  let psp: Stub;
  let ctx: TenantContext;
  const billings = (rid: string) =>
    t.sql(
      `SELECT id, id_tx, status, send_attempts, next_attempt_at, last_error, due_date::text AS due FROM pix_billings WHERE recurrence_id = $1 ORDER BY due_date`,
      [rid],
    );

  async function authorized(over: Record<string, unknown> = {}) {
    const r = await createRecurrence(t, ctx, over);
    const [{ id_rec: idRec }] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [r.recurrenceId]);
    // The payer approves at their bank; the PSP calls back and the service reads the rec.
    psp.recs.get(idRec)!.status = 'APROVADA';
    expect((await http(t.url, 'POST', '/provider/pix-api/rec', { recs: [{ idRec, status: 'APROVADA', atualizacao: [] }] })).status).toBe(
      200,
    );
    await t.app.get(PixApiCallbacks).settle();
    expect((await t.sql(`SELECT status FROM pix_recurrences WHERE id = $1`, [r.recurrenceId]))[0].status).toBe('ACCEPTED');
    return r.recurrenceId;
  }

  beforeAll(async () => {
    psp = await stubPsp();
    t = await startPixApp({
      env: { BANK_PROVIDER: 'pix-api', ...psp.env, PIX_API_RECONCILE_INTERVAL_MS: '0', PIX_API_RECEIVER_ACCOUNT: '0001/7654321/CORRENTE' },
    });
    ctx = await newTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    await psp?.close();
  });

  it('sends one PUT /cobr per billing, txid = idTx, on its send date; a 4xx is kept on the billing and never retried', async () => {
    // A business day, so that MOVE_FORWARD_NEXT_BUSINESS_DAY keeps it and both send on one day.
    const due = businessDay(t, 10);
    const ok = await authorized({ firstDueDate: due.date, amount: 49.9, dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY' });
    const bad = await authorized({ firstDueDate: due.date, amount: 12 });
    await advance(t, due.offset - 4);
    expect(psp.puts).toHaveLength(0);
    psp.defaultMode = 'ok';
    const [b0] = await billings(bad);
    expect(b0).toBeUndefined();
    await advance(t, 1); // due − 3 days (BILLING_LEAD_DAYS)
    const [okB] = await billings(ok);
    const [badB0] = await billings(bad);
    expect(okB.status).toBe('SENT');
    const put = psp.puts.find((p) => p.txid === okB.id_tx)!;
    expect(put.body).toEqual({
      idRec: (await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [ok]))[0].id_rec,
      calendario: { dataDeVencimento: okB.due },
      valor: { original: '49.90' },
      ajusteDiaUtil: true,
      recebedor: { agencia: '0001', conta: '7654321', tipoConta: 'CORRENTE' },
    });
    expect(psp.puts.find((p) => p.txid === badB0.id_tx)!.body.ajusteDiaUtil).toBe(false);
    // Every request the adapter sent is the standard's CobRSolicitada.
    for (const p of psp.puts) expect(validateRequest('PUT', '/cobr/{txid}', p.body).errors).toEqual([]);
    expect(badB0.status).toBe('SENT');
  });

  it('a PSP refusal (4xx): SEND_FAILED with the problem on the billing, no retry', async () => {
    const rid = await authorized({ firstDueDate: day(t, 10), amount: 13 });
    psp.defaultMode = 'reject';
    await advance(t, 7);
    psp.defaultMode = 'ok';
    const [b] = await billings(rid);
    expect(b).toMatchObject({ status: 'SEND_FAILED', send_attempts: 1, next_attempt_at: null });
    expect(b.last_error).toContain('CobROperacaoInvalida');
    expect(b.last_error).toContain('O objeto cobr.recebedor não respeita o schema. (cobr.recebedor)');
    // The tenant sees why on the billing.
    const page = await t.app.get(ListBillings).execute(ctx, rid, { limit: 10, offset: 0 } as any);
    expect(page.items[0]).toMatchObject({ status: 'SEND_FAILED', lastError: b.last_error });
    const before = psp.puts.filter((p) => p.txid === b.id_tx).length;
    await advance(t, 1);
    expect(psp.puts.filter((p) => p.txid === b.id_tx).length).toBe(before);
  });

  jest.setTimeout(60_000);

  it('PSP down: the breaker opens, billings wait and go out when the PSP is back within the window', async () => {
    const one = await authorized({ firstDueDate: day(t, 10), amount: 14 });
    const two = await authorized({ firstDueDate: day(t, 10), amount: 15 });
    psp.defaultMode = 'down';
    await advance(t, 7);
    for (const rid of [one, two]) {
      const [w] = await billings(rid);
      expect(w.status).toBe('SEND_FAILED');
      expect(w.next_attempt_at).not.toBeNull();
      expect(w.last_error).toContain('provider unavailable');
    }
    // The sends failed with their retries: the operation's breaker is open, later calls fail fast.
    expect(t.app.get(BreakerRegistry).states()['psp.putCobr']).toBe('open');
    psp.defaultMode = 'ok';
    // Back, but slower than the client's retries (PROVIDER_RETRY_DELAYS_MS 20,20,20): the billing
    // refused while the other is the half-open breaker's trial waits for that trial, not its backoff.
    psp.putDelayMs = 300;
    await new Promise((r) => setTimeout(r, 10_500)); // the breaker half-opens (BreakerRegistry's 10 s)
    await advance(t, 1);
    psp.putDelayMs = 0;
    expect(await billings(one)).toMatchObject([{ status: 'SENT' }]);
    expect(await billings(two)).toMatchObject([{ status: 'SENT' }]);
  });

  it('an ad hoc billing due beyond 10 days waits for its window; a cancel is a PATCH /cobr', async () => {
    const rid = await authorized({ firstDueDate: day(t, 60), amount: 16 });
    const b = await t.app.get(CreateAdHocBilling).execute(ctx, { recurrenceId: rid, dueDate: day(t, 15), amount: 20, currency: 'BRL' });
    expect(b.status).toBe('PENDING_SEND');
    expect(psp.puts.some((p) => p.txid === b.idTx)).toBe(false);
    await advance(t, 5); // due − 10 days
    expect((await billings(rid))[0].status).toBe('SENT');
    const c = await t.app.get(CancelBilling).execute(ctx, b.id);
    expect(c.status).toBe('CANCELLED_RECEIVER');
    expect(psp.patches).toContain(b.idTx);
  });

  it('a billing the PSP could not take until its last send day (due − 2) is never sent late', async () => {
    const rid = await authorized({ firstDueDate: day(t, 10), amount: 17 });
    psp.modeByValue.set('17.00', 'down');
    await advance(t, 7); // due − 3
    await advance(t, 1); // due − 2: the last send day, still down
    expect((await billings(rid))[0].status).toBe('SEND_FAILED');
    psp.modeByValue.delete('17.00');
    await advance(t, 1); // due − 1: the PSP is back, the window is not
    const [closed] = await billings(rid);
    expect(closed).toMatchObject({ status: 'SEND_FAILED', next_attempt_at: null });
    expect(closed.last_error).toContain('send window closed');
    expect(psp.puts.some((p) => p.body.valor.original === '17.00')).toBe(false);
  });
});
