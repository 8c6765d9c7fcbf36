import { http, TestApp } from '../support/test-app';
import { advance, billingsOf, createRecurrence, newTenant, startPixApp, statusOf } from './support';

describe('recurring Pix flow against the sandbox bank (service level, real HTTP between service and bank)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startPixApp();
  });
  afterAll(() => t.close());

  it('create → approve → clock → billing generated, sent, ACTIVE, COMPLETED', async () => {
    const ctx = await newTenant(t);
    const created = await createRecurrence(t, ctx);
    expect(created).toEqual({
      recurrenceId: expect.any(String),
      status: 'PENDING',
      authorizationUrl: expect.stringMatching(/\/sandbox\/bank\/authorize\//),
    });
    const page = await fetch(created.authorizationUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('ACME Academia');

    const ok = await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${created.recurrenceId}/approve`);
    expect(ok.body).toEqual({ recurrenceId: created.recurrenceId, status: 'ACCEPTED' });
    expect(await statusOf(t, created.recurrenceId)).toBe('ACCEPTED');

    await advance(t, 7); // send date: due (today+10) - 3
    let billings = await billingsOf(t, created.recurrenceId);
    expect(billings).toHaveLength(1);
    expect(billings[0]).toMatchObject({ cycle: 0, status: 'ACTIVE', send_attempts: 1 });
    expect(await statusOf(t, created.recurrenceId)).toBe('ACTIVE');

    await advance(t, 3);
    billings = await billingsOf(t, created.recurrenceId);
    expect(billings[0].status).toBe('COMPLETED');
    const outcomes = await t.sql(`SELECT event_type, outcome FROM pix_provider_events WHERE id_tx = $1 ORDER BY id`, [billings[0].id_tx]);
    expect(outcomes).toEqual([
      { event_type: 'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE', outcome: 'APPLIED' },
      { event_type: 'PIX_AUTOMATIC_PAYER_BILLING_ACTIVE', outcome: 'DUPLICATE' },
      { event_type: 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED', outcome: 'APPLIED' },
      { event_type: 'PIX_AUTOMATIC_PAYER_BILLING_COMPLETED', outcome: 'DUPLICATE' },
    ]);
  });
});
