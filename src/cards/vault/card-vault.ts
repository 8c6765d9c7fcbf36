import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { CardsConfig } from '../cards.config';
import { decryptPan, EncryptedPan, encryptPan, fingerprint, needsRewrap, rewrap } from '../domain/vault-crypto';

/**
 * The vault's crypto with the configured keys: every record is bound to its stored card id
 * (the AAD), so a ciphertext moved to another row does not open.
 */
@Injectable()
export class CardVault {
  /** Per-tenant fingerprint keys, derived once per tenant. */
  private readonly tenantKeys = new Map<string, Buffer>();

  constructor(private readonly config: CardsConfig) {}

  seal(pan: string, storedCardId: string): EncryptedPan {
    return encryptPan(pan, this.config.vaultKeyRing, { recordId: storedCardId });
  }

  open(record: EncryptedPan, storedCardId: string): string {
    return decryptPan(record, this.config.vaultKeyRing, { recordId: storedCardId });
  }

  /**
   * Keyed fingerprint of a card for one tenant: HMAC-SHA256 under a key derived from
   * VAULT_FINGERPRINT_KEY and the tenant id, so the same card has unrelated fingerprints in two
   * tenants (nobody reading the table can link them) and the same one within a tenant.
   */
  fingerprint(tenantId: string, pan: string): string {
    let key = this.tenantKeys.get(tenantId);
    if (!key) {
      key = createHmac('sha256', this.config.fingerprintKey).update(`card-fingerprint/v1|${tenantId}`).digest();
      if (this.tenantKeys.size > 10_000) this.tenantKeys.clear();
      this.tenantKeys.set(tenantId, key);
    }
    return fingerprint(pan, key);
  }

  activeKeyId(): string {
    return this.config.vaultKeyRing.activeKeyId;
  }

  needsRewrap(record: Pick<EncryptedPan, 'keyId'>): boolean {
    return needsRewrap(record, this.config.vaultKeyRing);
  }

  rewrap(record: EncryptedPan, storedCardId: string): EncryptedPan {
    return rewrap(record, this.config.vaultKeyRing, { recordId: storedCardId });
  }
}
