import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EndpointsRepository } from '../endpoints/endpoints.repository';
import { EventDomain } from '../event-publisher';
import { SecretBoxError, SecretKeyRing } from '../endpoints/secret-box';
import { WebhooksConfig } from '../webhooks.config';
import { transaction } from '../../../kernel/platform/database/sql';

export interface SecretsRewrapReport {
  activeKeyId: string;
  /** Registrations whose boxes this call re-made under the active key. */
  rewrapped: number;
  /** Registrations with a box no key of the ring opens (left as they are; re-register them). */
  unreadable: number;
  /** Stored boxes (current and previous secrets) per key id after the call; `v1`: written before key ids. */
  byKey: Record<string, number>;
}

const BATCH = 500;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * WEBHOOK_SECRETS_KEY rotation, second step: re-box every stored signing secret and sealing key
 * under the active key, in transactions of 500 registrations claimed FOR UPDATE SKIP LOCKED (a
 * registration being rotated by its tenant waits or is skipped, never lost). The secrets inside do
 * not change, so receivers notice nothing. When `byKey` names only the active key id, the old
 * keys can leave WEBHOOK_SECRETS_KEYS_PREVIOUS.
 */
@Injectable()
export class RewrapWebhookSecrets {
  private readonly logger = new Logger('Webhooks');
  private readonly keys: SecretKeyRing;

  constructor(
    private readonly ds: DataSource,
    private readonly endpoints: EndpointsRepository,
    config: WebhooksConfig,
  ) {
    this.keys = config.secretKeys;
  }

  async run(): Promise<SecretsRewrapReport> {
    let after = FIRST_ID;
    let rewrapped = 0;
    let unreadable = 0;
    for (;;) {
      const batch = await transaction(this.ds, async (m) => {
        const rows = await this.endpoints.lockBoxesToRewrap(m, this.keys.activeKeyId, after, BATCH);
        for (const r of rows) {
          try {
            const current = this.rebox(r.tenantId, r.domain, r.secretBox);
            const previous = r.previousSecretBox === null ? null : this.rebox(r.tenantId, r.domain, r.previousSecretBox);
            await this.endpoints.updateBoxes(m, r.id, current, previous);
            rewrapped++;
          } catch (e) {
            if (!(e instanceof SecretBoxError)) throw e;
            unreadable++;
            this.logger.warn(
              { endpointId: r.id, tenantId: r.tenantId, domain: r.domain },
              'a stored webhook secret opens under no key of the ring; re-register this webhook',
            );
          }
        }
        return rows;
      });
      if (batch.length) after = batch[batch.length - 1].id;
      if (batch.length < BATCH) break;
    }
    return { activeKeyId: this.keys.activeKeyId, rewrapped, unreadable, byKey: await this.endpoints.countBoxesByKey() };
  }

  private rebox(tenantId: string, domain: EventDomain, box: string): string {
    return SecretKeyRing.keyIdOf(box) === this.keys.activeKeyId
      ? box
      : this.keys.box(tenantId, domain, this.keys.open(tenantId, domain, box));
  }
}
