import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { Page, page } from '../../platform/pagination/pagination';
import { DeliveryDetailDto, DeliveryDto, DeliveryQueryDto } from '../dto/delivery.dto';
import { WebhookErrors } from '../webhooks.errors';
import { DeliveriesRepository } from './deliveries.repository';

/** The tenant's delivery log and replays. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly clock: Clock,
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
}

function notFound(id: string) {
  return WebhookErrors.error('delivery_not_found', `Delivery ${id} does not exist`);
}
