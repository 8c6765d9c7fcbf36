import { Injectable } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { generateSealingKey } from '../domain/sealing';
import { EventDomain } from '../event-publisher';
import { WebhooksConfig } from '../webhooks.config';
import { WebhookErrors } from '../webhooks.errors';
import {
  AcquiringWebhookDto,
  AcquiringWebhookWithSecretDto,
  PixAutomaticWebhookDto,
  PixAutomaticWebhookWithKeyDto,
  RegisterAcquiringWebhookDto,
  RegisterPixAutomaticWebhookDto,
} from '../dto/endpoint.dto';
import { EndpointRecord, EndpointsRepository } from './endpoints.repository';
import { generateKeyId, generateSigningSecret } from './secret-box';
import { checkReceiverUrl } from './url-policy';

/** Registration of the caller's receivers: one per tenant and domain; PUT creates or rotates. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly repo: EndpointsRepository,
    private readonly config: WebhooksConfig,
    private readonly clock: Clock,
  ) {}

  async registerAcquiring(tenantId: string, dto: RegisterAcquiringWebhookDto): Promise<AcquiringWebhookWithSecretDto> {
    const secret = generateSigningSecret();
    const rec = await this.register(tenantId, 'acquiring', dto.url, dto.events ?? null, secret);
    return { ...this.acquiringView(rec), secret };
  }

  async registerPixAutomatic(tenantId: string, dto: RegisterPixAutomaticWebhookDto): Promise<PixAutomaticWebhookWithKeyDto> {
    const key = generateSealingKey();
    const rec = await this.register(tenantId, 'pix-automatic', dto.url, null, key);
    return { ...this.pixView(rec), encryptionKey: key };
  }

  async getAcquiring(tenantId: string): Promise<AcquiringWebhookDto> {
    return this.acquiringView(await this.mustFind(tenantId, 'acquiring'));
  }

  async getPixAutomatic(tenantId: string): Promise<PixAutomaticWebhookDto> {
    return this.pixView(await this.mustFind(tenantId, 'pix-automatic'));
  }

  async remove(tenantId: string, domain: EventDomain): Promise<void> {
    if (!(await this.repo.remove(tenantId, domain, this.clock.now()))) throw notFound(domain);
  }

  private async register(
    tenantId: string,
    domain: EventDomain,
    url: string,
    events: string[] | null,
    secret: string,
  ): Promise<EndpointRecord> {
    const verdict = checkReceiverUrl(url, this.config);
    if (!verdict.ok) {
      throw WebhookErrors.error('invalid_webhook_url', `The webhook URL is not accepted: ${verdict.reason}`, {
        details: [{ field: 'url', message: verdict.reason }],
      });
    }
    const now = this.clock.now();
    return this.repo.register({
      tenantId,
      domain,
      url: verdict.url,
      events: events && events.length ? [...events].sort() : null,
      keyId: generateKeyId(),
      secretBox: this.config.secretKeys.box(tenantId, domain, secret),
      now,
      previousExpiresAt: new Date(now.getTime() + this.config.rotationGraceMs),
    });
  }

  private async mustFind(tenantId: string, domain: EventDomain): Promise<EndpointRecord> {
    const rec = await this.repo.find(tenantId, domain);
    if (!rec) throw notFound(domain);
    return rec;
  }

  /** The previous secret counts only while its grace period runs. */
  private previousLive(rec: EndpointRecord): boolean {
    return !!rec.previousKeyId && !!rec.previousExpiresAt && rec.previousExpiresAt.getTime() > this.clock.now().getTime();
  }

  private base(rec: EndpointRecord) {
    return {
      url: rec.url,
      status: rec.status,
      disabledReason: rec.disabledReason,
      createdAt: rec.createdAt.toISOString(),
      updatedAt: rec.updatedAt.toISOString(),
    };
  }

  private acquiringView(rec: EndpointRecord): AcquiringWebhookDto {
    return {
      ...this.base(rec),
      events: rec.events,
      previousSecretExpiresAt: this.previousLive(rec) ? rec.previousExpiresAt!.toISOString() : null,
    };
  }

  private pixView(rec: EndpointRecord): PixAutomaticWebhookDto {
    const live = this.previousLive(rec);
    return {
      ...this.base(rec),
      keyId: rec.keyId,
      previousKeyId: live ? rec.previousKeyId : null,
      previousKeyExpiresAt: live ? rec.previousExpiresAt!.toISOString() : null,
      sealingKeyId: live ? rec.previousKeyId! : rec.keyId,
    };
  }
}

function notFound(domain: EventDomain) {
  return WebhookErrors.error('webhook_not_found', `No ${domain} webhook is registered`);
}
