import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { ThreeDsCardLookup, ThreeDsCardReference, ThreeDsCardSource } from '../../../kernel/common/contracts/three-ds-card-source.port';
import { brandName } from '../domain/card-input';
import { isLuhnValid } from '../../../kernel/common/formats/pan';
import { CardVault } from './card-vault';
import { StoredCardRecord, StoredCardsRepository } from './stored-cards.repository';

/** The cards module's binding of the 3DS card source: the vault opens the card for the 3DS server. */
@Injectable()
export class VaultThreeDsCardSource extends ThreeDsCardSource {
  constructor(
    private readonly ds: DataSource,
    private readonly cards: StoredCardsRepository,
    private readonly vault: CardVault,
    private readonly clock: Clock,
  ) {
    super();
  }

  async resolve(tenantId: string, ref: ThreeDsCardReference): Promise<ThreeDsCardLookup> {
    if (ref.cardNumber !== undefined) {
      const pan = ref.cardNumber.replace(/[\s-]/g, '');
      if (!/^\d{12,19}$/.test(pan) || !isLuhnValid(pan)) return { ok: false, reason: 'invalid_card_number' };
      return { ok: true, card: { pan, fingerprint: this.vault.fingerprint(tenantId, pan), brand: brandName(pan), last4: pan.slice(-4) } };
    }
    let record: StoredCardRecord | null = null;
    if (ref.storedCardSlug) record = await this.cards.find(this.ds, tenantId, ref.storedCardSlug);
    else if (ref.transactionTokenSlug) record = await this.cards.findByLiveToken(tenantId, ref.transactionTokenSlug, this.clock.now());
    if (!record) return { ok: false, reason: 'not_found' };
    const pan = this.vault.open(record.sealed, record.id);
    return { ok: true, card: { pan, fingerprint: record.fingerprint, brand: record.brand, last4: record.last4 } };
  }
}
