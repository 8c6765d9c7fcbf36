import { toCents } from '../../kernel/common/formats/money';
import { AppError } from '../../kernel/platform/errors/app-error';
import { resolveError } from '../../kernel/platform/errors/error-envelope';
import { FeeError } from './domain/fees';
import { validateSplits } from './domain/splits';
import { refusingFees } from './links.errors';

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('links: domain refusals answer on the request field they are about', () => {
  it('a fee the table refuses is fee_invalid on the field the amount came from, the fee code in the detail', () => {
    const e = caught(() =>
      refusingFees('amount', () => {
        throw new FeeError('fee_exceeds_amount', 'the fee is larger than the amount');
      }),
    );
    expect(e).toBeInstanceOf(AppError);
    expect(resolveError(e).body).toMatchObject({
      statusCode: 400,
      error: 'fee_invalid',
      message: 'This amount cannot be charged: the fee is larger than the amount',
      details: [{ field: 'amount', code: 'fee_exceeds_amount' }],
    });
  });

  it('an installment count the table has no rate for is installments_invalid on installments', () => {
    const e = caught(() =>
      refusingFees('amount', () => {
        throw new FeeError('fee_installments_invalid', '13x is not offered');
      }),
    );
    expect(resolveError(e).body).toMatchObject({
      error: 'installments_invalid',
      details: [{ field: 'installments', code: 'fee_installments_invalid' }],
    });
  });

  it("a merchant's own table: its amounts failing as money are fee_invalid on fees; on amount, money errors are not the fee's to answer", () => {
    const e = caught(() => refusingFees('fees', () => toCents(0.001)));
    expect(resolveError(e).body).toMatchObject({ error: 'fee_invalid', details: [{ field: 'fees' }] });
    const money = caught(() => refusingFees('amount', () => toCents(0.001)));
    expect(money).not.toBeInstanceOf(AppError);
    expect(resolveError(money).status).toBe(400);
  });

  it('anything else passes through untouched', () => {
    const boom = new TypeError('bug');
    expect(
      caught(() =>
        refusingFees('amount', () => {
          throw boom;
        }),
      ),
    ).toBe(boom);
  });

  it('a split refusal names the splits field by itself (no use case translates it)', () => {
    const e = caught(() => validateSplits([{ merchantId: 'mer_a', percentage: 50 } as never], 'mer_owner', 1000));
    expect(resolveError(e).body).toMatchObject({
      statusCode: 400,
      error: 'split_owner_missing',
      details: [{ field: 'splits', code: 'split_owner_missing' }],
    });
  });
});
