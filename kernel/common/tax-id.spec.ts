import { validateSync } from 'class-validator';
import { IsTaxId, isValidCnpj, isValidCpf, isValidTaxId, taxIdKind } from './tax-id';

/**
 * Independent check-digit computation, written from the published rule rather than copied from
 * the code under test: weights descend from (length + 1) for CPF; for CNPJ they run 5..2 then 9..2
 * (first digit) and 6..2 then 9..2 (second digit). Remainder < 2 gives 0, else 11 - remainder.
 */
function mod11(base: string, weights: number[]): string {
  const sum = weights.reduce((acc, w, i) => acc + Number(base[i]) * w, 0);
  const r = sum % 11;
  return String(r < 2 ? 0 : 11 - r);
}
function completeCpf(base9: string): string {
  const d1 = mod11(base9, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11(base9 + d1, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return base9 + d1 + d2;
}
function completeCnpj(base12: string): string {
  const d1 = mod11(base12, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11(base12 + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return base12 + d1 + d2;
}
/** Same id with its last check digit changed to the next digit (mod 10). */
function breakLastDigit(id: string): string {
  const last = (Number(id[id.length - 1]) + 1) % 10;
  return id.slice(0, -1) + String(last);
}
/** Same id with its first check digit changed. */
function breakFirstCheckDigit(id: string): string {
  const i = id.length - 2;
  return id.slice(0, i) + String((Number(id[i]) + 1) % 10) + id.slice(i + 1);
}

const WELL_KNOWN_CPF = ['52998224725', '11144477735', '12345678909', '39053344705'];
const WELL_KNOWN_CNPJ = [
  '11222333000181',
  '00000000000191', // Banco do Brasil
  '33000167000101', // Petrobras
  '60701190000104', // Itaú Unibanco
  '00360305000104', // Caixa Econômica Federal
];

const CPF_BASES = ['000000001', '123456789', '987654321', '100000000', '390533447', '456123789', '999999998', '014725836'];
const CNPJ_BASES = ['000000000001', '112223330001', '123456780001', '987654320001', '450000010002', '999999990001', '010203040506'];

describe('isValidCpf', () => {
  it.each(WELL_KNOWN_CPF)('accepts the well-known valid CPF %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each(CPF_BASES.map(completeCpf))('accepts the generated CPF %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each(CPF_BASES.map(completeCpf).flatMap((c) => [breakLastDigit(c), breakFirstCheckDigit(c)]))(
    'refuses %s (one check digit wrong)',
    (cpf) => {
      expect(isValidCpf(cpf)).toBe(false);
    },
  );

  it.each(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => d.repeat(11)))('refuses the all-same-digit CPF %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it.each([
    '529.982.247-25',
    '5299822472',
    '529982247250',
    '5299822472a',
    ' 52998224725',
    '52998224725 ',
    '５２９９８２２４７２５', // full-width digits
    '',
  ])('refuses the malformed value %p', (value) => {
    expect(isValidCpf(value)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isValidCpf(52998224725)).toBe(false);
    expect(isValidCpf(null)).toBe(false);
    expect(isValidCpf(undefined)).toBe(false);
  });
});

describe('isValidCnpj', () => {
  it.each(WELL_KNOWN_CNPJ)('accepts the well-known valid CNPJ %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each(CNPJ_BASES.map(completeCnpj))('accepts the generated CNPJ %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each(CNPJ_BASES.map(completeCnpj).flatMap((c) => [breakLastDigit(c), breakFirstCheckDigit(c)]))(
    'refuses %s (one check digit wrong)',
    (cnpj) => {
      expect(isValidCnpj(cnpj)).toBe(false);
    },
  );

  it.each(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => d.repeat(14)))('refuses the all-same-digit CNPJ %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it.each(['11.222.333/0001-81', '1122233300018', '112223330001810', '1122233300018X', '12ABC34501DE35', ''])(
    'refuses the malformed value %p',
    (value) => {
      expect(isValidCnpj(value)).toBe(false);
    },
  );
});

describe('isValidTaxId / taxIdKind', () => {
  it('routes 11 digits to CPF and 14 digits to CNPJ', () => {
    expect(taxIdKind('52998224725')).toBe('CPF');
    expect(taxIdKind('11222333000181')).toBe('CNPJ');
    expect(isValidTaxId('52998224725')).toBe(true);
    expect(isValidTaxId('11222333000181')).toBe(true);
  });

  it('does not accept a valid CPF padded to 14 digits or a CNPJ cut to 11', () => {
    expect(isValidTaxId('000' + '52998224725')).toBe(false);
    expect(isValidTaxId('11222333000')).toBe(false);
  });

  it.each(['', '1', '1234567890', '123456789012', '1234567890123', '123456789012345', '11111111111', '00000000000000', '529.982.247-25'])(
    'refuses %p',
    (value) => {
      expect(isValidTaxId(value)).toBe(false);
      expect(taxIdKind(value)).toBeNull();
    },
  );

  it('refuses non-strings', () => {
    expect(isValidTaxId(11222333000181)).toBe(false);
    expect(isValidTaxId({})).toBe(false);
    expect(isValidTaxId(undefined)).toBe(false);
  });
});

describe('@IsTaxId()', () => {
  class Payer {
    @IsTaxId()
    payerTaxId: unknown;
  }
  class Tagged {
    @IsTaxId({ message: 'custom' })
    payerTaxId: unknown;
  }
  class Many {
    @IsTaxId({ each: true })
    ids: unknown[];
  }

  function errorsOf<T extends object>(cls: new () => T, values: Partial<T>) {
    return validateSync(Object.assign(new cls(), values));
  }

  it('passes a valid CPF and a valid CNPJ', () => {
    expect(errorsOf(Payer, { payerTaxId: '52998224725' })).toHaveLength(0);
    expect(errorsOf(Payer, { payerTaxId: '11222333000181' })).toHaveLength(0);
  });

  it('fails an invalid value with the tax-id message', () => {
    const errors = errorsOf(Payer, { payerTaxId: '52998224726' });
    expect(errors).toHaveLength(1);
    expect(errors[0].property).toBe('payerTaxId');
    expect(errors[0].constraints).toEqual({
      isTaxId: 'payerTaxId must be 11 (CPF) or 14 (CNPJ) digits with valid check digits',
    });
  });

  it('fails a missing or non-string value', () => {
    expect(errorsOf(Payer, {})).toHaveLength(1);
    expect(errorsOf(Payer, { payerTaxId: 52998224725 })).toHaveLength(1);
  });

  it('honours a custom message', () => {
    expect(errorsOf(Tagged, { payerTaxId: 'x' })[0].constraints).toEqual({ isTaxId: 'custom' });
  });

  it('supports each: true', () => {
    expect(errorsOf(Many, { ids: ['52998224725', '11222333000181'] })).toHaveLength(0);
    const errors = errorsOf(Many, { ids: ['52998224725', '11111111111'] });
    expect(errors).toHaveLength(1);
    expect(errors[0].constraints?.isTaxId).toBe('each value in ids must be 11 (CPF) or 14 (CNPJ) digits with valid check digits');
  });
});
