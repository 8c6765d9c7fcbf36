import { defineErrors } from '../platform/errors/app-error';

export const WebhookErrors = defineErrors({
  /** The URL is not an http(s) URL this deployment accepts (see docs/guide/webhooks.md). */
  invalid_webhook_url: 400,
  /** No registration for this domain (or it was deleted). */
  webhook_not_found: 404,
  /** No such delivery for this tenant. */
  delivery_not_found: 404,
  /** Replay of a delivery that is still scheduled. */
  delivery_pending: 409,
  /** Replay needs an active registration for the delivery's domain. */
  no_active_endpoint: 409,
  /** A feature published an event the outbox cannot take (a programming error, never caller input). */
  invalid_outbound_event: 500,
});
