import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { recordExchanges } from '../support/pix-api-contract';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { PixApiRecurrences } from '../../src/provider/pix-api/pix-api-recurrences';
import { PixApiReconciler } from '../../src/provider/pix-api/pix-api-reconciler';
import { PixApiCallbacks } from '../../src/provider/pix-api/pix-api-callbacks';
import { day, startPixApp } from './support';

const BASE = '/v1/banking/pix/automatic';

/**
 * Recurrences with BANK_PROVIDER=pix-api against the sandbox PSP (API Pix over mutual TLS): the
 * tenant API is the one of `service`; underneath, /locrec + /rec, the payer's QR location, GET
 * /rec for refresh and PATCH /rec to cancel, every exchange valid against the standard.
 */
describe('Pix Automático recurrences over API Pix (BANK_PROVIDER=pix-api)', () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let acme: OnboardedTenant;
  let exchanges: ReturnType<typeof recordExchanges>;
  // What a create would send (POST /locrec, /rec, /solicrec). The sandbox PSP's callbacks from an
  // earlier test's approval make the callback worker read GET /rec/{idRec} in the background, at
  // any moment, so a refusal's "nothing sent" counts the writes.
  const writes = () => exchanges.seen.filter((x) => x.method !== 'GET').length;
  const api = (method: string, path: string, body?: unknown) => http(t.url, method, `${BASE}${path}`, body, acme.auth);
  const create = (over: Record<string, unknown> = {}) =>
    api('POST', '/recurrences', {
      amount: 49.9,
      currency: 'BRL',
      periodicity: 'MONTHLY',
      firstDueDate: day(t, 12),
      dayAdjustment: 'KEEP_DUE_DATE',
      payerName: 'Maria Souza',
      payerTaxId: '52998224725',
      description: 'Plano mensal da academia',
      ...over,
    });

  beforeAll(async () => {
    t = await startPixApp({ env: { BANK_PROVIDER: 'pix-api' } });
    acme = await onboardTenant(t, { name: 'ACME Academia', rateLimitPerMinute: 5000 });
    exchanges = recordExchanges(t.sandbox.get(SandboxPspServer));
  });
  afterAll(() => t?.close());

  it('create → the payer opens the location (QR) and authorizes at the sandbox bank → refresh reads ACCEPTED from GET /rec', async () => {
    const c = await create();
    expect(c.status).toBe(200);
    expect(c.body).toEqual({
      recurrenceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'PENDING',
      authorizationUrl: expect.stringMatching(new RegExp(`^${t.sandboxUrl}/sandbox/bank/locrec/[A-Za-z0-9_-]{22}$`)),
    });
    const [stored] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [c.body.recurrenceId]);
    expect(stored.id_rec).toMatch(/^RR99999008\d{8}[A-Za-z0-9]{11}$/);
    // the rec carries ours as vinculo.contrato, the payer, the standard's periodicity and the retry policy
    const rec = exchanges.seen.find((x) => x.method === 'POST' && x.path === '/rec')!;
    expect(rec.request).toMatchObject({
      vinculo: {
        contrato: c.body.recurrenceId.replace(/-/g, ''),
        devedor: { cpf: '52998224725', nome: 'Maria Souza' },
        objeto: 'Plano mensal da academia',
      },
      calendario: { dataInicial: day(t, 12), periodicidade: 'MENSAL' },
      valor: { valorRec: '49.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });

    const qr = await fetch(c.body.authorizationUrl, { redirect: 'manual' });
    expect(qr.status).toBe(302);
    expect(qr.headers.get('location')).toBe(`/sandbox/bank/authorize/${stored.id_rec}`);
    const page = await fetch(`${t.sandboxUrl}${qr.headers.get('location')}`);
    expect(await page.text()).toContain('49,90');
    const decided = await http(t.sandboxUrl, 'POST', `/sandbox/bank/authorize/${stored.id_rec}`, { decision: 'approve' });
    expect(decided.status).toBe(200);

    const refreshed = await api('POST', `/recurrences/${c.body.recurrenceId}/refresh`);
    expect(refreshed.body).toEqual({ recurrenceId: c.body.recurrenceId, status: 'ACCEPTED' });
    // the callback path: the rec read back and applied as the provider events (a repeat changes nothing)
    const recs = t.app.get(PixApiRecurrences);
    await recs.apply(stored.id_rec);
    await recs.apply(stored.id_rec);
    const events = await t.sql(
      `SELECT event_type, outcome FROM pix_provider_events WHERE id_tx = (SELECT id_tx FROM pix_recurrences WHERE id = $1) ORDER BY id`,
      [c.body.recurrenceId],
    );
    // (the sandbox PSP's rec callback may have applied it first: once, and nothing after it)
    const outcomes = events.map((e) => e.outcome);
    expect(outcomes.filter((o) => o === 'APPLIED').length).toBeLessThanOrEqual(1);
    expect(outcomes.filter((o) => o !== 'APPLIED').every((o) => o === 'DUPLICATE')).toBe(true);
    expect(outcomes.length).toBeGreaterThanOrEqual(2);

    const cancelled = await api('POST', `/recurrences/${c.body.recurrenceId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED_RECEIVER');
    const read = await t.app.get(PixApiRecurrences).read(stored.id_rec);
    expect(read).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR' } } });
  });

  it('a rec the payer refuses is REJECTED, applied from the PSP', async () => {
    const c = await create({ amount: 30 });
    const [stored] = await t.sql(`SELECT id_rec, id_tx FROM pix_recurrences WHERE id = $1`, [c.body.recurrenceId]);
    await http(t.sandboxUrl, 'POST', `/sandbox/bank/authorize/${stored.id_rec}`, { decision: 'reject' });
    await t.app.get(PixApiRecurrences).apply(stored.id_rec);
    expect((await t.sql(`SELECT status FROM pix_recurrences WHERE id = $1`, [c.body.recurrenceId]))[0].status).toBe('REJECTED');
  });

  it("Jornada 1: payerBankAccount pushes the request to the payer's bank (POST /solicrec); the payer accepts there and the solicitation reads ACEITA", async () => {
    const c = await create({ payerBankAccount: { ispb: '91193552', branch: '2569', account: '550689' } });
    expect(c.status).toBe(200);
    const [stored] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [c.body.recurrenceId]);
    const solic = exchanges.seen.find((x) => x.method === 'POST' && x.path === '/solicrec')!;
    expect(solic.request).toMatchObject({
      idRec: stored.id_rec,
      destinatario: { cpf: '52998224725', conta: '550689', agencia: '2569', ispbParticipante: '91193552' },
    });
    expect(solic.status).toBe(201);
    const idSolicRec = (solic.answer as any).idSolicRec;
    expect(idSolicRec).toMatch(/^SC99999008\d{8}[A-Za-z0-9]{11}$/);
    await http(t.sandboxUrl, 'POST', `/sandbox/bank/authorize/${stored.id_rec}`, { decision: 'approve' });
    const { PixApiClient } = await import('../../src/provider/pix-api/pix-api-client');
    const read: any = await t.app
      .get(PixApiClient)
      .call({ operation: 'getSolicrec', method: 'GET', path: `/solicrec/${idSolicRec}`, idempotent: true });
    expect(read.status).toBe('ACEITA');
    expect((await api('POST', `/recurrences/${c.body.recurrenceId}/refresh`)).body.status).toBe('ACCEPTED');
  });

  it('a malformed payerBankAccount is refused with 400 validation_error naming the field, before anything is sent or written', async () => {
    const before = (await t.sql(`SELECT count(*)::int AS n FROM pix_recurrences`))[0].n;
    const sent = writes();
    const r = await create({ payerBankAccount: { ispb: 'ABC', account: '1' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_error');
    expect(JSON.stringify(r.body.details)).toContain('ispb');
    expect((await t.sql(`SELECT count(*)::int AS n FROM pix_recurrences`))[0].n).toBe(before);
    expect(writes()).toBe(sent);
  });

  it("reconciles by GET /rec (inicio/fim) a payer's approval whose callback never came", async () => {
    const c = await create({ amount: 33 });
    const [stored] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [c.body.recurrenceId]);
    await http(t.sandboxUrl, 'POST', `/sandbox/bank/authorize/${stored.id_rec}`, { decision: 'approve' });
    await t.app.get(PixApiCallbacks).settle();
    // as if the callback had been lost: ours still says PENDING
    await t.sql(`UPDATE pix_recurrences SET status = 'PENDING' WHERE id = $1`, [c.body.recurrenceId]);
    expect(await t.app.get(PixApiRecurrences).drifted(new Date())).toContain(stored.id_rec);
    expect(await t.app.get(PixApiReconciler).reconcile()).toBeGreaterThanOrEqual(1);
    await t.app.get(PixApiCallbacks).settle();
    expect((await t.sql(`SELECT status FROM pix_recurrences WHERE id = $1`, [c.body.recurrenceId]))[0].status).toBe('ACCEPTED');
    expect(exchanges.seen.some((x) => x.method === 'GET' && x.path === '/rec')).toBe(true);
  });

  it.each(['DAILY', 'BIMONTHLY'])(
    '%s is refused with 400 periodicity_not_supported naming the provider; nothing is written or sent',
    async (periodicity) => {
      const before = (await t.sql(`SELECT count(*)::int AS n FROM pix_recurrences`))[0].n;
      const sent = writes();
      const r = await create({ periodicity });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('periodicity_not_supported');
      expect(r.body.message).toContain('pix-api');
      expect((await t.sql(`SELECT count(*)::int AS n FROM pix_recurrences`))[0].n).toBe(before);
      expect(writes()).toBe(sent);
    },
  );

  it('every request the adapter sent and every answer the sandbox PSP gave conform to API Pix 2.9.0', () => {
    expect(exchanges.seen.map((x) => `${x.method} ${x.template}`)).toEqual(
      expect.arrayContaining([
        'POST /locrec',
        'POST /rec',
        'GET /rec/{idRec}',
        'PATCH /rec/{idRec}',
        'POST /solicrec',
        'GET /solicrec/{idSolicRec}',
      ]),
    );
    expect(exchanges.violations()).toEqual([]);
  });
});

describe('payerBankAccount on the service provider', () => {
  it('is refused with 400 push_authorization_not_supported naming the provider; nothing is written', async () => {
    const t = await startPixApp();
    try {
      const acme = await onboardTenant(t, { name: 'ACME', rateLimitPerMinute: 5000 });
      const r = await http(
        t.url,
        'POST',
        `${BASE}/recurrences`,
        {
          amount: 10,
          currency: 'BRL',
          periodicity: 'DAILY',
          firstDueDate: day(t, 5),
          payerName: 'Maria',
          payerTaxId: '52998224725',
          payerBankAccount: { ispb: '91193552', account: '550689' },
        },
        acme.auth,
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('push_authorization_not_supported');
      expect(r.body.message).toContain('service');
      expect((await t.sql(`SELECT count(*)::int AS n FROM pix_recurrences`))[0].n).toBe(0);
    } finally {
      await t.close();
    }
  });
});
