import { CodedError } from '../../../kernel/common/formats/coded-error';

/**
 * Typed errors of the cards domain. Every error carries a stable snake_case `code` that
 * callers (services, controllers, the error envelope) switch on; messages are for humans and
 * never contain a card number, a key or a secret.
 */
/** Every code a cards domain error carries (cards.errors.ts gives each its status). */
export type CardsDomainErrorCode =
  VaultKeyRingErrorCode | 'vault_key_not_found' | 'vault_record_malformed' | 'vault_decryption_failed' | 'fingerprint_key_invalid';

export abstract class CardsDomainError<C extends string = CardsDomainErrorCode> extends CodedError<C> {
  constructor(message: string) {
    super(undefined as unknown as C, message);
  }
}

/** The input is not a card number (12–19 digits after removing spaces and hyphens): the shared format's error. */
export { InvalidCardNumber as InvalidPanError } from '../../../kernel/common/formats/pan';

export type VaultKeyRingErrorCode =
  | 'vault_key_ring_empty'
  | 'vault_key_ring_malformed'
  | 'vault_key_id_invalid'
  | 'vault_key_id_duplicate'
  | 'vault_key_length_invalid'
  | 'vault_active_key_missing';

/** The master key ring (configuration) is unusable. Raised at boot, when the ring is parsed or first used. */
export class VaultKeyRingError extends CardsDomainError {
  constructor(
    readonly code: VaultKeyRingErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A stored record names a master key that is not in the ring (it was removed before every record was re-wrapped). */
export class VaultKeyNotFoundError extends CardsDomainError {
  readonly code = 'vault_key_not_found' as const;

  constructor(readonly keyId: string) {
    super(`master key "${keyId}" is not in the key ring`);
  }
}

/** A stored record is structurally invalid (missing field, bad base64, wrong IV, tag or wrapped-key length). */
export class VaultRecordMalformedError extends CardsDomainError {
  readonly code = 'vault_record_malformed' as const;
}

/**
 * Authentication failed while opening a record: the wrapped data key or the card-number
 * ciphertext, tag or IV was altered, the record was moved to another record id, or the key is wrong.
 */
export class VaultDecryptionError extends CardsDomainError {
  readonly code = 'vault_decryption_failed' as const;

  constructor(readonly stage: 'data_key' | 'pan') {
    super(stage === 'data_key' ? 'the wrapped data key failed authentication' : 'the card number ciphertext failed authentication');
  }
}

/** The fingerprint (HMAC) key is missing or shorter than 32 bytes. */
export class FingerprintKeyError extends CardsDomainError {
  readonly code = 'fingerprint_key_invalid' as const;
}
