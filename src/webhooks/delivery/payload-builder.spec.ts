import { randomBytes } from 'node:crypto';
import { generateSealingKey, open, parseSealingKey } from '../domain/sealing';
import { verifyV1, verifyV2 } from '../domain/signing';
import { SecretKeyRing } from '../endpoints/secret-box';
import { ClaimedDelivery } from '../outbox/outbox.store';
import { acquiringBody, PayloadBuilder } from './payload-builder';

const RING = new SecretKeyRing([randomBytes(32)]);
const TENANT = '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10';
const NOW = new Date('2026-03-10T12:00:00.000Z');
const TS = Math.floor(NOW.getTime() / 1000);

function delivery(over: Partial<ClaimedDelivery>): ClaimedDelivery {
  return {
    id: 'd1',
    token: 't1',
    attempt: 1,
    tenantId: TENANT,
    domain: 'acquiring',
    eventId: 'evt_0123456789abcdef01234567',
    eventType: 'acquiring.payout',
    idTx: null,
    dataJson: '{"amount": 1500, "payer": "João"}',
    occurredAt: new Date('2026-03-10T11:59:00.000Z'),
    endpointId: 'e1',
    url: 'https://merchant.example.com/h',
    keyId: 'key_new',
    secretBox: '',
    previousKeyId: null,
    previousSecretBox: null,
    previousExpiresAt: null,
    ...over,
  };
}

describe('PayloadBuilder', () => {
  const builder = new PayloadBuilder(RING);

  it('acquiring: the spec body, signed with the current secret', () => {
    const d = delivery({ secretBox: RING.box(TENANT, 'acquiring', 'whsec_current') });
    const { body, headers } = builder.build(d, NOW, TS);
    expect(JSON.parse(body)).toEqual({
      id: d.eventId,
      type: 'acquiring.payout',
      createdAt: '2026-03-10T11:59:00.000Z',
      data: { amount: 1500, payer: 'João' },
    });
    expect(body).toBe(acquiringBody(d));
    expect(verifyV1('whsec_current', body, headers['X-Service-Signature'])).toEqual({ valid: true });
    expect(verifyV2('whsec_current', body, headers['X-Service-Signature-V2'], { webhookId: d.eventId, now: NOW })).toEqual({ valid: true });
    expect(headers['X-Service-Webhook-Id']).toBe(d.eventId);
    expect(headers['X-Service-Timestamp']).toBe(String(TS));
    expect(headers['X-Service-Signature-Previous']).toBeUndefined();
  });

  it('acquiring: during the grace period the previous secret signs too, and not after', () => {
    const d = delivery({
      secretBox: RING.box(TENANT, 'acquiring', 'whsec_new'),
      previousKeyId: 'key_old',
      previousSecretBox: RING.box(TENANT, 'acquiring', 'whsec_old'),
      previousExpiresAt: new Date(NOW.getTime() + 1000),
    });
    const during = builder.build(d, NOW, TS);
    expect(verifyV1('whsec_old', during.body, during.headers['X-Service-Signature-Previous'])).toEqual({ valid: true });
    expect(verifyV2('whsec_old', during.body, during.headers['X-Service-Signature-V2'], { webhookId: d.eventId, now: NOW })).toEqual({
      valid: true,
    });
    const after = builder.build(d, new Date(NOW.getTime() + 1000), TS);
    expect(after.headers['X-Service-Signature-Previous']).toBeUndefined();
    expect(verifyV2('whsec_old', after.body, after.headers['X-Service-Signature-V2'], { webhookId: d.eventId, now: NOW }).valid).toBe(
      false,
    );
  });

  it('pix-automatic: sealed with the current key, or the previous one during the grace period', () => {
    const current = generateSealingKey();
    const previous = generateSealingKey();
    const base = delivery({
      domain: 'pix-automatic',
      eventType: 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED',
      idTx: 'RR1',
      secretBox: RING.box(TENANT, 'pix-automatic', current),
    });
    const plain = {
      id: base.eventId,
      event_type: 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED',
      idTx: 'RR1',
      occurredAt: '2026-03-10T11:59:00.000Z',
      data: { amount: 1500, payer: 'João' },
    };
    const now = builder.build(base, NOW, TS);
    const sealed = JSON.parse(now.body);
    expect(Object.keys(sealed).sort()).toEqual(['ciphertext', 'iv', 'keyId', 'tag']);
    expect(sealed.keyId).toBe('key_new');
    expect(open(parseSealingKey(current), sealed)).toEqual(plain);
    expect(now.headers).toEqual({ 'X-Service-Webhook-Id': base.eventId, 'X-Service-Timestamp': String(TS) });

    const rotating = {
      ...base,
      previousKeyId: 'key_old',
      previousSecretBox: RING.box(TENANT, 'pix-automatic', previous),
      previousExpiresAt: new Date(NOW.getTime() + 1000),
    };
    const grace = JSON.parse(builder.build(rotating, NOW, TS).body);
    expect(grace.keyId).toBe('key_old');
    expect(open(parseSealingKey(previous), grace)).toEqual(plain);
    expect(() => open(parseSealingKey(current), grace)).toThrow();
    const later = JSON.parse(builder.build(rotating, new Date(NOW.getTime() + 5000), TS).body);
    expect(later.keyId).toBe('key_new');
    expect(open(parseSealingKey(current), later)).toEqual(plain);
  });

  it('refuses a secret stored under another WEBHOOK_SECRETS_KEY', () => {
    const d = delivery({ secretBox: new SecretKeyRing([randomBytes(32)]).box(TENANT, 'acquiring', 'whsec_x') });
    expect(() => builder.build(d, NOW, TS)).toThrow(expect.objectContaining({ code: 'webhook_secret_unreadable' }));
  });
});
