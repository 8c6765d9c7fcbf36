import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, validate } from 'class-validator';
import { memoizeValidationMetadata } from './validation-metadata';

class Base {
  @IsString()
  name!: unknown;
}

class Child extends Base {
  @IsInt()
  count!: unknown;
}

const fields = async (o: object) => (await validate(o, { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('memoizeValidationMetadata', () => {
  beforeAll(() => memoizeValidationMetadata());

  it('answers the same rules as class-validator, inherited ones included, each time', async () => {
    const c = Object.assign(new Child(), { name: 1, count: 'x', extra: true });
    expect(await fields(c)).toEqual(['count', 'extra', 'name']);
    expect(await fields(c)).toEqual(['count', 'extra', 'name']);
    expect(await fields(Object.assign(new Base(), { name: 'ok', count: 'x' }))).toEqual(['count']);
    expect(await fields(Object.assign(new Child(), { name: 'ok', count: 2 }))).toEqual([]);
  });

  it('sees a rule registered after the first validation (the memo is dropped)', async () => {
    class Late {
      @IsString()
      a!: unknown;
    }
    expect(await fields(Object.assign(new Late(), { a: 'x' }))).toEqual([]);
    expect(await fields(Object.assign(new Late(), { a: 'x', b: 1 }))).toEqual(['b']); // not a known field yet
    IsInt()(Late.prototype, 'b');
    expect(await fields(Object.assign(new Late(), { a: 'x', b: 1 }))).toEqual([]);
    expect(await fields(Object.assign(new Late(), { a: 'x', b: 'not an int' }))).toEqual(['b']);
  });

  it('patches the storage once', () => {
    const patched = getMetadataStorage().getTargetValidationMetadatas;
    memoizeValidationMetadata();
    expect(getMetadataStorage().getTargetValidationMetadatas).toBe(patched);
  });
});
