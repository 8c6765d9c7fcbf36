import { defineErrors } from '../errors/app-error';

export const IdempotencyErrors = defineErrors({
  idempotency_key_invalid: 400,
  idempotency_in_flight: 409,
  idempotency_key_reused: 422,
});

declare module '../errors/app-error' {
  /** IdempotencyErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof IdempotencyErrors.table, true> {}
}
