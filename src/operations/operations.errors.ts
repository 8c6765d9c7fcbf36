import { defineErrors } from '../../kernel/platform/errors/app-error';

export const OperationsErrors = defineErrors({
  job_not_found: 404,
});

declare module '../../kernel/platform/errors/app-error' {
  /** OperationsErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof OperationsErrors.table, true> {}
}
