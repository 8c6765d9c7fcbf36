import { Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Largest `offset` a list takes (PostgreSQL's int range; beyond it a list is not paged by offset). */
export const MAX_OFFSET = 2_147_483_647;

/**
 * A query-string number: plain decimal digits (`12`, `49.90`) become a number; anything else
 * (an empty string, `0x10`, `1e3`, a repeated parameter) becomes NaN, which the number
 * validators refuse. `@QueryNumber()` would read `''` as 0 and `0x10` as 16.
 */
export function QueryNumber(): PropertyDecorator {
  return Transform(({ value }) =>
    typeof value === 'string' && /^-?\d{1,20}(\.\d{1,20})?$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN,
  );
}

/** `limit` (default 50, max 100) and `offset` (default 0, max MAX_OFFSET) on every list. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, example: 50 })
  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 50;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_OFFSET, default: 0, example: 0 })
  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(0)
  @Max(MAX_OFFSET)
  offset: number = 0;
}

export interface Page<T> {
  total: number;
  limit: number;
  offset: number;
  items: T[];
}

export function page<T>(items: T[], total: number, q: { limit: number; offset: number }): Page<T> {
  return { total, limit: q.limit, offset: q.offset, items };
}

/**
 * The OpenAPI shape of a `Page` of `item`, for `class XPageDto extends PageOf(XDto) {}` (the
 * subclass names the schema).
 */
export function PageOf<T>(item: ClassType<T>) {
  abstract class PageOfItems implements Page<T> {
    @ApiProperty({ example: 1 })
    total: number;
    @ApiProperty({ example: 50 })
    limit: number;
    @ApiProperty({ example: 0 })
    offset: number;
    @ApiProperty({ type: [item] })
    items: T[];
  }
  return PageOfItems;
}
