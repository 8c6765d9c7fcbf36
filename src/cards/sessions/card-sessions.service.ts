import { Injectable } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { CardsConfig } from '../cards.config';
import { CardErrors } from '../cards.errors';
import { normalizeOrigin } from '../domain/origins';
import { CardSessionDto, CreateCardSessionDto } from '../dto/card-session.dto';
import { newId, newSecret, secretHash } from '../ids';
import { CardSettingsRepository } from '../settings/card-settings.repository';
import { rfc3339 } from '../sql';
import { CardSessionsRepository } from './card-sessions.repository';

/** The spec: always creation time plus 15 minutes. */
export const CARD_SESSION_LIFE_MS = 15 * 60 * 1000;

@Injectable()
export class CardSessionsService {
  private readonly pageBase: string;

  constructor(
    private readonly sessions: CardSessionsRepository,
    private readonly settings: CardSettingsRepository,
    private readonly clock: Clock,
    config: CardsConfig,
    platform: PlatformConfig,
  ) {
    this.pageBase = (config.cardPageUrl ?? platform.publicUrl).replace(/\/+$/, '');
  }

  async create(tenantId: string, dto: CreateCardSessionDto): Promise<CardSessionDto> {
    const { frameAncestors } = await this.settings.get(tenantId);
    let parentOrigin: string | null = frameAncestors.length === 1 ? frameAncestors[0] : null;
    if (dto.parentOrigin !== undefined) {
      const origin = normalizeOrigin(dto.parentOrigin);
      if (!origin || !frameAncestors.includes(origin)) {
        throw CardErrors.error(
          'parent_origin_not_allowed',
          "parentOrigin must be one of the tenant's frameAncestors (PUT /v1/acquiring/card-settings)",
        );
      }
      parentOrigin = origin;
    }
    const id = newId('hcs');
    const key = newSecret();
    const createdAt = this.clock.now();
    const expiresAt = new Date(createdAt.getTime() + CARD_SESSION_LIFE_MS);
    await this.sessions.create({
      id,
      tenantId,
      documentId: dto.documentId,
      urlKeyHash: secretHash(key),
      parentOrigin,
      createdAt,
      expiresAt,
    });
    return { hostedCardSessionId: id, hostedCardUrl: `${this.pageBase}/hosted-card/${id}?key=${key}`, expiresAt: rfc3339(expiresAt) };
  }
}
