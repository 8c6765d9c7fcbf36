import type { AdyenNotificationItem } from '../../../../kernel/common/protocols/adyen';
import { adyenItemRejection } from './adyen-item-checks';

const item = (over: Partial<AdyenNotificationItem> = {}): AdyenNotificationItem => ({
  pspReference: 'QFQTPCQ8HXSKGK82',
  merchantAccountCode: 'SandboxMerchantBR',
  merchantReference: 'pay_AAAAAAAAAAAAAAAAAAAAAA',
  eventCode: 'CHARGEBACK',
  eventDate: '2026-12-07T10:00:00+01:00',
  success: 'true',
  amount: { value: 1000, currency: 'BRL' },
  additionalData: { defensePeriodEndsAt: '2026-12-20T10:00:00+01:00' },
  ...over,
});

describe('the checks of an Adyen item at the edge', () => {
  it('passes a sound item, with a card payment or a link payment reference', () => {
    expect(adyenItemRejection(item())).toBeNull();
    expect(adyenItemRejection(item({ merchantReference: '0f9a1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b' }))).toBeNull();
  });

  it.each([
    [
      'a defence deadline that is not a date (outside the HMAC)',
      { additionalData: { defensePeriodEndsAt: 'soon' } },
      /defensePeriodEndsAt/,
    ],
    ['a 36-hex reference, none of ours', { merchantReference: '0f9a1b2c3d4e4f508a6b7c8d9e0f1a2b3c4d' }, /merchantReference/],
    ['a negative amount', { amount: { value: -1, currency: 'BRL' } }, /amount.value/],
    ['another currency', { amount: { value: 1, currency: 'EUR' } }, /currency/],
    ['an event date that is not a date', { eventDate: 'yesterday' }, /eventDate/],
    ['a pspReference of another shape', { pspReference: 'abc' }, /pspReference/],
    ['an original reference of another shape', { originalReference: 'x'.repeat(20) }, /originalReference/],
    ['an event code of another shape', { eventCode: 'chargeback; drop' }, /eventCode/],
  ])('rejects %s, with its reason', (_what, over, reason) => {
    expect(adyenItemRejection(item(over as Partial<AdyenNotificationItem>))).toMatch(reason);
  });
});
