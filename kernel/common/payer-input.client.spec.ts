import { payerInputMain } from './payer-input.client';
import { isLuhnValid } from './formats/pan';

/** The shared input formatting, run as the browser runs it (a global `window`). */
describe('payer input formatting', () => {
  let PI: any;
  beforeAll(() => {
    (global as any).window = {};
    payerInputMain(isLuhnValid);
    PI = (global as any).window.PayerInput;
  });
  afterAll(() => delete (global as any).window);

  it("checks a card number with the server's Luhn (a test card passes, one digit off fails)", () => {
    expect(PI.luhn('4111111111111111')).toBe(true);
    expect(PI.luhn('4111111111111112')).toBe(false);
  });

  it('formats the expiry from digits alone (numeric keypad)', () => {
    expect(['1', '12', '123', '1230', '12/30', '12/2030', '4', '0', '1a2b3c0'].map(PI.expiry)).toEqual([
      '1',
      '12',
      '12/3',
      '12/30',
      '12/30',
      '12/30',
      '04',
      '0',
      '12/30',
    ]);
  });

  it('groups card numbers (Amex 4-6-5) and masks CPF and CNPJ', () => {
    expect(PI.cardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(PI.cardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(PI.taxId('529982247')).toBe('529.982.247');
    expect(PI.taxId('52998224725')).toBe('529.982.247-25');
    expect(PI.taxId('11222333000181')).toBe('11.222.333/0001-81');
  });
});
