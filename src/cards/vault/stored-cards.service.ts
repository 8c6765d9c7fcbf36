import { Injectable } from '@nestjs/common';
import { page, Page, PageQueryDto } from '../../../kernel/platform/pagination/pagination';
import { StoredCardDto } from '../dto/stored-card.dto';
import { rfc3339 } from '../sql';
import { StoredCardsRepository } from './stored-cards.repository';

/** The tenant's stored cards, as display values. */
@Injectable()
export class StoredCardsService {
  constructor(private readonly cards: StoredCardsRepository) {}

  async list(tenantId: string, q: PageQueryDto): Promise<Page<StoredCardDto>> {
    const [items, total] = await this.cards.list(tenantId, q.limit, q.offset);
    return page(
      items.map((c) => {
        const v: StoredCardDto = {
          slugStoredCard: c.id,
          brand: c.brand,
          first4: c.first4,
          last4: c.last4,
          expirationMonth: String(c.expMonth).padStart(2, '0'),
          expirationYear: String(c.expYear),
          createdAt: rfc3339(c.createdAt),
          updatedAt: rfc3339(c.updatedAt),
        };
        if (c.nickname) v.nickname = c.nickname;
        return v;
      }),
      total,
      q,
    );
  }
}
