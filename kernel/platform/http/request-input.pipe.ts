import { ArgumentMetadata, PipeTransform } from '@nestjs/common';

/**
 * The global pipes as one: `first` (the input boundary), then `then` (validation), in that
 * order, exactly as `useGlobalPipes(first, then)` would run them. Nest awaits each pipe of each
 * parameter in its own promise step; one pipe halves those steps on every request, and a
 * parameter of a custom decorator (the tenant the guard set), which neither pipe reads, is
 * passed on without any.
 */
export class RequestInputPipe implements PipeTransform {
  constructor(
    private readonly first: PipeTransform,
    private readonly then: PipeTransform,
  ) {}

  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type === 'custom') return value;
    const v = this.first.transform(value, meta);
    return v instanceof Promise ? v.then((x) => this.then.transform(x, meta)) : this.then.transform(v, meta);
  }
}
