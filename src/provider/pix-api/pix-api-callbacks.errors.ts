import { defineErrors } from '../../platform/errors/app-error';

export const PixApiCallbackErrors = defineErrors({
  /** A callback body that is not the standard's `{recs:[…]}` / `{cobsr:[…]}`. */
  invalid_callback: 400,
});
