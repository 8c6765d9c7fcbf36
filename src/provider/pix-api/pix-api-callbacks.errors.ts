import { defineErrors } from '../../../kernel/platform/errors/app-error';

export const PixApiCallbackErrors = defineErrors({
  /** A callback body that is not the standard's `{recs:[…]}` / `{cobsr:[…]}`. */
  invalid_callback: 400,
});

declare module '../../../kernel/platform/errors/app-error' {
  /** PixApiCallbackErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof PixApiCallbackErrors.table, true> {}
}
