import { CodedError } from '../../../kernel/common/formats/coded-error';

/**
 * Typed errors of the webhooks domain. Every error carries a stable snake_case `code`;
 * messages never contain a secret, a key or a decrypted payload.
 */
/** Every code a webhooks domain error carries (webhooks.errors.ts gives each its status). */
export type WebhooksDomainErrorCode = SigningInputErrorCode | SealingInputErrorCode | SealedBodyErrorCode | 'invalid_attempt_number';

export abstract class WebhooksDomainError<C extends string = WebhooksDomainErrorCode> extends CodedError<C> {
  constructor(message: string) {
    super(undefined as unknown as C, message);
  }
}

export type SigningInputErrorCode = 'signing_secret_invalid' | 'webhook_id_invalid' | 'signing_timestamp_invalid';

/** A signing secret is empty, a webhook id is not `[A-Za-z0-9_-]{1,128}`, or a timestamp is not whole seconds. */
export class SigningInputError extends WebhooksDomainError {
  constructor(
    readonly code: SigningInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type SealingInputErrorCode = 'sealing_key_invalid' | 'sealing_key_id_invalid' | 'sealed_payload_invalid';

/** The sealing key is not 32 bytes, the key id is unusable, or the payload is not a JSON object. */
export class SealingInputError extends WebhooksDomainError {
  constructor(
    readonly code: SealingInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type SealedBodyErrorCode = 'sealed_body_malformed' | 'sealed_body_authentication_failed' | 'sealed_body_not_json';

/**
 * A sealed body cannot be opened: it is structurally invalid (`sealed_body_malformed`), the
 * key is wrong or the IV, tag or ciphertext was altered (`sealed_body_authentication_failed`),
 * or the authentic plaintext is not a JSON object (`sealed_body_not_json`).
 */
export class SealedBodyError extends WebhooksDomainError {
  constructor(
    readonly code: SealedBodyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** `attemptNumber` must be a whole number >= 1 (1 = first delivery attempt). */
export class RetryScheduleError extends WebhooksDomainError {
  readonly code = 'invalid_attempt_number' as const;
}
