import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { CONTROL, LONE_SURROGATE } from '../../common/formats/text';
import { ErrorDetail, PlatformErrors } from '../errors/app-error';

const MAX_DEPTH = 32;

/** Whether the API documents `null` for this property of a DTO class (`nullable: true`). */
function nullable(metatype: unknown, prop: string): boolean {
  if (typeof metatype !== 'function') return true;
  const fromDecorator = Reflect.getMetadata('swagger/apiModelProperties', (metatype as any).prototype, prop);
  if (fromDecorator) return fromDecorator.nullable === true;
  const factory = (metatype as any)._OPENAPI_METADATA_FACTORY;
  const fromPlugin = typeof factory === 'function' ? factory()?.[prop] : undefined;
  if (fromPlugin) return fromPlugin.nullable === true;
  return true; // not a documented property: the validation pipe decides (whitelist)
}

/**
 * One input boundary before validation, for every body and query parameter of every route (the
 * path is checked by the request hook before routing, `urlDefect`):
 * strings with NUL or other control characters (tab, line feed and carriage return excepted),
 * or with a lone UTF-16 surrogate, are refused, and an explicit `null` is refused where the API does not document `null` (there
 * it means "clear this field"): `@IsOptional()` alone would let both through to SQL and code.
 * A single query parameter given twice is refused too.
 * 400 `validation_error` naming each field.
 */
@Injectable()
export class InputBoundaryPipe implements PipeTransform {
  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type === 'custom') return value;
    const details: ErrorDetail[] = [];
    const prefix = meta.type === 'body' ? '' : (meta.data ?? '');
    if (meta.type === 'query' && meta.data && meta.metatype !== Array && Array.isArray(value)) {
      // `?lang=en&lang=pt` arrives as an array where one string was declared
      throw PlatformErrors.error('validation_error', 'The request has invalid fields', {
        details: [{ field: meta.data, code: 'repeated', message: `${meta.data} must be given once` }],
      });
    }
    walk(value, prefix, 0, details);
    if (meta.type === 'body' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (v === null && !nullable(meta.metatype, k))
          details.push({ field: k, code: 'not_null', message: `${k} must not be null; leave it out instead` });
      }
    }
    if (details.length) throw PlatformErrors.error('validation_error', 'The request has invalid fields', { details: details.slice(0, 20) });
    return value;
  }
}

function walk(v: unknown, path: string, depth: number, out: ErrorDetail[]): void {
  if (out.length >= 20 || depth > MAX_DEPTH) return;
  if (typeof v === 'string') {
    if (CONTROL.test(v))
      out.push({
        field: path || 'value',
        code: 'control_characters',
        message: `${path || 'value'} must not contain control characters (NUL and the like)`,
      });
    else if (LONE_SURROGATE.test(v))
      out.push({ field: path || 'value', code: 'invalid_unicode', message: `${path || 'value'} holds a lone surrogate (not a character)` });
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1, out));
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (CONTROL.test(k))
        out.push({
          field: path ? `${path}.${k.replace(CONTROL, '?')}` : k.replace(CONTROL, '?'),
          code: 'control_characters',
          message: 'field names must not contain control characters',
        });
      walk(x, path ? `${path}.${k}` : k, depth + 1, out);
    }
  }
}
