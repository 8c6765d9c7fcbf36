import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cardResultOf, REFUSAL_REASONS, RESULT_CODES, resultMeaning } from '../../src/provider/acquirer/adyen/adyen-result.map';
import {
  adyenHmacKey,
  adyenSigningString,
  AdyenNotificationItem,
  signAdyenItem,
  verifyAdyenItem,
} from '../../kernel/common/protocols/adyen';
import { paymentRequest } from '../../src/provider/acquirer/adyen/adyen-acquirer';
import { AdyenConfig } from '../../src/provider/acquirer/adyen/adyen.config';
import { checkoutErrors, webhookErrors } from '../support/adyen-contract';

const checkout = parse(readFileSync(join(__dirname, '..', 'fixtures', 'adyen', 'CheckoutService-v72.yaml'), 'utf8'));

describe('Adyen result codes as the spec statuses (pure table)', () => {
  it("covers exactly the file's resultCode enum", () => {
    expect(Object.keys(RESULT_CODES).sort()).toEqual([...checkout.components.schemas.PaymentResponse.properties.resultCode.enum].sort());
  });

  const expected: Record<string, [string, string | undefined]> = {
    Authorised: ['ACCEPTED', undefined],
    Refused: ['AUTH_REJECTED', 'generic_decline'],
    Error: ['FAILED', 'processing_error'],
    Cancelled: ['FAILED', 'processing_error'],
    Pending: ['FAILED', 'acquirer_unavailable'],
    Received: ['FAILED', 'acquirer_unavailable'],
    PresentToShopper: ['FAILED', 'acquirer_unavailable'],
    IdentifyShopper: ['FAILED', 'processing_error'],
    ChallengeShopper: ['FAILED', 'processing_error'],
    RedirectShopper: ['FAILED', 'processing_error'],
    PartiallyAuthorised: ['AUTH_REJECTED', 'generic_decline'],
    AuthenticationFinished: ['FAILED', 'processing_error'],
    AuthenticationNotRequired: ['FAILED', 'processing_error'],
    Success: ['FAILED', 'processing_error'],
  };
  it.each(Object.keys(RESULT_CODES))('%s (sale and pre-authorization)', (code) => {
    const sale = cardResultOf({ pspReference: 'P', resultCode: code }, 'SALE');
    expect([sale.status, sale.reason]).toEqual(expected[code]);
    const pre = cardResultOf({ pspReference: 'P', resultCode: code }, 'PREAUTH');
    expect(pre.status).toBe(code === 'Authorised' ? 'PREAUTH' : expected[code][0]);
  });

  // the boleto and the 3DS steps read the same table: one success code each, every other code their failure
  it.each(Object.keys(RESULT_CODES))('%s for the boleto and the 3DS steps', (code) => {
    const m = resultMeaning(code);
    expect(m.boleto).toBe(code === 'PresentToShopper' ? 'issued' : 'not_issued');
    const threeDs: Record<string, string> = {
      IdentifyShopper: 'fingerprint',
      ChallengeShopper: 'challenge',
      AuthenticationFinished: 'finished',
    };
    expect(m.threeDs).toBe(threeDs[code] ?? 'failed');
  });

  it("reads an absent or unknown code as every flow's failure", () => {
    for (const code of [undefined, '', 'NewCode', 'toString'])
      expect(resultMeaning(code)).toEqual({
        card: { kind: 'failed', reason: 'processing_error' },
        boleto: 'not_issued',
        threeDs: 'failed',
      });
  });

  it('reads refusal reasons as the six card codes; unknown codes and reasons are the safe answer', () => {
    expect(new Set(Object.values(REFUSAL_REASONS))).toEqual(
      new Set(['generic_decline', 'insufficient_funds', 'invalid_card', 'expired_card']),
    );
    const r = (refusalReason: string) => cardResultOf({ resultCode: 'Refused', refusalReason }, 'SALE').reason;
    expect([r('Not enough balance'), r('Expired Card'), r('CVC Declined'), r('Do Not Honor'), r('Something new')]).toEqual([
      'insufficient_funds',
      'expired_card',
      'invalid_card',
      'generic_decline',
      'generic_decline',
    ]);
    expect(cardResultOf({ resultCode: 'Error', refusalReason: 'Issuer Unavailable' }, 'SALE')).toMatchObject({
      status: 'FAILED',
      reason: 'acquirer_unavailable',
    });
    expect(cardResultOf({ resultCode: 'NewCode' }, 'SALE')).toMatchObject({ status: 'FAILED', reason: 'processing_error' });
    expect(cardResultOf({ resultCode: 'Authorised', additionalData: { authCode: '012345' } }, 'SALE')).toMatchObject({
      authorizationCode: '012345',
    });
  });
});

describe('Adyen webhook HMAC', () => {
  const item: AdyenNotificationItem = {
    pspReference: '7914073381342284',
    merchantAccountCode: 'TestMerchant',
    merchantReference: 'TestPayment-1407325143704',
    amount: { value: 1130, currency: 'EUR' },
    eventCode: 'AUTHORISATION',
    success: 'true',
    eventDate: '2019-05-06T17:15:34.121+02:00',
  };
  const key = adyenHmacKey('44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056');

  it("signs Adyen's documented example as Adyen's libraries do", () => {
    expect(adyenSigningString(item)).toBe('7914073381342284::TestMerchant:TestPayment-1407325143704:1130:EUR:AUTHORISATION:true');
    expect(signAdyenItem(key, item)).toBe('coqCmt/IZ4E3CzPvMY8zTjQVL5hYJUiBRg8UU+iCWo0=');
  });

  it('verifies a signed item and refuses any changed field, a missing signature or another key', () => {
    const signed = { ...item, additionalData: { hmacSignature: signAdyenItem(key, item) } };
    expect(verifyAdyenItem(key, signed)).toBe(true);
    expect(verifyAdyenItem(key, { ...signed, success: 'false' })).toBe(false);
    expect(verifyAdyenItem(key, { ...signed, amount: { value: 1131, currency: 'EUR' } })).toBe(false);
    expect(verifyAdyenItem(key, item)).toBe(false);
    expect(verifyAdyenItem(adyenHmacKey('00'.repeat(32)), signed)).toBe(false);
  });
});

describe('named exceptions to the vendored files (each fails against the file as written)', () => {
  const config = { merchantAccount: 'M', returnUrl: 'https://shop.example/return' } as AdyenConfig;
  const body = paymentRequest(
    {
      transactionId: 'pay_1',
      merchantId: 'm',
      amountCents: 100,
      installments: 2,
      capture: 'SALE',
      card: { pan: '4111111111111111', expMonth: 3, expYear: 2030, cvv: '737' },
      threeDs: { cavv: 'AAAB', eci: '05', dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b', status: 'Y' },
    },
    config,
  );

  it('PaymentRequest is taken as written (no exception): our card request passes, and one without returnUrl does not', () => {
    expect(checkoutErrors('PaymentRequest', body)).toEqual([]);
    const { returnUrl: _dropped, ...noReturn } = body;
    expect(checkoutErrors('PaymentRequest', noReturn).join('\n')).toMatch(/returnUrl/);
  });

  it('NotificationAdditionalData.hmacSignature: the closed object refuses the signature Adyen documents', () => {
    const signed = {
      live: 'false',
      notificationItems: [
        {
          NotificationRequestItem: {
            pspReference: 'P',
            merchantAccountCode: 'M',
            merchantReference: 'R',
            eventCode: 'AUTHORISATION',
            eventDate: '2026-11-26T10:00:00+00:00',
            success: 'true',
            amount: { value: 1, currency: 'BRL' },
            additionalData: { hmacSignature: 'x' },
          },
        },
      ],
    };
    expect(webhookErrors(signed, 'NotificationRequest', false).join('\n')).toMatch(/hmacSignature/);
    expect(webhookErrors(signed)).toEqual([]);
  });

  it('the 3DS result of our own 3DS server travels as mpiData (ThreeDSecureData)', () => {
    expect(body.mpiData).toEqual({
      cavv: 'AAAB',
      eci: '05',
      dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      authenticationResponse: 'Y',
      threeDSVersion: '2.2.0',
    });
    expect(checkoutErrors('ThreeDSecureData', body.mpiData)).toEqual([]);
  });
});
