import { createHmac } from 'node:crypto';
import { BankProviderConfig } from '../../src/provider/bank/bank-provider.config';
import { http, TestApp } from '../support/test-app';
import { advance, billingsOf, createRecurrence, newTenant, startPixApp } from './support';

/** POST /provider/events as the provider would, signed over the exact bytes. */
describe('inbound provider events', () => {
  let t: TestApp;
  let secret: string;
  const post = (raw: string, sig?: string) =>
    http(t.url, 'POST', '/provider/events', raw, {
      'content-type': 'application/json',
      ...(sig === undefined ? { 'x-provider-signature': sign(raw) } : sig ? { 'x-provider-signature': sig } : {}),
    });
  const sign = (raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  const event = (eventType: string, idTx: string) => JSON.stringify({ eventType, idTx, occurredAt: new Date().toISOString() });

  beforeAll(async () => {
    t = await startPixApp();
    secret = t.app.get(BankProviderConfig).eventsSecret;
  });
  afterAll(() => t.close());

  it('refuses a missing or wrong signature, and one over other bytes than those sent', async () => {
    const raw = event('PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED', 'RRX');
    expect((await post(raw, '')).status).toBe(401);
    expect((await post(raw, 'sha256=' + '0'.repeat(64))).status).toBe(401);
    // Same JSON value, other bytes (spaces): the HMAC is over the raw body, so it fails.
    const spaced = raw.replace(/,/g, ', ');
    const r = await post(spaced, sign(raw));
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_signature');
    // Signed right over the spaced bytes, it is accepted (an unknown idTx is recorded).
    expect((await post(spaced, sign(spaced))).body).toEqual({ received: true, outcome: 'UNKNOWN_ENTITY' });
  });

  it('refuses an event body over 64 KiB with 413 payload_too_large, before its signature is looked at', async () => {
    const raw = JSON.stringify({
      eventType: 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED',
      idTx: 'RRX',
      occurredAt: new Date().toISOString(),
      pad: 'x'.repeat(64 * 1024),
    });
    const r = await post(raw);
    expect(r.status).toBe(413);
    expect(r.body.error).toBe('payload_too_large');
    // an event of ordinary size still goes through
    expect((await post(event('PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED', 'RRX'))).body).toEqual({
      received: true,
      outcome: 'UNKNOWN_ENTITY',
    });
  });

  it('refuses an unknown event type and a malformed event', async () => {
    const r = await post(event('PIX_AUTOMATIC_RECEIVER_SOMETHING_ELSE', 'RRX'));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('unknown_event_type');
    const bad = await post(JSON.stringify({ eventType: 42, idTx: '' }));
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: any) => d.field)).toEqual(['eventType', 'idTx']);
  });

  it('applies once across variants and duplicates, parks what overtakes, ignores what comes late', async () => {
    const ctx = await newTenant(t, 'Events SA');
    const r = await createRecurrence(t, ctx);
    const rec = (await t.sql('SELECT id_tx FROM pix_recurrences WHERE id = $1', [r.recurrenceId]))[0].id_tx;

    // The bank tells both variants when the payer authorizes: one applies, the other is a duplicate.
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`)).status).toBe(200);
    const delivered = await t.sql('SELECT event_type, outcome FROM pix_provider_events WHERE id_tx = $1 ORDER BY id', [rec]);
    expect(delivered).toEqual([
      { event_type: 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED', outcome: 'APPLIED' },
      { event_type: 'PIX_AUTOMATIC_PAYER_RECURRENCE_ACCEPTED', outcome: 'DUPLICATE' },
    ]);
    expect((await post(event('PIX_AUTOMATIC_PAYER_RECURRENCE_ACCEPTED', rec))).body.outcome).toBe('DUPLICATE');
    // APPROVED: same status, told to the caller once for its records.
    expect((await post(event('PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED', rec))).body.outcome).toBe('DUPLICATE');
    const published = await t.sql('SELECT event_type FROM pix_published_events WHERE id_tx = $1 ORDER BY event_type', [rec]);
    expect(published.map((p) => p.event_type)).toEqual([
      'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED',
      'PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED',
    ]);

    // The engine sends cycle 0; the bank's own ACTIVE is delivered at its day run.
    await advance(t, 7);
    const [b] = await billingsOf(t, r.recurrenceId);
    expect(b.status).toBe('ACTIVE');
    // COMPLETED arrives, then ACTIVE again (late): recorded, ignored.
    expect((await post(event('PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED', b.id_tx))).body.outcome).toBe('APPLIED');
    expect((await post(event('PIX_AUTOMATIC_PAYER_BILLING_ACTIVE', b.id_tx))).body.outcome).toBe('LATE');
    expect((await post(event('PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED', b.id_tx))).body.outcome).toBe('LATE');
    expect((await billingsOf(t, r.recurrenceId))[0].status).toBe('COMPLETED');

    // A payer cancel that overtakes nothing applies; one before the recurrence was accepted waits.
    const r2 = await createRecurrence(t, ctx, { amount: 30 });
    const rec2 = (await t.sql('SELECT id_tx FROM pix_recurrences WHERE id = $1', [r2.recurrenceId]))[0].id_tx;
    expect((await post(event('PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED', rec2))).body.outcome).toBe('PARKED');
    expect((await t.sql('SELECT status FROM pix_recurrences WHERE id = $1', [r2.recurrenceId]))[0].status).toBe('PENDING');
    expect((await post(event('PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED', rec2))).body.outcome).toBe('APPLIED');
    expect((await t.sql('SELECT status FROM pix_recurrences WHERE id = $1', [r2.recurrenceId]))[0].status).toBe('CANCELLED_PAYER');
    const log = await t.sql('SELECT event_type, outcome, replayed FROM pix_provider_events WHERE id_tx = $1 ORDER BY id', [rec2]);
    expect(log).toEqual([
      { event_type: 'PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED', outcome: 'APPLIED', replayed: true },
      { event_type: 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED', outcome: 'APPLIED', replayed: false },
    ]);
  });
});
