import { defineErrors } from '../../kernel/platform/errors/app-error';
import { registerDomainErrors } from '../../kernel/platform/errors/app-error';
import { WebhooksDomainError, WebhooksDomainErrorCode } from './domain/errors';
import { SecretBoxError } from './endpoints/secret-box';

export const WebhookErrors = defineErrors({
  /** The URL is not an http(s) URL this deployment accepts (see docs/guide/webhooks.md). */
  invalid_webhook_url: 400,
  /** No registration for this domain (or it was deleted). */
  webhook_not_found: 404,
  /** No such delivery for this tenant. */
  delivery_not_found: 404,
  /** Replay of a delivery that is still scheduled. */
  delivery_pending: 409,
  /** Retry-now of a delivery that has finished (DELIVERED, DEAD, CANCELLED, NO_ENDPOINT): replay it instead. */
  delivery_not_pending: 409,
  /** Retry-now of a delivery a worker is sending at this moment. */
  delivery_in_flight: 409,
  /** Replay needs an active registration for the delivery's domain. */
  no_active_endpoint: 409,
  /** A feature published an event the outbox cannot take (a programming error, never caller input). */
  invalid_outbound_event: 500,
});

/** The webhooks domain's own errors: signing and sealing inputs are ours, so a failure is a 500. */
registerDomainErrors<WebhooksDomainErrorCode>(WebhooksDomainError, {
  signing_secret_invalid: 500,
  webhook_id_invalid: 500,
  signing_timestamp_invalid: 500,
  sealing_key_invalid: 500,
  sealing_key_id_invalid: 500,
  sealed_payload_invalid: 500,
  sealed_body_malformed: 500,
  sealed_body_authentication_failed: 500,
  sealed_body_not_json: 500,
  invalid_attempt_number: 500,
});
registerDomainErrors(SecretBoxError, { webhook_secret_unreadable: 500 });

declare module '../../kernel/platform/errors/app-error' {
  /** WebhookErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof WebhookErrors.table, true> {}
}
