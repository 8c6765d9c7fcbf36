import { addDays, dayOfWeek } from '../../src/pix-automatic/domain/calendar';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { hasChromium, openBrowser } from './browser';
import { advance, day, startPixApp, today } from './support';

const BASE = '/v1/banking/pix/automatic';

/** The seven endpoints over HTTP, through the real gateway (allow-list → JWT → rate limit). */
describe('recurring Pix debit over HTTP', () => {
  let t: TestApp;
  let acme: OnboardedTenant;
  let other: OnboardedTenant;
  const api = (who: OnboardedTenant, method: string, path: string, body?: unknown) => http(t.url, method, `${BASE}${path}`, body, who.auth);
  const body = (over: Record<string, unknown> = {}) => ({
    amount: 49.9,
    currency: 'BRL',
    periodicity: 'MONTHLY',
    firstDueDate: day(t, 10),
    expirationDate: day(t, 120),
    dayAdjustment: 'KEEP_DUE_DATE',
    payerName: 'Maria Souza',
    payerTaxId: '52998224725',
    description: 'Plano mensal',
    ...over,
  });

  beforeAll(async () => {
    t = await startPixApp();
    acme = await onboardTenant(t, { name: 'ACME Academia', rateLimitPerMinute: 5000 });
    other = await onboardTenant(t, { name: 'Other Ltda', rateLimitPerMinute: 5000 });
  });
  afterAll(() => t.close());

  it('refuses a bad create with details naming each bad field, and writes nothing', async () => {
    const r = await api(acme, 'POST', '/recurrences', {
      amount: 1.234,
      currency: 'USD',
      periodicity: 'HOURLY',
      firstDueDate: day(t, -1),
      expirationDate: day(t, -2),
      dayAdjustment: 'SOMETIMES',
      payerName: 'Maria',
      payerTaxId: '52998224724',
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_error');
    const fields = new Set(r.body.details.map((d: { field: string }) => d.field));
    expect(fields).toEqual(new Set(['amount', 'currency', 'periodicity', 'firstDueDate', 'expirationDate', 'dayAdjustment', 'payerTaxId']));
    expect(r.body.details.find((d: any) => d.field === 'firstDueDate').message).toMatch(/past/);
    expect(r.body.details.find((d: any) => d.field === 'expirationDate').message).toMatch(/firstDueDate/);
    for (const bad of [
      { amount: 0 },
      { amount: -5 },
      { firstDueDate: '2027-02-30' },
      { payerTaxId: '1234567890' },
      { payerTaxId: '529.982.247-25' },
    ]) {
      const one = await api(acme, 'POST', '/recurrences', body(bad));
      expect({ bad, status: one.status, fields: one.body.details?.map((d: any) => d.field) }).toEqual({
        bad,
        status: 400,
        fields: [Object.keys(bad)[0]],
      });
    }
    expect(await t.sql('SELECT count(*)::int AS n FROM pix_recurrences')).toEqual([{ n: 0 }]);
    expect(await t.sql('SELECT count(*)::int AS n FROM sandbox_bank_recurrences')).toEqual([{ n: 0 }]);
  });

  it('needs a bearer token', async () => {
    expect((await http(t.url, 'POST', `${BASE}/recurrences`, body())).status).toBe(401);
  });

  it('create → the payer authorizes on the bank page in Chromium → ACCEPTED → billings → ACTIVE → COMPLETED', async () => {
    const c = await api(acme, 'POST', '/recurrences', body());
    expect(c.status).toBe(200);
    expect(c.body).toEqual({
      recurrenceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'PENDING',
      authorizationUrl: `${t.sandboxUrl}/sandbox/bank/authorize/${c.body.recurrenceId}`,
    });
    const id = c.body.recurrenceId;

    // Ad hoc billing before the payer said yes: the spec's 500, told apart by its code.
    const early = await api(acme, 'POST', '/billings', { recurrenceId: id, dueDate: day(t, 5), amount: 10, currency: 'BRL' });
    expect(early.status).toBe(500);
    expect(early.body.error).toBe('recurrence_not_authorized');

    if (hasChromium()) {
      const b = await openBrowser();
      try {
        const page = await b.ctx.newPage();
        await page.goto(c.body.authorizationUrl);
        expect(await page.textContent('#receiver')).toBe('ACME Academia');
        expect(await page.textContent('#amount')).toBe('R$ 49,90');
        expect(await page.textContent('#periodicity')).toBe('Mensal');
        const br = (iso: string) => iso.split('-').reverse().join('/');
        expect(await page.textContent('#term')).toBe(`${br(day(t, 10))} a ${br(day(t, 120))}`);
        await page.click('#authorize');
        await page.waitForSelector('#result');
        expect(await page.textContent('#result')).toBe('Pix Automático autorizado');
      } finally {
        await b.close();
      }
    } else {
      console.warn(
        'SKIPPED the browser step: /usr/bin/chromium is not installed; approving through POST /sandbox/recurrences/{id}/approve instead',
      );
      expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${id}/approve`)).status).toBe(200);
    }
    const listed = await api(acme, 'GET', `/recurrences?status=ACCEPTED`);
    expect(listed.body.items.map((x: any) => x.recurrenceId)).toEqual([id]);

    await advance(t, 7); // send date of the first cycle: due date − 3 days
    let billings = await api(acme, 'GET', `/recurrences/${id}/billings`);
    expect(billings.status).toBe(200);
    expect(billings.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(billings.body.items[0]).toEqual({
      id: expect.any(String),
      recurrenceId: id,
      status: 'ACTIVE',
      amount: 49.9,
      currency: 'BRL',
      dueDate: day(t, 3),
      idTx: expect.stringMatching(/^BL[A-Z0-9]{30}$/),
      sendAttempts: 1,
      kind: 'REGULAR',
      lastError: null,
      refundedAmount: 0,
      disputedAmount: 0,
      refundableAmount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api(acme, 'GET', `/recurrences?status=ACTIVE`)).body.items[0].recurrenceId).toBe(id);

    await advance(t, 3);
    billings = await api(acme, 'GET', `/recurrences/${id}/billings`);
    expect(billings.body.items[0].status).toBe('COMPLETED');

    // A COMPLETED billing cannot be cancelled.
    const del = await api(acme, 'DELETE', `/billings/${billings.body.items[0].id}`);
    expect(del.status).toBe(409);
    expect(del.body.error).toBe('billing_not_cancelable');

    // Ad hoc: created, sent at once; DELETE cancels it (twice is the same); the bank cancels it too.
    const adHoc = await api(acme, 'POST', '/billings', {
      recurrenceId: id,
      dueDate: day(t, 6),
      amount: 12.5,
      currency: 'BRL',
      dayAdjustment: 'KEEP_DUE_DATE',
    });
    expect(adHoc.status).toBe(201);
    expect(adHoc.body).toMatchObject({
      recurrenceId: id,
      status: 'SENT',
      amount: 12.5,
      dueDate: day(t, 6),
      kind: 'AD_HOC',
      sendAttempts: 1,
    });
    const past = await api(acme, 'POST', '/billings', { recurrenceId: id, dueDate: day(t, -1), amount: 12.5, currency: 'BRL' });
    expect(past.status).toBe(400);
    expect(past.body.details.map((d: any) => d.field)).toEqual(['dueDate']);
    for (let i = 0; i < 2; i++) {
      const cancelled = await api(acme, 'DELETE', `/billings/${adHoc.body.id}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ id: adHoc.body.id, status: 'CANCELLED_RECEIVER' });
    }
    expect(await t.sql('SELECT status FROM sandbox_bank_billings WHERE id_tx = $1', [adHoc.body.idTx])).toEqual([
      { status: 'CANCELLED_RECEIVER' },
    ]);

    // Refresh reads the bank and overwrites only the status (here a lost event: we say PENDING, the bank ACTIVE).
    await t.sql(`UPDATE pix_recurrences SET status = 'PENDING' WHERE id = $1`, [id]);
    const before = (await t.sql('SELECT amount_cents, periodicity, next_cycle FROM pix_recurrences WHERE id = $1', [id]))[0];
    const refreshed = await api(acme, 'POST', `/recurrences/${id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ recurrenceId: id, status: 'ACTIVE' });
    expect((await t.sql('SELECT amount_cents, periodicity, next_cycle FROM pix_recurrences WHERE id = $1', [id]))[0]).toEqual(before);

    // Cancel: the recurrence and every billing still open; idempotent; irreversible.
    // Up to the second cycle's send date (first due date + 1 month − 3 days: 27 or 28 days on
    // from here, by the length of the month), when it is sent and ACTIVE at the bank.
    await advance(t, 26);
    let open: any;
    for (let i = 0; i < 4 && !open; i++) {
      await advance(t, 1);
      billings = await api(acme, 'GET', `/recurrences/${id}/billings?limit=10`);
      open = billings.body.items.find((x: any) => x.kind === 'REGULAR' && x.status === 'ACTIVE');
    }
    expect(open).toBeDefined();
    for (let i = 0; i < 2; i++) {
      const cancel = await api(acme, 'POST', `/recurrences/${id}/cancel`);
      expect(cancel.status).toBe(200);
      expect(cancel.body).toMatchObject({ recurrenceId: id, status: 'CANCELLED_RECEIVER', amount: 49.9, periodicity: 'MONTHLY' });
    }
    billings = await api(acme, 'GET', `/recurrences/${id}/billings`);
    expect(billings.body.items.find((x: any) => x.id === open.id).status).toBe('CANCELLED_RECEIVER');
    expect((await t.sql('SELECT status FROM sandbox_bank_recurrences WHERE recurrence_id = $1', [id]))[0].status).toBe(
      'CANCELLED_RECEIVER',
    );
    const late = await api(acme, 'POST', '/billings', { recurrenceId: id, dueDate: day(t, 5), amount: 10, currency: 'BRL' });
    expect(late.body.error).toBe('recurrence_not_authorized');
    await advance(t, 40);
    expect((await api(acme, 'GET', `/recurrences/${id}/billings`)).body.total).toBe(billings.body.total);
  }, 60_000);

  it("answers 404 for another tenant's recurrence and billing on every route", async () => {
    const c = await api(acme, 'POST', '/recurrences', body());
    const id = c.body.recurrenceId;
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${id}/approve`);
    const adHoc = await api(acme, 'POST', '/billings', { recurrenceId: id, dueDate: day(t, 5), amount: 10, currency: 'BRL' });
    expect(adHoc.status).toBe(201);
    const calls: [string, string, unknown?][] = [
      ['POST', `/recurrences/${id}/refresh`],
      ['POST', `/recurrences/${id}/cancel`],
      ['GET', `/recurrences/${id}/billings`],
      ['POST', '/billings', { recurrenceId: id, dueDate: day(t, 5), amount: 10, currency: 'BRL' }],
      ['DELETE', `/billings/${adHoc.body.id}`],
      ['POST', `/recurrences/not-a-uuid/cancel`],
      ['DELETE', `/billings/00000000-0000-0000-0000-000000000000`],
    ];
    for (const [method, path, b] of calls) {
      const r = await api(other, method, path, b);
      expect({ method, path, status: r.status, error: r.body.error }).toEqual({
        method,
        path,
        status: 404,
        error: expect.stringMatching(/^(recurrence|billing)_not_found$/),
      });
    }
    expect((await api(other, 'GET', '/recurrences')).body).toEqual({ total: 0, limit: 50, offset: 0, items: [] });
    expect((await t.sql('SELECT status FROM pix_recurrences WHERE id = $1', [id]))[0].status).toBe('ACCEPTED');
  });

  it('lists with filters and a stable page order', async () => {
    const tenant = await onboardTenant(t, { name: 'Lister', rateLimitPerMinute: 5000 });
    const ids: string[] = [];
    for (const [i, over] of [
      { amount: 10 },
      { amount: 20, payerTaxId: '11222333000181' },
      { amount: 10, firstDueDate: day(t, 20) },
      { amount: 30 },
      { amount: 10 },
    ].entries()) {
      const r = await api(tenant, 'POST', '/recurrences', body({ ...over, description: `#${i}` }));
      expect(r.status).toBe(200);
      ids.push(r.body.recurrenceId);
    }
    const all = await api(tenant, 'GET', '/recurrences?limit=2&offset=0');
    const rest = await api(tenant, 'GET', '/recurrences?limit=10&offset=2');
    expect(all.body.total).toBe(5);
    expect([...all.body.items, ...rest.body.items].map((x: any) => x.recurrenceId)).toEqual(ids);
    expect((await api(tenant, 'GET', '/recurrences?amount=10')).body.items.map((x: any) => x.recurrenceId)).toEqual([
      ids[0],
      ids[2],
      ids[4],
    ]);
    expect((await api(tenant, 'GET', '/recurrences?payerTaxId=11222333000181')).body.items.map((x: any) => x.recurrenceId)).toEqual([
      ids[1],
    ]);
    const byDate = await api(tenant, 'GET', `/recurrences?amount=10&firstDueDate=${day(t, 20)}&status=PENDING`);
    expect(byDate.body.items.map((x: any) => x.recurrenceId)).toEqual([ids[2]]);
    expect(byDate.body.items[0]).toMatchObject({
      amount: 10,
      currency: 'BRL',
      payerName: 'Maria Souza',
      description: '#2',
      status: 'PENDING',
      expirationDate: day(t, 120),
    });
    expect((await api(tenant, 'GET', '/recurrences?limit=101')).status).toBe(400);
    expect((await api(tenant, 'GET', '/recurrences?status=WHATEVER')).status).toBe(400);
    expect((await api(tenant, 'GET', '/recurrences?offset=50')).body).toEqual({ total: 5, limit: 50, offset: 50, items: [] });
  });

  it('the authorization window closes: the page says so, the request EXPIRES, approve is refused', async () => {
    const c = await api(acme, 'POST', '/recurrences', body({ firstDueDate: day(t, 30) }));
    await advance(t, 4);
    const page = await fetch(c.body.authorizationUrl);
    expect(await page.text()).toContain('Este pedido de autorização expirou');
    expect((await api(acme, 'GET', `/recurrences?status=EXPIRED`)).body.items.map((x: any) => x.recurrenceId)).toContain(
      c.body.recurrenceId,
    );
    const approve = await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${c.body.recurrenceId}/approve`);
    expect(approve.status).toBe(409);
    const cancel = await api(acme, 'POST', `/recurrences/${c.body.recurrenceId}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toBe('recurrence_not_cancelable');
  });

  it('a request the payer has not answered yet can be withdrawn: the bank page stops offering it', async () => {
    const c = await api(acme, 'POST', '/recurrences', body());
    const cancel = await api(acme, 'POST', `/recurrences/${c.body.recurrenceId}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('CANCELLED_RECEIVER');
    const page = await (await fetch(c.body.authorizationUrl)).text();
    expect(page).toContain('Pix Automático cancelado');
    expect(page).not.toContain('id="authorize"');
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${c.body.recurrenceId}/approve`)).status).toBe(409);
    expect((await t.sql('SELECT status FROM pix_recurrences WHERE id = $1', [c.body.recurrenceId]))[0].status).toBe('CANCELLED_RECEIVER');
  });

  it('the payer refuses on the page, or cancels later from their bank', async () => {
    const refused = await api(acme, 'POST', '/recurrences', body());
    const kept = await api(acme, 'POST', '/recurrences', body({ amount: 15 }));
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${refused.body.recurrenceId}/reject`)).body.status).toBe('REJECTED');
    expect((await api(acme, 'POST', `/recurrences/${refused.body.recurrenceId}/refresh`)).body.status).toBe('REJECTED');
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${kept.body.recurrenceId}/approve`);
    if (hasChromium()) {
      const b = await openBrowser();
      try {
        const page = await b.ctx.newPage();
        await page.goto(`${t.sandboxUrl}/sandbox/bank/payer/recurrences/${kept.body.recurrenceId}`);
        await page.click('#cancel');
        await page.waitForSelector('#status');
        expect(await page.getAttribute('#status', 'data-status')).toBe('CANCELLED_PAYER');
        expect(await page.textContent('#status')).toBe('Cancelado por você');
      } finally {
        await b.close();
      }
    } else {
      await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${kept.body.recurrenceId}/cancel`);
    }
    expect((await t.sql('SELECT status FROM pix_recurrences WHERE id = $1', [kept.body.recurrenceId]))[0].status).toBe('CANCELLED_PAYER');
  });

  it('an ad hoc billing whose adjusted due date falls before today is refused', async () => {
    // Move the clock to a Saturday: due today, moved back to Friday, is in the past.
    const toSaturday = (6 - dayOfWeek(today(t)) + 7) % 7 || 7;
    await advance(t, toSaturday);
    const c = await api(acme, 'POST', '/recurrences', body({ firstDueDate: addDays(today(t), 10) }));
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${c.body.recurrenceId}/approve`);
    const r = await api(acme, 'POST', '/billings', {
      recurrenceId: c.body.recurrenceId,
      dueDate: today(t),
      amount: 5,
      currency: 'BRL',
      dayAdjustment: 'MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY',
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('due_date_in_past');
    expect(await t.sql(`SELECT count(*)::int AS n FROM pix_billings WHERE recurrence_id = $1`, [c.body.recurrenceId])).toEqual([{ n: 0 }]);
  });
});
