import { ArgumentMetadata, INestApplication, PipeTransform } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';

/**
 * The request's input pipes as one: `first` (the input boundary), then `then` (validation), in
 * that order. Nest awaits each pipe of each parameter in its own promise step; one pipe halves
 * those steps.
 */
export class RequestInputPipe implements PipeTransform {
  constructor(
    private readonly first: PipeTransform,
    private readonly then: PipeTransform,
  ) {}

  transform(value: unknown, meta: ArgumentMetadata): unknown {
    const v = this.first.transform(value, meta);
    return v instanceof Promise ? v.then((x) => this.then.transform(x, meta)) : this.then.transform(v, meta);
  }
}

/** The parameters whose value comes from the caller's body or query string. */
const INPUT = new Set([String(RouteParamtypes.BODY), String(RouteParamtypes.QUERY)]);

/**
 * Binds `pipe` to every `@Body()` and `@Query()` parameter of every controller of `app`, where a
 * global pipe (`useGlobalPipes`) would also run on path parameters and custom decorators. Nest
 * resolves every parameter that has a pipe through three promise steps, which on a GET route was
 * about a quarter of what the service added to the framework. Path parameters need no pipe: the request
 * hook refuses control characters in the path before routing (`urlDefect`), the router refuses
 * malformed percent-encoding, and every one is declared `string`, so validation's transform had
 * nothing to do; custom decorators (the tenant the guard set) were passed on by both pipes as
 * they were. Call before `app.init()`, which is when Nest reads the bindings. Idempotent: a
 * process that builds several apps from the same controllers (the tests) keeps one pipe per
 * parameter, the last app's.
 */
export function bindInputPipe(app: INestApplication, pipe: RequestInputPipe): number {
  let bound = 0;
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (typeof type !== 'function') continue;
      for (const name of scanner.getAllMethodNames(type.prototype)) {
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, type, name) as Record<string, { pipes?: unknown[] }> | undefined;
        if (!args) continue;
        for (const [key, arg] of Object.entries(args)) {
          if (!INPUT.has(key.split(':')[0])) continue;
          // first, as a global pipe runs before a parameter's own
          arg.pipes = [pipe, ...(arg.pipes ?? []).filter((p) => !(p instanceof RequestInputPipe))];
          bound++;
        }
      }
    }
  }
  return bound;
}
