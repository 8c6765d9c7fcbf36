import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  Allow,
  getMetadataStorage,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Min,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatePromise,
  validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  ValidatorOptions,
} from 'class-validator';
import { NestedArray, NestedObject } from '../../common/dto/nested';
import { CreateRecurrenceDto } from '../../../src/pix-automatic/dto/recurrence.dto';
import { BankRecurrenceRequestDto } from '../../../sandbox/src/bank/bank-api.dto';
import { memoizeValidationMetadata } from './validation-metadata';
import { ValidationAcceptance } from './validation-acceptance';

// The options the app's pipe gives class-validator (app.factory.ts).
const APP: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false } };

class Item {
  @IsString()
  @Length(1, 5)
  code: string;
}

class Address {
  @IsString()
  street: string;
  @IsOptional()
  @IsInt()
  number?: number;
}

class Order {
  @IsInt()
  @Min(1)
  quantity: number;
  @IsIn(['A', 'B'])
  kind: string;
  @IsOptional()
  @IsString()
  note?: string | null;
  @NestedObject(() => Address)
  address: Address;
  @IsOptional()
  @NestedArray(() => Item)
  items?: Item[];
  @IsOptional()
  @IsString({ each: true })
  tags?: string[];
  @ValidateIf((o: Order) => o.kind === 'B')
  @IsString()
  reason?: string;
  @IsDefined()
  @Allow()
  anything: unknown;
}

class Child extends Order {
  @IsInt()
  extra: number;
}

@ValidatorConstraint({ name: 'even', async: false })
class Even implements ValidatorConstraintInterface {
  validate(v: unknown) {
    return typeof v === 'number' && v % 2 === 0;
  }
}

@ValidatorConstraint({ name: 'later', async: true })
class Later implements ValidatorConstraintInterface {
  validate(v: unknown) {
    return Promise.resolve(v === 'ok');
  }
}

class WithCustom {
  @Validate(Even)
  n: number;
}

class WithAsync {
  @Validate(Later)
  s: string;
}

class WithPromise {
  @ValidatePromise()
  @IsString()
  p: unknown;
}

class Loose {
  @ValidateNested()
  inner: unknown;
}

const goodOrder = {
  quantity: 2,
  kind: 'A',
  address: { street: 'Rua A', number: 10 },
  items: [{ code: 'x' }, { code: 'yy' }],
  tags: ['a', 'b'],
  anything: 0,
};

/** Every way of spoiling one field of `base`: gone, null, the wrong type, too long, a stranger beside it. */
function spoiled(base: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{}, { ...base, stranger: 1 }];
  for (const k of Object.keys(base)) {
    const { [k]: _gone, ...without } = base;
    out.push(
      without,
      { ...base, [k]: null },
      { ...base, [k]: 7 },
      { ...base, [k]: 'x'.repeat(300) },
      { ...base, [k]: [] },
      { ...base, [k]: {} },
    );
    const v = base[k];
    if (v && typeof v === 'object' && !Array.isArray(v))
      for (const inner of spoiled(v as Record<string, unknown>)) out.push({ ...base, [k]: inner });
    if (Array.isArray(v) && v.length && typeof v[0] === 'object') {
      out.push({ ...base, [k]: [...v, null] }, { ...base, [k]: [...v, 1] });
      out.push({ ...base, [k]: [{ ...v[0], stranger: 1 }] }, { ...base, [k]: [{}] });
    }
  }
  return out;
}

async function agrees(cls: new () => object, plain: unknown, options: ValidatorOptions = APP): Promise<boolean> {
  const entity = plainToInstance(cls, plain as object) as object;
  const fast = new ValidationAcceptance().passes(entity, options);
  // class-validator throws on null (the pipe never gives it one): never accepted either
  const errors = await Promise.resolve()
    .then(() => validate(entity, options))
    .catch((e: Error) => [e]);
  if (fast && errors.length) throw new Error(`accepted what class-validator refuses: ${JSON.stringify(plain)}`);
  if (!fast && !errors.length) throw new Error(`refused what class-validator accepts: ${JSON.stringify(plain)}`);
  return fast;
}

describe('ValidationAcceptance: says valid exactly when class-validator finds no error', () => {
  beforeAll(() => memoizeValidationMetadata());

  it('accepts valid objects, nested objects, arrays of them and each-rules', async () => {
    expect(await agrees(Order, goodOrder)).toBe(true);
    expect(await agrees(Order, { ...goodOrder, kind: 'B', reason: 'why', note: null, items: [], tags: new Set(['a']) })).toBe(true);
    expect(await agrees(Child, { ...goodOrder, extra: 3 })).toBe(true);
    expect(await agrees(WithCustom, { n: 4 })).toBe(true);
  });

  it('agrees with class-validator on every spoiled variant of a valid order', async () => {
    const variants = [...spoiled(goodOrder), ...spoiled({ ...goodOrder, kind: 'B', reason: 'r' }), ...spoiled({ ...goodOrder, extra: 1 })];
    let accepted = 0;
    for (const v of variants) if (await agrees(Order, v)) accepted++;
    for (const v of spoiled({ ...goodOrder, extra: 1 })) await agrees(Child, v);
    // some variants are still valid (a null optional note, a removed optional field): the check says so
    expect(accepted).toBeGreaterThan(3);
    expect(accepted).toBeLessThan(variants.length / 2);
  });

  it('agrees on odd values: not objects, unknown plain objects, a class without rules', async () => {
    for (const v of [null, 1, 'x', [], [goodOrder], { ...goodOrder, address: 'Rua A' }, { ...goodOrder, items: [[{ code: 'x' }]] }]) {
      await agrees(Order, v);
    }
    expect(await agrees(Loose, { inner: { a: 1 } })).toBe(false); // a plain object with no rules is an unknown value
    expect(new ValidationAcceptance().passes(Object.create(null), APP)).toBe(false);
    class NoRules {}
    expect(await agrees(NoRules, {})).toBe(false);
    expect(await agrees(NoRules, {}, { ...APP, forbidUnknownValues: false })).toBe(true);
  });

  it('leaves to class-validator what it cannot decide at once: async constraints, promise rules, options it does not follow', async () => {
    const check = new ValidationAcceptance();
    expect(check.passes(plainToInstance(WithAsync, { s: 'ok' }), APP)).toBe(false);
    expect(await validate(plainToInstance(WithAsync, { s: 'ok' }), APP)).toHaveLength(0);
    expect(check.passes(plainToInstance(WithPromise, { p: 'x' }), APP)).toBe(false);
    const order = plainToInstance(Order, goodOrder);
    expect(check.passes(order, APP)).toBe(true);
    for (const o of [{ groups: ['g'] }, { always: true }, { skipMissingProperties: true }, { whitelist: true }, { strictGroups: true }]) {
      expect(check.passes(order, o)).toBe(false);
    }
  });

  it('sees a rule registered after its first answer', async () => {
    class Late {
      @IsString()
      a: string;
    }
    expect(await agrees(Late, { a: 'x' })).toBe(true);
    IsInt()(Late.prototype, 'a');
    expect(await agrees(Late, { a: 'x' })).toBe(false);
    expect(getMetadataStorage().getTargetValidationMetadatas(Late, '', false, false).length).toBe(2);
  });

  it("agrees on the service's and the sandbox bank's recurrence creates, valid and spoiled", async () => {
    const create = {
      amount: 49.9,
      currency: 'BRL',
      periodicity: 'MONTHLY',
      firstDueDate: '2030-01-10',
      expirationDate: '2031-01-10',
      dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY',
      payerName: 'Maria Souza',
      payerTaxId: '52998224725',
      description: 'Plano mensal',
    };
    expect(await agrees(CreateRecurrenceDto, create)).toBe(true);
    for (const v of spoiled(create)) await agrees(CreateRecurrenceDto, v);
    for (const date of ['2030-02-30', '2030-13-01', '30-01-10', '2030-1-10'])
      expect(await agrees(CreateRecurrenceDto, { ...create, firstDueDate: date })).toBe(false);
    const bank = {
      recurrenceId: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c',
      idTx: 'RRK3T8W1ZP5R6N0D2F4H3J6L7Q2C4M9X',
      receiver: { id: 't1', name: 'ACME' },
      amountCents: 4990,
      currency: 'BRL',
      periodicity: 'MONTHLY',
      firstDueDate: '2030-01-10',
      expirationDate: null,
      dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY',
      payerName: 'Maria Souza',
      payerTaxId: '52998224725',
      description: null,
    };
    expect(await agrees(BankRecurrenceRequestDto, bank)).toBe(true);
    for (const v of spoiled(bank)) await agrees(BankRecurrenceRequestDto, v);
  });
});

// keep the decorators' classes referenced (Type is used through NestedObject/NestedArray)
void Type;
