import { Injectable } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { CardErrors } from '../cards.errors';
import { normalizeOrigin } from '../domain/origins';
import { CardSettingsDto } from '../dto/card-settings.dto';
import { rfc3339 } from '../sql';
import { CardSettings, CardSettingsRepository } from './card-settings.repository';

@Injectable()
export class CardSettingsService {
  constructor(
    private readonly repo: CardSettingsRepository,
    private readonly clock: Clock,
  ) {}

  async get(tenantId: string): Promise<CardSettingsDto> {
    return view(await this.repo.get(tenantId));
  }

  async put(tenantId: string, frameAncestors: string[]): Promise<CardSettingsDto> {
    const details: { field: string; code: string; message: string }[] = [];
    const normalized: string[] = [];
    frameAncestors.forEach((entry, i) => {
      const origin = normalizeOrigin(entry);
      if (!origin) {
        details.push({
          field: `frameAncestors[${i}]`,
          code: 'origin',
          message: 'must be an exact origin https://host[:port] (http only for localhost), without path or wildcard',
        });
      } else if (!normalized.includes(origin)) normalized.push(origin);
    });
    if (details.length) throw CardErrors.error('validation_error', 'The request has invalid fields', { details });
    return view(await this.repo.put(tenantId, normalized, this.clock.now()));
  }
}

function view(s: CardSettings): CardSettingsDto {
  return { frameAncestors: s.frameAncestors, updatedAt: s.updatedAt ? rfc3339(s.updatedAt) : null };
}
