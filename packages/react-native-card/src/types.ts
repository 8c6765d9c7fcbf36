import type { StyleProp, ViewStyle } from 'react-native';

/**
 * Tokenization result delivered to `onSuccess`.
 * Display values only: the full card number and security code are never exposed.
 */
export interface ServiceCardTokenizedResult {
  /** Opaque reference used by the caller's backend to charge the card later. */
  slugStoredCard: string;
  /** Opaque single-use token reference. */
  slugToken: string;
  /** Expiry of the token reference. */
  tokenExpirationDate: string;
  /** Card brand (display value). */
  brand: string;
  /** BIN prefix: first four digits of the card number (display value). */
  first4: string;
  /** Final four digits of the card number (display value). */
  last4: string;
  /** Card expiration month (display value). */
  expirationMonth: string;
  /** Card expiration year (display value). */
  expirationYear: string;
  /** Optional label typed by the cardholder; empty or absent when left blank. */
  nickname?: string;
  /** Correlation id for support. */
  requestId: string;
}

/** Complete set of error codes the component reports through `onError`. */
export type ServiceCardErrorCode =
  'configuration_error' | 'token_expired' | 'message_origin_rejected' | 'message_invalid' | 'validation_error' | 'tokenization_failed';

/** All error codes, in the order of the service interface. */
export const SERVICE_CARD_ERROR_CODES: readonly ServiceCardErrorCode[] = Object.freeze([
  'configuration_error',
  'token_expired',
  'message_origin_rejected',
  'message_invalid',
  'validation_error',
  'tokenization_failed',
]);

/** Error object delivered to `onError`. */
export interface ServiceCardError {
  code: ServiceCardErrorCode;
  message: string;
  /** Correlation id for support, when known. */
  requestId?: string;
  /** When true, create a new session and repeat the attempt. */
  retryable?: boolean;
}

export interface ServiceCardFormProps {
  /** Hosted session URL obtained from the backend. Must be HTTPS. Short-lived and single use. */
  hostedCardUrl: string;
  /** Fires at most once per `hostedCardUrl` (session) on successful tokenization. */
  onSuccess: (result: ServiceCardTokenizedResult) => void;
  /** Fires on configuration, session, message or tokenization errors. */
  onError: (error: ServiceCardError) => void;
  /** The hosted page validated the session and is interactive. */
  onReady?: (requestId?: string) => void;
  /**
   * Allowed HTTPS origins (`https://host[:port]`) for navigation and messages.
   * Defaults to the origin of `hostedCardUrl`. Must not be empty.
   */
  allowedOrigins?: readonly string[];
  /** Style of the underlying web view. */
  style?: StyleProp<ViewStyle>;
  /** Test identifier, passed to the underlying web view. */
  testID?: string;
}
