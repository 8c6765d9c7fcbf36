import { Injectable } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { Page, page } from '../../../kernel/platform/pagination/pagination';
import { DeliveryDetailDto, DeliveryDto, DeliveryQueryDto, RetryPendingDto } from '../dto/delivery.dto';
import { EventDomain } from '../event-publisher';
import { WebhookErrors } from '../webhooks.errors';
import { EndpointsRepository } from '../endpoints/endpoints.repository';
import { DeliveriesRepository } from './deliveries.repository';

/** The tenant's delivery log, replays and hurried retries. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly clock: Clock,
    private readonly endpoints: EndpointsRepository,
  ) {}

  async list(tenantId: string, q: DeliveryQueryDto): Promise<Page<DeliveryDto>> {
    const [items, total] = await this.repo.list(tenantId, { status: q.status, eventType: q.eventType, limit: q.limit, offset: q.offset });
    return page(items, total, q);
  }

  async get(tenantId: string, id: string): Promise<DeliveryDetailDto> {
    const d = await this.repo.find(tenantId, id);
    if (!d) throw notFound(id);
    return { ...d, attemptLog: await this.repo.attempts(d.id) };
  }

  async replay(tenantId: string, id: string): Promise<DeliveryDto> {
    const r = await this.repo.replay(tenantId, id, this.clock.now());
    if (r.ok) return r.delivery;
    if (r.reason === 'not_found') throw notFound(id);
    if (r.reason === 'pending')
      throw WebhookErrors.error(
        'delivery_pending',
        'The delivery is still scheduled; it cannot be replayed until it is DELIVERED, DEAD, CANCELLED or NO_ENDPOINT',
      );
    throw WebhookErrors.error(
      'no_active_endpoint',
      "No active webhook is registered for this delivery's domain; register one (PUT) and replay again",
    );
  }

  /** Makes a waiting delivery due now; the worker sends it (one attempt of its schedule). */
  async retryNow(tenantId: string, id: string): Promise<DeliveryDto> {
    const r = await this.repo.retryNow(tenantId, id, this.times());
    if (r.ok) return r.delivery;
    if (r.reason === 'not_found') throw notFound(id);
    if (r.reason === 'in_flight')
      throw WebhookErrors.error(
        'delivery_in_flight',
        'The delivery is being sent at this moment; its outcome is in the delivery log shortly',
      );
    throw WebhookErrors.error(
      'delivery_not_pending',
      'The delivery has finished (DELIVERED, DEAD, CANCELLED or NO_ENDPOINT); replay it to send the event again',
    );
  }

  /** Makes every waiting delivery of the domain's registration due now. */
  async retryPending(tenantId: string, domain: EventDomain): Promise<RetryPendingDto> {
    const at = this.times();
    const ids = await this.repo.retryPending(tenantId, domain, at);
    if (!ids.length && !(await this.endpoints.find(tenantId, domain)))
      throw WebhookErrors.error('webhook_not_found', `No ${domain} webhook is registered`);
    return { domain, scheduled: ids.length, deliveryIds: ids, dueAt: at.now.toISOString() };
  }

  private times() {
    return { now: this.clock.now(), wallNow: new Date() };
  }
}

function notFound(id: string) {
  return WebhookErrors.error('delivery_not_found', `Delivery ${id} does not exist`);
}
