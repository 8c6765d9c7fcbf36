import { Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `limit` (default 50, max 100) and `offset` (default 0) on every list. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, example: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 50;

  @ApiPropertyOptional({ minimum: 0, default: 0, example: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
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
