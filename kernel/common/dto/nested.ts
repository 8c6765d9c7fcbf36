import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsObject, ValidateNested } from 'class-validator';

type Class = new (...args: any[]) => object;

/**
 * A nested object validated to its leaves. `ValidateNested` alone also accepts an array (it
 * validates each item), so `"actor": []` would pass; `IsObject` refuses it.
 */
export function NestedObject(type: () => Class): PropertyDecorator {
  return applyDecorators(IsObject(), ValidateNested(), Type(type));
}

/** An array of nested objects, each validated to its leaves (`[null]` and `[1]` refused). */
export function NestedArray(type: () => Class): PropertyDecorator {
  return applyDecorators(IsArray(), ValidateNested({ each: true }), IsObject({ each: true }), Type(type));
}
