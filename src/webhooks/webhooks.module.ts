import './webhooks.openapi';
import { Module } from '@nestjs/common';
import { DeliveriesRepository, SqlDeliveriesRepository } from './deliveries/deliveries.repository';
import { WebhookDeliveriesController } from './deliveries/deliveries.controller';
import { WebhookDeliveriesService } from './deliveries/deliveries.service';
import { DeliveryWorker } from './delivery/delivery-worker';
import { WebhookTelemetry } from './delivery/webhook-telemetry';
import { EndpointsRepository, SqlEndpointsRepository } from './endpoints/endpoints.repository';
import { WebhookEndpointsController } from './endpoints/endpoints.controller';
import { WebhookEndpointsService } from './endpoints/endpoints.service';
import { EventPublisher } from './event-publisher';
import { OutboxEventPublisher } from './outbox/outbox-event-publisher';
import { OutboxDb } from './outbox/outbox-db';
import { OutboxStore } from './outbox/outbox.store';
import { WebhookRetention } from './retention/webhook-retention';
import { AdminWebhookSecretsController } from './secrets/admin-webhook-secrets.controller';
import { RewrapWebhookSecrets } from './secrets/rewrap-webhook-secrets';

/**
 * Outbound webhooks: registrations, the transactional outbox (bound to the EventPublisher port
 * that feature modules import), the delivery worker, the delivery log and replays, and the
 * retention job, and the re-encryption of stored secrets after a WEBHOOK_SECRETS_KEY rotation.
 */
@Module({
  controllers: [WebhookEndpointsController, WebhookDeliveriesController, AdminWebhookSecretsController],
  providers: [
    { provide: EventPublisher, useClass: OutboxEventPublisher },
    { provide: EndpointsRepository, useClass: SqlEndpointsRepository },
    { provide: DeliveriesRepository, useClass: SqlDeliveriesRepository },
    WebhookEndpointsService,
    WebhookDeliveriesService,
    OutboxDb,
    OutboxStore,
    WebhookTelemetry,
    DeliveryWorker,
    WebhookRetention,
    RewrapWebhookSecrets,
  ],
  exports: [EventPublisher],
})
export class WebhooksModule {}
