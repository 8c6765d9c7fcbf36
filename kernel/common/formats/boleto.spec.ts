import fc from 'fast-check';
import {
  barcodeToLine,
  BoletoError,
  boletoMod11,
  buildBoleto,
  dueDateFactor,
  factorToDate,
  formatLine,
  itfBarcodeSvg,
  lineToBarcode,
  mod10,
  parseBoleto,
} from './boleto';

/**
 * Independent validator. Its typings (`vencimentoApos22022025`) do not match what it returns
 * at run time (`vencimentoComNovoFator2025`), so the shape used here is declared by hand.
 */
interface BoletoUtilsResult {
  sucesso: boolean;
  mensagem: string;
  tipoBoleto?: string;
  codigoBarras?: string;
  linhaDigitavel?: string;
  vencimento?: Date;
  vencimentoComNovoFator2025?: Date;
  valor?: number;
}
const boletoUtils: {
  validarBoleto(code: string): BoletoUtilsResult;
  codBarras2LinhaDigitavel(code: string, formatted: boolean): string;
  linhaDigitavel2CodBarras(code: string): string;
  calculaMod11(digits: string): number;
} = require('@mrmgomes/boleto-utils');

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const isoOf = (d: Date | undefined) => (d ? d.toISOString().slice(0, 10) : undefined);

/** Remainder of the FEBRABAN mod-11 sum, computed here independently of the module. */
function mod11Remainder(digits43: string): number {
  const weights = [2, 3, 4, 5, 6, 7, 8, 9];
  let sum = 0;
  [...digits43].reverse().forEach((c, i) => (sum += Number(c) * weights[i % 8]));
  return sum % 11;
}

function expectCode(fn: () => unknown, code: string): void {
  expect(fn).toThrow(BoletoError);
  try {
    fn();
  } catch (e) {
    expect((e as BoletoError).code).toBe(code);
  }
}

describe('dueDateFactor', () => {
  it('counts days since 1997-10-07 and restarts at 1000 on 2025-02-22', () => {
    expect(dueDateFactor('2000-07-03')).toBe(1000);
    expect(dueDateFactor('2000-07-04')).toBe(1001);
    expect(dueDateFactor('2025-02-21')).toBe(9999);
    expect(dueDateFactor('2025-02-22')).toBe(1000);
    expect(dueDateFactor('2025-02-23')).toBe(1001);
    expect(dueDateFactor('2035-01-01')).toBe(1000 + (day('2035-01-01') - day('2025-02-22')) / 86_400_000);
    expect(dueDateFactor(new Date('2025-02-22T23:59:59Z'))).toBe(1000);
    // second rollover: 9000 days after 2025-02-22
    const next = new Date(day('2025-02-22') + 9000 * 86_400_000).toISOString().slice(0, 10);
    expect(dueDateFactor(next)).toBe(1000);
  });

  it('rejects dates before factor 1000 and malformed dates', () => {
    expectCode(() => dueDateFactor('2000-07-02'), 'boleto_due_date_out_of_range');
    expectCode(() => dueDateFactor('2025-02-30'), 'boleto_due_date_invalid');
    expectCode(() => dueDateFactor('22/02/2025'), 'boleto_due_date_invalid');
    expectCode(() => dueDateFactor(new Date('nope')), 'boleto_due_date_invalid');
  });

  it('factorToDate picks the day nearest to the reference', () => {
    expect(factorToDate(1000, '2025-03-01')).toBe('2025-02-22');
    expect(factorToDate(9999, '2025-03-01')).toBe('2025-02-21');
    expect(factorToDate(1000, '2001-01-01')).toBe('2000-07-03');
    expectCode(() => factorToDate(999, '2025-01-01'), 'boleto_factor_invalid');
  });
});

describe('check digits', () => {
  it('mod10 and mod11 on a published barcode (boleto-utils README example)', () => {
    const barcode = '34196790600001000002220000005566385101214000';
    expect(boletoMod11(barcode.slice(0, 4) + barcode.slice(5))).toBe(6);
    expect(barcodeToLine(barcode)).toBe('34192220090000556638551012140003679060000100000');
    expect(lineToBarcode('34192.22009 00005.566385 51012.140003 6 79060000100000')).toBe(barcode);
    expect(mod10('341922200')).toBe(9);
  });

  it('uses 1 when 11 - remainder is 0, 10 or 11', () => {
    // remainders 0 and 1 both give DV 1
    const base = '3419' + '1000' + '0000010000';
    const free = Array.from({ length: 200 }, (_, i) => String(i).padStart(25, '0'));
    const zero = free.find((f) => mod11Remainder(base + f) === 0) as string;
    const one = free.find((f) => mod11Remainder(base + f) === 1) as string;
    expect(boletoMod11(base + zero)).toBe(1);
    expect(boletoMod11(base + one)).toBe(1);
  });
});

describe('buildBoleto', () => {
  it('builds barcode and line for a due date after the 2025 rollover', () => {
    const b = buildBoleto({ bankCode: '237', amountCents: 123_45, dueDate: '2025-03-10', freeField: '1234567890123456789012345' });
    expect(b.barcode).toHaveLength(44);
    expect(b.line).toHaveLength(47);
    expect(b.barcode.slice(5, 9)).toBe('1016');
    expect(b.barcode.slice(9, 19)).toBe('0000012345');
    expect(b.formattedLine).toBe(formatLine(b.line));
    expect(b.formattedLine).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    expect(lineToBarcode(b.formattedLine)).toBe(b.barcode);
    expect(parseBoleto(b.line, '2025-01-01')).toMatchObject({
      bankCode: '237',
      currency: '9',
      dueDateFactor: 1016,
      dueDate: '2025-03-10',
      amountCents: 12345,
      freeField: '1234567890123456789012345',
      barcode: b.barcode,
    });
  });

  it('uses factor 0000 when there is no due date', () => {
    const b = buildBoleto({ bankCode: '001', amountCents: 5000, dueDate: null, freeField: '0'.repeat(25) });
    expect(b.barcode.slice(5, 9)).toBe('0000');
    expect(parseBoleto(b.barcode).dueDate).toBeUndefined();
  });

  it('rejects bad input with typed errors', () => {
    const ok = { bankCode: '341', amountCents: 100, dueDate: '2026-01-10', freeField: '1'.repeat(25) };
    expectCode(() => buildBoleto({ ...ok, bankCode: '34' }), 'boleto_bank_code_invalid');
    expectCode(() => buildBoleto({ ...ok, bankCode: '856' }), 'boleto_bank_code_invalid');
    expectCode(() => buildBoleto({ ...ok, amountCents: -1 }), 'boleto_amount_invalid');
    expectCode(() => buildBoleto({ ...ok, amountCents: 10_000_000_000 }), 'boleto_amount_invalid');
    expectCode(() => buildBoleto({ ...ok, amountCents: 1.5 }), 'boleto_amount_invalid');
    expectCode(() => buildBoleto({ ...ok, freeField: '123' }), 'boleto_free_field_invalid');
    expectCode(() => buildBoleto({ ...ok, dueDate: '1999-01-01' }), 'boleto_due_date_out_of_range');
  });

  it('detects a mistyped line or barcode', () => {
    const b = buildBoleto({ bankCode: '104', amountCents: 9990, dueDate: '2027-05-05', freeField: '9876543210987654321098765' });
    const flip = (s: string, i: number) => s.slice(0, i) + ((Number(s[i]) + 1) % 10) + s.slice(i + 1);
    expectCode(() => lineToBarcode(flip(b.line, 2)), 'boleto_line_dv_mismatch');
    expectCode(() => lineToBarcode(flip(b.line, 12)), 'boleto_line_dv_mismatch');
    expectCode(() => lineToBarcode(flip(b.line, 25)), 'boleto_line_dv_mismatch');
    expectCode(() => lineToBarcode(flip(b.line, 40)), 'boleto_barcode_dv_mismatch');
    expectCode(() => barcodeToLine(flip(b.barcode, 30)), 'boleto_barcode_dv_mismatch');
    expectCode(() => barcodeToLine('123'), 'boleto_barcode_invalid');
    expectCode(() => lineToBarcode('123'), 'boleto_line_invalid');
  });
});

describe('agreement with @mrmgomes/boleto-utils', () => {
  const bankArb = fc.integer({ min: 1, max: 799 }).map((n) => String(n).padStart(3, '0'));
  const freeArb = fc.stringMatching(/^\d{25}$/);
  const amountArb = fc.oneof(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 9_999_999_999 }));
  const seen = { libraryDvZero: 0, agreed: 0 };
  const dateArb = (from: string, to: string) =>
    fc.integer({ min: day(from) / 86_400_000, max: day(to) / 86_400_000 }).map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));

  function checkAgainstLibrary(bankCode: string, amountCents: number, dueDate: string, freeField: string, newFactor: boolean) {
    const b = buildBoleto({ bankCode, amountCents, dueDate, freeField });
    const dueOf = (r: BoletoUtilsResult) => isoOf(newFactor ? r.vencimentoComNovoFator2025 : r.vencimento);
    // The library strips leading zeros of "XXXXXXXX.XX" by looking at the second character, so
    // from R$ 10,000,000.00 up it can drop the first digit ("30000000.00" -> 0). Below that it
    // reads amounts correctly; above it the amount digits are compared directly.
    const amountOf = (r: BoletoUtilsResult) =>
      amountCents < 1_000_000_000 ? Math.round((r.valor as number) * 100) : Number(b.barcode.slice(9, 19));

    // The line: the library checks the three field DVs and reads amount and due date.
    const fromLine = boletoUtils.validarBoleto(b.line);
    expect(fromLine.sucesso).toBe(true);
    expect(['BANCO', 'CARTAO_DE_CREDITO']).toContain(fromLine.tipoBoleto);
    expect(fromLine.codigoBarras).toBe(b.barcode);
    expect(amountOf(fromLine)).toBe(amountCents);
    expect(dueOf(fromLine)).toBe(dueDate);
    expect(boletoUtils.codBarras2LinhaDigitavel(b.barcode, false)).toBe(b.line);
    expect(boletoUtils.linhaDigitavel2CodBarras(b.line)).toBe(b.barcode);

    // The barcode: the library's mod 11 maps remainders 0 and 1 to DV 0 (the arrecadação
    // rule); FEBRABAN cobrança maps them to 1. Everywhere else the library must agree.
    const body43 = b.barcode.slice(0, 4) + b.barcode.slice(5);
    const fromBarcode = boletoUtils.validarBoleto(b.barcode);
    if (mod11Remainder(body43) > 1) {
      expect(fromBarcode.sucesso).toBe(true);
      expect(fromBarcode.linhaDigitavel).toBe(b.line);
      expect(amountOf(fromBarcode)).toBe(amountCents);
      expect(dueOf(fromBarcode)).toBe(dueDate);
      seen.agreed++;
    } else {
      seen.libraryDvZero++;
      expect(b.generalDv).toBe(1);
      expect(boletoUtils.calculaMod11(body43)).toBe(0);
      expect(fromBarcode.sucesso).toBe(false);
    }
    expect(parseBoleto(b.barcode, dueDate)).toMatchObject({ amountCents, dueDate, bankCode, freeField, line: b.line });
  }

  it('agrees on amount and due date after the 2025 rollover (2025-02-22..2035-12-31)', () => {
    fc.assert(
      fc.property(bankArb, amountArb, dateArb('2025-02-22', '2035-12-31'), freeArb, (bank, amount, date, free) =>
        checkAgainstLibrary(bank, amount, date, free, true),
      ),
      { numRuns: 500 },
    );
  });

  it('agrees on amount and due date before the rollover (2000-07-03..2025-02-21)', () => {
    fc.assert(
      fc.property(bankArb, amountArb, dateArb('2000-07-03', '2025-02-21'), freeArb, (bank, amount, date, free) =>
        checkAgainstLibrary(bank, amount, date, free, false),
      ),
      { numRuns: 200 },
    );
  });

  it('exercised both the agreeing and the remainder 0/1 cases', () => {
    expect(seen.agreed).toBeGreaterThan(0);
    expect(seen.libraryDvZero).toBeGreaterThan(0);
  });

  it('round-trips barcode and line', () => {
    fc.assert(
      fc.property(bankArb, amountArb, dateArb('2025-02-22', '2035-12-31'), freeArb, (bankCode, amountCents, dueDate, freeField) => {
        const b = buildBoleto({ bankCode, amountCents, dueDate, freeField });
        expect(lineToBarcode(b.line)).toBe(b.barcode);
        expect(barcodeToLine(b.barcode)).toBe(b.line);
        expect(factorToDate(b.dueDateFactor, dueDate)).toBe(dueDate);
      }),
    );
  });
});

describe('itfBarcodeSvg', () => {
  /** Decodes the SVG back to digits; digit value from wide-element weights 1,2,4,7,0 (11 means 0). */
  function decodeItf(svg: string): string {
    const bars = [...svg.matchAll(/<rect x="([\d.]+)" y="0" width="([\d.]+)"/g)].map((m) => ({ x: Number(m[1]), w: Number(m[2]) }));
    const elements: number[] = [];
    bars.forEach((b, i) => {
      elements.push(b.w);
      if (i < bars.length - 1) elements.push(Number((bars[i + 1].x - b.x - b.w).toFixed(3)));
    });
    const wide = elements.map((w) => w > 1.5);
    expect(wide.slice(0, 4)).toEqual([false, false, false, false]);
    expect(wide.slice(-3)).toEqual([true, false, false]);
    const body = wide.slice(4, -3);
    const digitOf = (flags: boolean[]) => {
      expect(flags.filter(Boolean)).toHaveLength(2);
      const v = [1, 2, 4, 7, 0].reduce((s, wgt, k) => s + (flags[k] ? wgt : 0), 0);
      return v === 11 ? 0 : v;
    };
    let out = '';
    for (let i = 0; i < body.length; i += 10) {
      const chunk = body.slice(i, i + 10);
      out += digitOf(chunk.filter((_, k) => k % 2 === 0));
      out += digitOf(chunk.filter((_, k) => k % 2 === 1));
    }
    return out;
  }

  it('draws start, 22 digit pairs and stop that decode to the barcode', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 799 }),
        fc.integer({ min: 0, max: 9_999_999_999 }),
        fc.stringMatching(/^\d{25}$/),
        (bank, amount, free) => {
          const b = buildBoleto({ bankCode: String(bank).padStart(3, '0'), amountCents: amount, dueDate: '2026-06-30', freeField: free });
          const svg = itfBarcodeSvg(b.barcode);
          expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
          expect(decodeItf(svg)).toBe(b.barcode);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('honours size options and refuses an invalid barcode', () => {
    const b = buildBoleto({ bankCode: '001', amountCents: 1, dueDate: '2026-01-01', freeField: '0'.repeat(25) });
    // 4 start + 44 digits * 5 elements with two wide each + stop (W,N,N) = 4 + 22*(6N + 4W) + 3 + 2W; plus 2 quiet zones of 10
    const units = 4 + 22 * (6 + 4 * 3) + 2 + 3 + 20;
    expect(itfBarcodeSvg(b.barcode)).toContain(`viewBox="0 0 ${units} `);
    expect(itfBarcodeSvg(b.barcode, { ratio: 2.5, heightMm: 10 })).toContain('height="10mm"');
    expectCode(() => itfBarcodeSvg(b.barcode.slice(0, 43)), 'boleto_barcode_invalid');
  });
});
