import { buildBoleto, formatLine } from '../../kernel/common/formats/boleto';
import { ProviderCallError } from '../../kernel/platform/http/resilient-http';
import {
  boletoPaymentRequest,
  boletoResultOf,
  shopperNameOf,
  UNKNOWN_BILLING_ADDRESS,
} from '../../src/provider/acquirer/adyen/adyen-boletos';
import { AdyenConfig } from '../../src/provider/acquirer/adyen/adyen.config';
import { boletoStatusOf } from '../../src/provider/acquirer/adyen/adyen-event-codes.map';
import { checkoutErrors } from '../support/adyen-contract';

const config = { merchantAccount: 'PagamentosBR', returnUrl: 'https://pay.example.com' } as AdyenConfig;
const slip = buildBoleto({ bankCode: '237', amountCents: 12345, dueDate: '2026-12-01', freeField: '1234090000000012300123450' });

/** The boleto's mapping to and from Adyen Checkout v72, pure. */
describe('boleto bancário as Adyen PaymentRequest and voucher', () => {
  const req = {
    transactionId: 'c0ffee00-0000-4000-8000-000000000001',
    merchantId: 'mer_1',
    amountCents: 12345,
    dueDate: '2026-12-01',
    payer: { name: '  Ana  Maria Souza ', taxId: '529.982.247-25' },
  };

  it('sends name, CPF digits, the placeholder address when none, the due date as deliverAt; valid against the file', () => {
    const body = boletoPaymentRequest(req, config);
    expect(body).toMatchObject({
      reference: req.transactionId,
      amount: { currency: 'BRL', value: 12345 },
      paymentMethod: { type: 'boletobancario' },
      shopperName: { firstName: 'Ana', lastName: 'Maria Souza' },
      socialSecurityNumber: '52998224725',
      billingAddress: UNKNOWN_BILLING_ADDRESS,
      deliverAt: '2026-12-01T23:59:59-03:00',
    });
    expect(checkoutErrors('PaymentRequest', body)).toEqual([]);
    const withAddress = boletoPaymentRequest(
      {
        ...req,
        payer: { ...req.payer, address: { street: 'Rua A', number: '10', city: 'São Paulo', state: 'sp', postalCode: '01310-100' } },
      },
      config,
    );
    expect(withAddress.billingAddress).toEqual({
      street: 'Rua A',
      houseNumberOrName: '10',
      city: 'São Paulo',
      postalCode: '01310100',
      stateOrProvince: 'SP',
      country: 'BR',
    });
    expect(checkoutErrors('PaymentRequest', withAddress)).toEqual([]);
  });

  it('splits a single name into the same first and last name, each at most 80 characters', () => {
    expect(shopperNameOf('Bruno')).toEqual({ firstName: 'Bruno', lastName: 'Bruno' });
    expect(shopperNameOf(`A ${'b'.repeat(100)}`).lastName).toHaveLength(80);
  });

  it('reads PresentToShopper with a voucher into line, barcode, due date and download link; no Pix QR', () => {
    const r = boletoResultOf(
      {
        pspReference: 'ABCDEF0123456789',
        resultCode: 'PresentToShopper',
        action: { type: 'voucher', reference: formatLine(slip.line), expiresAt: '2026-12-02T00:00:00', downloadUrl: 'https://x/b.pdf' },
      },
      '2026-12-01',
    );
    expect(r).toEqual({
      boletoId: 'ABCDEF0123456789',
      digitableLine: slip.line,
      barcode: slip.barcode,
      dueDate: '2026-12-02',
      downloadUrl: 'https://x/b.pdf',
      status: 'PENDING',
    });
  });

  it('refuses anything else: another resultCode, no voucher, a line with a wrong check digit', () => {
    const bad = slip.line.slice(0, 9) + String((Number(slip.line[9]) + 1) % 10) + slip.line.slice(10);
    const answers = [
      { pspReference: 'P', resultCode: 'Refused' as const },
      { pspReference: 'P', resultCode: 'PresentToShopper' as const },
      { pspReference: 'P', resultCode: 'PresentToShopper' as const, action: { type: 'voucher' as const, reference: bad } },
    ];
    for (const a of answers) expect(() => boletoResultOf(a, '2026-12-01')).toThrow(ProviderCallError);
  });

  it('maps a boleto attempt’s webhook events to the statuses links apply', () => {
    expect(boletoStatusOf('AUTHORISATION', true)).toBe('PAID');
    expect(boletoStatusOf('OFFER_CLOSED', true)).toBe('EXPIRED');
    expect(boletoStatusOf('CANCELLATION', true)).toBe('CANCELED');
    // a refused one is nothing links apply: no Adyen words are passed on past the edge
    expect(boletoStatusOf('AUTHORISATION', false)).toBeNull();
  });
});
