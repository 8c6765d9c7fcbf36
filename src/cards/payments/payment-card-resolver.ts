import { Injectable } from '@nestjs/common';

import { Clock } from '../../../kernel/platform/clock/clock';
import { CardErrors } from '../cards.errors';
import { TokenDataDto } from '../dto/card-payment.dto';
import { CardVault } from '../vault/card-vault';
import { SecurityCodeStore } from '../vault/security-code-store';
import { StoredCardRecord, StoredCardsRepository } from '../vault/stored-cards.repository';
import { Tx } from '../../../kernel/platform/database/sql';

/** The card a payment charges, opened from the vault only for the acquirer call. */
export interface ChargeCard {
  pan: string;
  expMonth: number;
  expYear: number;
  securityCode?: string;
}

/** Turns `tokenData` into a stored card; single-use tokens are claimed inside the payment's transaction. */
@Injectable()
export class PaymentCardResolver {
  constructor(
    private readonly cards: StoredCardsRepository,
    private readonly vault: CardVault,
    private readonly codes: SecurityCodeStore,
    private readonly clock: Clock,
  ) {}

  /** Checks tokenData has exactly one reference. */
  assertOne(t: TokenDataDto): void {
    if (!!t.slugStoredCard === !!t.slugToken) {
      throw CardErrors.error('validation_error', 'The request has invalid fields', {
        details: [{ field: 'tokenData', code: 'exactlyOne', message: 'tokenData must carry exactly one of slugStoredCard or slugToken' }],
      });
    }
  }

  /** The stored card referenced; a slugToken is claimed (used) here, so call it inside the payment's transaction. */
  async resolve(tenantId: string, t: TokenDataDto, m: Tx): Promise<StoredCardRecord> {
    if (t.slugStoredCard) {
      const card = await this.cards.find(m, tenantId, t.slugStoredCard);
      if (!card) throw CardErrors.error('stored_card_not_found', 'No such stored card for this tenant');
      return card;
    }
    const claim = await this.cards.claimToken(m, tenantId, t.slugToken!, this.clock.now());
    if (claim.outcome === 'not_found') throw CardErrors.error('card_token_not_found', 'No such card token for this tenant');
    if (claim.outcome === 'used') throw CardErrors.error('token_already_used', 'This slugToken was already used; it is single use');
    if (claim.outcome !== 'claimed')
      throw CardErrors.error('token_expired', 'This slugToken is expired; charge the slugStoredCard or tokenize again');
    return (await this.cards.find(m, tenantId, claim.storedCardId))!;
  }

  /** Whether this replica holds the security code of the token. */
  holdsSecurityCode(slugToken: string | undefined): boolean {
    return !!slugToken && this.codes.has(slugToken);
  }

  /** Opens the card for the acquirer; the security code only for a token this replica holds. */
  open(card: StoredCardRecord, slugToken?: string): ChargeCard {
    const pan = this.vault.open(card.sealed, card.id);
    const securityCode = slugToken ? this.codes.take(slugToken) : undefined;
    return { pan, expMonth: card.expMonth, expYear: card.expYear, securityCode };
  }
}
