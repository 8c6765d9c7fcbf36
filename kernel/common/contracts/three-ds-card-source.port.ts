/** A card reference as the 3DS calls accept it: exactly one of the three. */
export interface ThreeDsCardReference {
  cardNumber?: string;
  storedCardSlug?: string;
  transactionTokenSlug?: string;
}

/** The card to authenticate; the card number goes only to the 3DS server. */
export interface ThreeDsCard {
  pan: string;
  /** keyed fingerprint, the same the vault uses: lets the payment check it charges the authenticated card */
  fingerprint: string;
  brand: string;
  last4: string;
}

export type ThreeDsCardLookup = { ok: true; card: ThreeDsCard } | { ok: false; reason: 'not_found' | 'invalid_card_number' };

/**
 * Port: resolves the card of a 3DS call (full number, or the vault's stored card / live token).
 * Bound by the cards module; three-ds never reads the vault tables.
 */
export abstract class ThreeDsCardSource {
  abstract resolve(tenantId: string, ref: ThreeDsCardReference): Promise<ThreeDsCardLookup>;
}
