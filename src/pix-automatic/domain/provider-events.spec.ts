import { allowedFrom as billingAllowedFrom, targetOf as billingTargetOf } from './billing.state-machine';
import {
  classifyProviderEvent,
  isProviderEventType,
  isReceiverEventType,
  mapProviderEvent,
  PAYER_EVENT_TYPES,
  PROVIDER_EVENT_TYPES,
  ProviderEventType,
  RECEIVER_EVENT_TYPES,
} from './provider-events';
import { targetOf as recurrenceTargetOf } from './recurrence.state-machine';

// Literal table from the spec's "Events › Recurring-debit events", both variants.
// [event type, kind, trigger or null, target status or null, RECEIVER_* name told to the caller]
// prettier-ignore
const EXPECTED: [string, 'recurrence' | 'billing', string | null, string | null, string][] = [
  ['PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED',         'recurrence', 'PAYER_ACCEPTED',        'ACCEPTED',           'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED'],
  ['PIX_AUTOMATIC_PAYER_RECURRENCE_ACCEPTED',            'recurrence', 'PAYER_ACCEPTED',        'ACCEPTED',           'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED'],
  ['PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED',         'recurrence', 'PAYER_ACCEPTED',        'ACCEPTED',           'PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED'],
  ['PIX_AUTOMATIC_PAYER_RECURRENCE_APPROVED',            'recurrence', 'PAYER_ACCEPTED',        'ACCEPTED',           'PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED'],
  ['PIX_AUTOMATIC_RECEIVER_RECURRENCE_REJECTED',         'recurrence', 'PAYER_REJECTED',        'REJECTED',           'PIX_AUTOMATIC_RECEIVER_RECURRENCE_REJECTED'],
  ['PIX_AUTOMATIC_PAYER_RECURRENCE_REJECTED',            'recurrence', 'PAYER_REJECTED',        'REJECTED',           'PIX_AUTOMATIC_RECEIVER_RECURRENCE_REJECTED'],
  ['PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED',         'recurrence', 'RECEIVER_CANCEL',       'CANCELLED_RECEIVER', 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED'],
  ['PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED',            'recurrence', 'PAYER_CANCEL',          'CANCELLED_PAYER',    'PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED'],
  ['PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED',          'recurrence', 'AUTHORIZATION_EXPIRED', 'EXPIRED',            'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED'],
  ['PIX_AUTOMATIC_PAYER_RECURRENCE_EXPIRED',             'recurrence', 'AUTHORIZATION_EXPIRED', 'EXPIRED',            'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED'],
  ['PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE', 'recurrence', 'END_DATE_REACHED',      'EXPIRED',            'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE'],
  ['PIX_AUTOMATIC_PAYER_RECURRENCE_EXPIRED_END_DATE',    'recurrence', 'END_DATE_REACHED',      'EXPIRED',            'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE'],
  ['PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED',           'billing',    null,                    null,                 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED'],
  ['PIX_AUTOMATIC_PAYER_BILLING_REQUESTED',              'billing',    null,                    null,                 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED'],
  ['PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE',              'billing',    'PROVIDER_ACTIVATED',    'ACTIVE',             'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE'],
  ['PIX_AUTOMATIC_PAYER_BILLING_ACTIVE',                 'billing',    'PROVIDER_ACTIVATED',    'ACTIVE',             'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE'],
  ['PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED',           'billing',    'PAID',                  'COMPLETED',          'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED'],
  ['PIX_AUTOMATIC_PAYER_BILLING_COMPLETED',              'billing',    'PAID',                  'COMPLETED',          'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED'],
  ['PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED',            'billing',    'BANK_REJECTED',         'REJECTED',           'PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED'],
  ['PIX_AUTOMATIC_PAYER_BILLING_REJECTED',               'billing',    'BANK_REJECTED',         'REJECTED',           'PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED'],
  ['PIX_AUTOMATIC_RECEIVER_BILLING_EXPIRED',             'billing',    'NOT_PAID_BY_DUE_DATE',  'EXPIRED',            'PIX_AUTOMATIC_RECEIVER_BILLING_EXPIRED'],
  ['PIX_AUTOMATIC_PAYER_BILLING_EXPIRED',                'billing',    'NOT_PAID_BY_DUE_DATE',  'EXPIRED',            'PIX_AUTOMATIC_RECEIVER_BILLING_EXPIRED'],
  ['PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER',   'billing',    'RECEIVER_CANCEL',       'CANCELLED_RECEIVER', 'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER'],
  ['PIX_AUTOMATIC_PAYER_BILLING_CANCELED_RECEIVER',      'billing',    'RECEIVER_CANCEL',       'CANCELLED_RECEIVER', 'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER'],
  ['PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_PAYER',      'billing',    'PAYER_CANCEL',          'CANCELLED_PAYER',    'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_PAYER'],
  ['PIX_AUTOMATIC_PAYER_BILLING_CANCELED_PAYER',         'billing',    'PAYER_CANCEL',          'CANCELLED_PAYER',    'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_PAYER'],
];

describe('provider events', () => {
  it('knows exactly the 13 RECEIVER_* and 13 PAYER_* event types of the spec', () => {
    expect(RECEIVER_EVENT_TYPES).toHaveLength(13);
    expect(PAYER_EVENT_TYPES).toHaveLength(13);
    expect([...PROVIDER_EVENT_TYPES].sort()).toEqual(EXPECTED.map(([e]) => e).sort());
    expect(new Set(PROVIDER_EVENT_TYPES).size).toBe(26);
  });

  it.each(EXPECTED)('%s -> %s / %s / %s / %s', (eventType, kind, trigger, targetStatus, receiverEventType) => {
    const mapping = mapProviderEvent(eventType as ProviderEventType);
    expect(mapping).toEqual({
      kind,
      eventType,
      variant: eventType.startsWith('PIX_AUTOMATIC_PAYER_') ? 'PAYER' : 'RECEIVER',
      trigger,
      targetStatus,
      receiverEventType,
    });
    expect(isReceiverEventType(mapping.receiverEventType)).toBe(true);
    expect(classifyProviderEvent(eventType)).toEqual({ ok: true, mapping });
  });

  it('targetStatus agrees with the state machines', () => {
    for (const eventType of PROVIDER_EVENT_TYPES) {
      const m = mapProviderEvent(eventType);
      if (m.trigger === null) continue;
      const target = m.kind === 'recurrence' ? recurrenceTargetOf(m.trigger) : billingTargetOf(m.trigger);
      expect(m.targetStatus).toBe(target);
    }
  });

  it('BILLING_ACTIVE applies only to a SENT billing (spec table)', () => {
    expect(billingAllowedFrom('PROVIDER_ACTIVATED')).toEqual(['SENT']);
  });

  it.each([
    '',
    'PIX_AUTOMATIC_RECEIVER_BILLING_PAID',
    'pix_automatic_receiver_billing_active',
    'toString',
    'hasOwnProperty',
    null,
    42,
    undefined,
  ])('refuses the unknown event type %p', (value) => {
    expect(isProviderEventType(value)).toBe(false);
    expect(classifyProviderEvent(value)).toEqual({ ok: false, reason: 'UNKNOWN_EVENT_TYPE', eventType: value });
  });

  it('isReceiverEventType refuses PAYER_* names', () => {
    for (const e of PAYER_EVENT_TYPES) expect(isReceiverEventType(e)).toBe(false);
    for (const e of RECEIVER_EVENT_TYPES) expect(isReceiverEventType(e)).toBe(true);
  });
});
