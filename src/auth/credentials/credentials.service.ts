import { Injectable } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { AuthConfig } from '../auth.config';
import { AuthErrors } from '../auth.errors';
import { CredentialsDto } from '../dto/keys.dto';
import { AuthKeysRepository } from '../keys/auth-keys.repository';
import { KeysService } from '../keys/keys.service';
import { encryptOaep, parseRsaPublicKey } from '../keys/rsa-public-key';
import { hashSecret, newClientId, newClientSecret } from './client-secret';

/**
 * Setup step 4: one client id per key, a new secret on every call (the previous one stops
 * working at once), only its scrypt hash stored, both values sent RSA-OAEP-SHA-256 encrypted.
 */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly keys: AuthKeysRepository,
    private readonly keysService: KeysService,
    private readonly clock: Clock,
    private readonly config: AuthConfig,
  ) {}

  async issue(tenantId: string, keyId: string): Promise<CredentialsDto> {
    const k = await this.keysService.mustExist(tenantId, keyId);
    if (k.status === 'REVOKED') throw AuthErrors.error('key_revoked', `Key ${keyId} is revoked`);
    if (k.status !== 'VERIFIED')
      throw AuthErrors.error('key_not_verified', `Key ${keyId} is not verified yet: sign its challenge and POST …/verify first`);
    const secret = newClientSecret();
    const hash = await hashSecret(secret, this.config.scryptCost);
    const clientId = await this.keys.issueSecret(tenantId, keyId, newClientId(), hash, this.clock.now());
    if (!clientId) throw AuthErrors.error('key_revoked', `Key ${keyId} is revoked`);
    const { key } = parseRsaPublicKey(k.publicKeyPem);
    return { keyId, encryptedClientId: encryptOaep(key, clientId), encryptedClientSecret: encryptOaep(key, secret) };
  }
}
