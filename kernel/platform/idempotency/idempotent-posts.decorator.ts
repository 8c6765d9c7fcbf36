import { RequestMethod, UseInterceptors } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';

const header = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Same key + same request within 24 h replays the first answer with `Idempotent-Replayed: true`; another request with the key → 422 `idempotency_key_reused`; while the first runs → 409 `idempotency_in_flight`',
});

function applyTo(proto: object, name: string | symbol, d: PropertyDescriptor): void {
  UseInterceptors(IdempotencyInterceptor)(proto, name, d);
  header(proto, name, d);
}

/**
 * `Idempotency-Key` handling (and its documentation) on the POST handlers of a controller
 * only: GET routes skip Nest's interceptor machinery entirely, which is most of their cost.
 * Method decorators run before class decorators, so `@Post()` metadata is already there.
 * On a method whose verb is not known yet (decorator order), it is applied; the interceptor
 * itself ignores anything but POST.
 */
export function IdempotentPosts(): ClassDecorator & MethodDecorator {
  return ((target: any, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      const m = Reflect.getMetadata(METHOD_METADATA, descriptor.value);
      if (m === undefined || m === RequestMethod.POST) applyTo(target, key!, descriptor);
      return descriptor;
    }
    for (const name of Object.getOwnPropertyNames(target.prototype)) {
      if (name === 'constructor') continue;
      const d = Object.getOwnPropertyDescriptor(target.prototype, name);
      if (typeof d?.value === 'function' && Reflect.getMetadata(METHOD_METADATA, d.value) === RequestMethod.POST)
        applyTo(target.prototype, name, d);
    }
    return target;
  }) as ClassDecorator & MethodDecorator;
}
