/**
 * The whole Pix Automático story on BANK_PROVIDER=pix-api against the sandbox PSP: real
 * PostgreSQL, real HTTPS with mutual TLS and OAuth2, the PSP's callbacks to the service, the test
 * clock. Billings over a simulated year, no balance then a retry, the payer cancels, the receiver
 * cancels; every exchange with the PSP and every callback valid against API Pix 2.9.0; repeated
 * and stale callbacks change nothing twice.
 */
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { CancelRecurrence } from '../../src/pix-automatic/use-cases/cancel-recurrence';
import { SandboxPspCallbacks } from '../../sandbox/src/psp/psp-cobr.events';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { recordExchanges, validateCallback } from '../support/pix-api-contract';
import { http, TestApp } from '../support/test-app';
import { advance, createRecurrence, day, newTenant, settled, startPixApp } from './support';

describe('Pix Automático on API Pix, end to end against the sandbox PSP', () => {
  let t: TestApp;
  let ctx: TenantContext;
  let exchanges: ReturnType<typeof recordExchanges>;
  const callbacks: { kind: 'rec' | 'cobr'; body: unknown }[] = [];

  async function days(n: number) {
    for (let i = 0; i < n; i++) {
      await advance(t, 1);
      await settled(t);
    }
  }
  const billings = (rid: string) =>
    t.sql(`SELECT id_tx, status, due_date::text AS due FROM pix_billings WHERE recurrence_id = $1 ORDER BY due_date`, [rid]);
  const recStatus = async (rid: string) => (await t.sql(`SELECT status FROM pix_recurrences WHERE id = $1`, [rid]))[0].status;

  async function authorized(over: Record<string, unknown>) {
    const r = await createRecurrence(t, ctx, { dayAdjustment: 'KEEP_DUE_DATE', ...over });
    const [{ id_rec: idRec }] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [r.recurrenceId]);
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/bank/authorize/${idRec}`, { decision: 'approve' })).status).toBe(200);
    await settled(t);
    expect(await recStatus(r.recurrenceId)).toBe('ACCEPTED'); // from the rec callback, read back by GET /rec
    return { rid: r.recurrenceId, idRec };
  }

  beforeAll(async () => {
    t = await startPixApp({ env: { BANK_PROVIDER: 'pix-api', PIX_API_RECONCILE_INTERVAL_MS: '0' } });
    ctx = await newTenant(t);
    const psp = t.sandbox.get(SandboxPspServer);
    exchanges = recordExchanges(psp);
    // Every callback the sandbox PSP posts, as it goes out.
    const sender = t.sandbox.get(SandboxPspCallbacks) as unknown as {
      post: (url: string, kind: 'rec' | 'cobr', body: unknown) => Promise<boolean>;
    };
    const post = sender.post.bind(sender);
    sender.post = (url, kind, body) => {
      callbacks.push({ kind, body });
      return post(url, kind, body);
    };
  });
  afterAll(() => t?.close());

  jest.setTimeout(240_000);

  it('a year of monthly billings, one no-balance retried and paid, a payer cancel and a receiver cancel', async () => {
    const year = await authorized({ firstDueDate: day(t, 12), expirationDate: day(t, 12 + 340), amount: 49.9 });
    const retry = await authorized({ firstDueDate: day(t, 12), amount: 10.54 });
    const payer = await authorized({ firstDueDate: day(t, 12), amount: 20 });
    const receiver = await authorized({ firstDueDate: day(t, 40), amount: 30 });

    await days(9); // due − 3: the first billings go out (PUT /cobr); the PSP's day run activates them, the callbacks say ATIVA
    for (const r of [year, retry, payer]) expect((await billings(r.rid)).map((b) => b.status)).toEqual(['ACTIVE']);
    expect(exchanges.seen.filter((x) => x.method === 'PUT' && x.template === '/cobr/{txid}').map((x) => x.status)).toEqual([201, 201, 201]);
    await days(1);

    // The payer cancels the automatic debit in their bank app before the due date.
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${payer.idRec}/cancel`)).status).toBe(200);
    await settled(t);
    expect(await recStatus(payer.rid)).toBe('CANCELLED_PAYER');
    expect((await billings(payer.rid)).map((b) => b.status)).toEqual(['CANCELLED_PAYER']);

    await days(2); // the due date: paid; .54 fails for lack of balance and the service asks a retry
    expect((await billings(year.rid))[0].status).toBe('COMPLETED');
    expect((await billings(retry.rid))[0].status).toBe('ACTIVE');
    await days(1); // the retry is paid
    expect((await billings(retry.rid))[0].status).toBe('COMPLETED');
    const retried = exchanges.seen.filter((x) => x.template === '/cobr/{txid}/retentativa/{data}');
    expect(retried.map((x) => x.status)).toEqual([201]);

    // The receiver cancels the other recurrence (PATCH /rec), before and after its first billing went out.
    await days(24); // its send date (due day 40 − 3)
    expect((await billings(receiver.rid)).map((b) => b.status)).toEqual(['ACTIVE']);
    await t.app.get(CancelRecurrence).execute(ctx, receiver.rid);
    await settled(t);
    expect(await recStatus(receiver.rid)).toBe('CANCELLED_RECEIVER');
    expect((await billings(receiver.rid)).map((b) => b.status)).toEqual(['CANCELLED_RECEIVER']);

    // The rest of the year.
    await days(320);
    const all = await billings(year.rid);
    expect(all.length).toBe(12);
    expect(all.every((b) => b.status === 'COMPLETED')).toBe(true);
    expect(await recStatus(year.rid)).toBe('EXPIRED'); // its term ended
    const tenantEvents = await t.sql(`SELECT type, count(*)::int AS n FROM webhook_events WHERE id_tx = ANY($1) GROUP BY type`, [
      all.map((b) => b.id_tx),
    ]);
    expect(Object.fromEntries(tenantEvents.map((e) => [e.type, e.n]))).toEqual({
      PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED: 12,
      PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE: 12,
      PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED: 12,
    });
  });

  it('repeated and stale callbacks change nothing twice', async () => {
    const [done] = (await t.sql(`SELECT id_tx FROM pix_billings WHERE status = 'COMPLETED' LIMIT 1`)) as { id_tx: string }[];
    const before = await t.sql(`SELECT count(*)::int AS n FROM webhook_events`);
    const stale = { cobsr: [{ txid: done.id_tx, idRec: 'RR99999008000000000000000000', status: 'ATIVA', atualizacao: [] }] };
    for (let i = 0; i < 3; i++) expect((await http(t.url, 'POST', '/provider/pix-api/cobr', stale)).status).toBe(200);
    await settled(t);
    expect((await t.sql(`SELECT status FROM pix_billings WHERE id_tx = $1`, [done.id_tx]))[0].status).toBe('COMPLETED');
    expect(await t.sql(`SELECT count(*)::int AS n FROM webhook_events`)).toEqual(before);
  });

  it('every exchange with the PSP and every callback it sent conform to API Pix 2.9.0', () => {
    expect(exchanges.violations()).toEqual([]);
    const psp = callbacks;
    expect(psp.some((c) => c.kind === 'cobr')).toBe(true);
    expect(psp.some((c) => c.kind === 'rec')).toBe(true);
    // The standard's YAML has a typo in RecNotification: `required: ["idRec","status",atualizacao"]`
    // makes the required name `atualizacao"` (with the quote), which no notification can carry;
    // that one error is the file's, anything else is ours.
    const typo = /^\/recs\/\d+ must have required property 'atualizacao"'/;
    const bad = psp
      .map((c) => ({ c, errors: validateCallback(c.kind, c.body).errors.filter((e) => !typo.test(e)) }))
      .filter((x) => x.errors.length);
    expect(bad.map((x) => `${x.c.kind}: ${x.errors.join('; ')}`)).toEqual([]);
  });
});
