import fc from 'fast-check';
import { parsePix, hasError, PixElementType } from 'pix-utils';
import { computeCRC } from 'pix-utils/dist/main/crc';
import { asciiFold, BrCodeError, brCodeQrPngDataUrl, brCodeQrSvg, buildBrCode, crc16ccitt, parseBrCode } from './brcode';

const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BrCodeError);
    expect((e as BrCodeError).code).toBe(code);
    return;
  }
  throw new BrCodeError('brcode_malformed', `expected ${code} to be thrown`);
}

/** Parses with the independent pix-utils parser and fails the test on its error. */
function pixUtilsParse(payload: string): any {
  const parsed = parsePix(payload);
  if (hasError(parsed as any)) throw new BrCodeError('brcode_malformed', `pix-utils rejected ${payload}: ${(parsed as any).message}`);
  return parsed;
}

describe('crc16ccitt', () => {
  it('matches the CRC-16/CCITT-FALSE check value', () => {
    expect(crc16ccitt('123456789')).toBe('29B1');
    expect(crc16ccitt('')).toBe('FFFF');
  });

  it('agrees with pix-utils on random ASCII text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...' 0123456789ABCDEFabcxyz*.@-/'.split('')), maxLength: 120 }), (s) => {
        fc.pre(!/6304\w{4}$/.test(s)); // pix-utils strips such a suffix before computing
        expect(crc16ccitt(s)).toBe(computeCRC(s));
      }),
    );
  });
});

describe('buildBrCode', () => {
  it('reproduces the Central Bank manual example byte for byte', () => {
    const code = buildBrCode({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    expect(code).toBe(BCB_EXAMPLE);
  });

  it('reproduces the pix-utils README static example (amount and description)', () => {
    const code = buildBrCode({
      key: 'nubank@thalesog.com',
      description: 'Gerado por Pix-Utils',
      amountCents: 100,
      merchantName: 'Thales Ogliari',
      merchantCity: 'Sao Paulo',
    });
    expect(code).toBe(
      '00020126650014br.gov.bcb.pix0119nubank@thalesog.com0220Gerado por Pix-Utils52040000530398654041.005802BR5914Thales Ogliari6009Sao Paulo62070503***63046069',
    );
  });

  it('emits point of initiation 12 for single use, and pix-utils reads the code', () => {
    const code = buildBrCode({
      key: '12345678909',
      merchantName: 'Loja',
      merchantCity: 'Recife',
      amountCents: 2550,
      txid: 'PEDIDO123',
      singleUse: true,
    });
    expect(code.startsWith('000201010212')).toBe(true);
    const p = pixUtilsParse(code);
    expect(p).toMatchObject({ type: PixElementType.STATIC, pixKey: '12345678909', transactionAmount: 25.5, txid: 'PEDIDO123' });
    expect(parseBrCode(code)).toMatchObject({ singleUse: true, pointOfInitiation: '12', amountCents: 2550, txid: 'PEDIDO123' });
  });

  it('builds a dynamic code with the URL without scheme and txid ***', () => {
    const code = buildBrCode({
      url: 'https://pix.example.com/qr/v2/cobv/9d36b84f',
      merchantName: 'Loja Exemplo',
      merchantCity: 'Sao Paulo',
      amountCents: 1000,
      singleUse: true,
    });
    const p = pixUtilsParse(code);
    expect(p.type).toBe(PixElementType.DYNAMIC);
    expect(p.url).toBe('pix.example.com/qr/v2/cobv/9d36b84f');
    expect(parseBrCode(code)).toMatchObject({
      type: 'DYNAMIC',
      url: 'pix.example.com/qr/v2/cobv/9d36b84f',
      txid: '***',
      amountCents: 1000,
    });
    expectCode(() => buildBrCode({ url: 'pix.example.com/x', merchantName: 'A', merchantCity: 'B', txid: 'ABC' }), 'brcode_txid_invalid');
    expectCode(() => buildBrCode({ url: 'http://pix.example.com/x', merchantName: 'A', merchantCity: 'B' }), 'brcode_url_invalid');
    expectCode(
      () => buildBrCode({ url: 'pix.example.com/x', merchantName: 'A', merchantCity: 'B', description: 'no' }),
      'brcode_description_invalid',
    );
  });

  it('folds merchant name and city to ASCII and cuts them to 25 and 15 characters', () => {
    expect(asciiFold('  Açaí  da   Conceição ')).toBe('Acai da Conceicao');
    expect(asciiFold('Straße 😀 Ñandú')).toBe('Strae Nandu');
    const code = buildBrCode({
      key: 'loja@example.com',
      merchantName: 'Padaria e Confeitaria São João do Pará Ltda',
      merchantCity: 'São José dos Campos',
    });
    const p = parseBrCode(code);
    expect(p.merchantName).toBe('Padaria e Confeitaria Sao');
    expect(p.merchantCity).toBe('Sao Jose dos Ca');
    expect(pixUtilsParse(code).merchantName).toBe('Padaria e Confeitaria Sao');
  });

  it('rejects invalid input with typed errors', () => {
    const base = { merchantName: 'Loja', merchantCity: 'Recife' };
    expectCode(() => buildBrCode(base), 'brcode_key_or_url_required');
    expectCode(() => buildBrCode({ ...base, key: 'a@b.c', url: 'x.y/z' }), 'brcode_key_or_url_required');
    expectCode(() => buildBrCode({ ...base, key: 'has space' }), 'brcode_key_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k'.repeat(78) }), 'brcode_key_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k', amountCents: 0 }), 'brcode_amount_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k', amountCents: 1.5 }), 'brcode_amount_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k', amountCents: 1e13 }), 'brcode_amount_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k', txid: 'with-dash' }), 'brcode_txid_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k', txid: 'A'.repeat(26) }), 'brcode_txid_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k', merchantName: '😀' }), 'brcode_merchant_name_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k', merchantCity: ' ' }), 'brcode_merchant_city_invalid');
    expectCode(() => buildBrCode({ ...base, key: 'k'.repeat(70), description: 'd'.repeat(20) }), 'brcode_field_too_long');
  });
});

describe('parseBrCode', () => {
  it('parses the Central Bank example', () => {
    expect(parseBrCode(BCB_EXAMPLE)).toMatchObject({
      payloadFormatIndicator: '01',
      singleUse: false,
      type: 'STATIC',
      key: '123e4567-e12b-12d1-a456-426655440000',
      mcc: '0000',
      currency: '986',
      countryCode: 'BR',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      txid: '***',
      crc: '1D3D',
    });
    expect(parseBrCode(BCB_EXAMPLE).amountCents).toBeUndefined();
  });

  it('rejects a wrong CRC, a broken TLV and a non-Pix account', () => {
    expectCode(() => parseBrCode(BCB_EXAMPLE.slice(0, -4) + '1D3E'), 'brcode_crc_mismatch');
    const tampered = BCB_EXAMPLE.replace('Fulano', 'Fulana');
    expectCode(() => parseBrCode(tampered), 'brcode_crc_mismatch');
    expectCode(() => parseBrCode('0002010'), 'brcode_malformed');
    expectCode(() => parseBrCode(''), 'brcode_malformed');
    const notPix = '000201' + '2618' + '0014br.gov.bcb.xyz' + '52040000530398658' + '02BR5901A6001B6304';
    expectCode(() => parseBrCode(notPix + crc16ccitt(notPix)), 'brcode_not_pix');
  });
});

describe('BR Code properties (checked by pix-utils)', () => {
  const txidArb = fc.oneof(fc.constant('***'), fc.stringMatching(/^[A-Za-z0-9]{1,25}$/));
  const textArb = fc.string({ unit: fc.constantFrom(...'abcXYZ áéíõçÃÉ-&.0123456789'.split('')), minLength: 1, maxLength: 40 });
  const keyArb = fc.oneof(
    fc.stringMatching(/^\d{11}$/),
    fc.stringMatching(/^\d{14}$/),
    fc.stringMatching(/^\+55\d{11}$/),
    fc.uuid(),
    fc.emailAddress().filter((e) => e.length <= 77),
  );

  it('every static code parses identically in pix-utils and here, with a valid CRC', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.option(fc.integer({ min: 1, max: 99_999_999_999 }), { nil: undefined }),
        txidArb,
        textArb,
        textArb,
        fc.boolean(),
        (key, amountCents, txid, name, city, singleUse) => {
          fc.pre(asciiFold(name) !== '' && asciiFold(city) !== '');
          const code = buildBrCode({ key, amountCents, txid, merchantName: name, merchantCity: city, singleUse });
          const ours = parseBrCode(code);
          const theirs = pixUtilsParse(code);
          expect(theirs.type).toBe(PixElementType.STATIC);
          expect(theirs.pixKey).toBe(key);
          expect(ours.key).toBe(key);
          expect(Math.round(theirs.transactionAmount * 100)).toBe(amountCents ?? 0);
          expect(ours.amountCents).toBe(amountCents);
          expect(theirs.txid).toBe(txid);
          expect(ours.txid).toBe(txid);
          expect(theirs.merchantName).toBe(asciiFold(name, 25));
          expect(ours.merchantName).toBe(theirs.merchantName);
          expect(theirs.merchantCity).toBe(asciiFold(city, 15));
          expect(ours.merchantCity).toBe(theirs.merchantCity);
          expect(theirs.merchantCategoryCode).toBe('0000');
          expect(theirs.transactionCurrency).toBe('986');
          expect(theirs.countryCode).toBe('BR');
          expect(ours.singleUse).toBe(singleUse);
          expect(ours.crc).toBe(computeCRC(code));
          expect(code.slice(-8, -4)).toBe('6304');
          // pix-utils re-serialises (upper-casing name and city, never emitting field 01) to the same bytes
          const upper = { merchantName: asciiFold(name, 25).toUpperCase(), merchantCity: asciiFold(city, 15).toUpperCase() };
          expect(theirs.toBRCode()).toBe(buildBrCode({ key, amountCents, txid, ...upper }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every dynamic code parses in pix-utils with the same URL', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['https'] }).filter((u) => u.length <= 85 && !/\s/.test(u)),
        textArb,
        textArb,
        (url, name, city) => {
          fc.pre(asciiFold(name) !== '' && asciiFold(city) !== '');
          const code = buildBrCode({ url, merchantName: name, merchantCity: city });
          const theirs = pixUtilsParse(code);
          const bare = url.replace(/^https:\/\//, '');
          expect(theirs.type).toBe(PixElementType.DYNAMIC);
          expect(theirs.url).toBe(bare);
          expect(parseBrCode(code)).toMatchObject({ type: 'DYNAMIC', url: bare, txid: '***' });
          const upper = { merchantName: asciiFold(name, 25).toUpperCase(), merchantCity: asciiFold(city, 15).toUpperCase() };
          expect(theirs.toBRCode()).toBe(buildBrCode({ url, ...upper }));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('QR rendering', () => {
  it('renders SVG and PNG data URL for a valid code and refuses an invalid one', async () => {
    const svg = await brCodeQrSvg(BCB_EXAMPLE);
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(svg).toContain('<path');
    const png = await brCodeQrPngDataUrl(BCB_EXAMPLE);
    expect(png.startsWith('data:image/png;base64,')).toBe(true);
    const bytes = Buffer.from(png.slice('data:image/png;base64,'.length), 'base64');
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    await expect(brCodeQrSvg(BCB_EXAMPLE.slice(0, -1) + 'E')).rejects.toMatchObject({ code: 'brcode_crc_mismatch' });
  });
});
