import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CardVault } from './card-vault';
import { StoredCardsRepository } from './stored-cards.repository';
import { transaction } from '../../../kernel/platform/database/sql';

export interface RewrapReport {
  activeKeyId: string;
  rewrapped: number;
  /** stored cards per master key id after the run */
  byKey: Record<string, number>;
}

/**
 * Master key rotation: add the new key to VAULT_MASTER_KEYS (last = active), restart, then
 * re-wrap the stored cards' data keys under it in batches (the card numbers are never
 * decrypted). Rows are claimed with FOR UPDATE SKIP LOCKED, so several operators or replicas
 * may run it at once. When no card names the old key id, remove it from the ring.
 */
@Injectable()
export class VaultRotation {
  constructor(
    private readonly ds: DataSource,
    private readonly cards: StoredCardsRepository,
    private readonly vault: CardVault,
  ) {}

  async rewrap(limit: number): Promise<RewrapReport> {
    const activeKeyId = this.vault.activeKeyId();
    const rewrapped = await transaction(this.ds, async (m) => {
      const batch = await this.cards.lockForRewrap(m, activeKeyId, limit);
      for (const card of batch) await this.cards.updateWrapping(m, card.id, this.vault.rewrap(card.sealed, card.id));
      return batch.length;
    });
    return { activeKeyId, rewrapped, byKey: await this.cards.countByKey() };
  }
}
