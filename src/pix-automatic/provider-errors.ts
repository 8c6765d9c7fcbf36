import { AppError } from '../../kernel/platform/errors/app-error';
import { ProviderCallError } from '../provider/bank/bank-provider.port';
import { PixAutomaticErrors } from './pix-automatic.errors';

/** A failed provider call as the caller sees it: the spec's 500, with a code that says why. */
export function providerFailure(e: unknown): AppError | unknown {
  if (!(e instanceof ProviderCallError)) return e;
  if (e.code === 'provider_rejected') {
    return PixAutomaticErrors.error('provider_error', 'The banking provider refused the request');
  }
  return PixAutomaticErrors.error('provider_unavailable', 'The banking provider is unavailable; retry with backoff (1 s, 3 s, 9 s)');
}
