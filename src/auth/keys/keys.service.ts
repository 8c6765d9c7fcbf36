import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../../kernel/platform/clock/clock';
import { AuthConfig } from '../auth.config';
import { AuthErrors } from '../auth.errors';
import { ChallengeDto, KeyCreatedDto, KeyDto, VerifyKeyDto, VerifiedDto } from '../dto/keys.dto';
import { AuthKey, AuthKeysRepository } from './auth-keys.repository';
import { decodeBase64, parseRsaPublicKey, verifyPss } from './rsa-public-key';

export function toKeyDto(k: AuthKey): KeyDto {
  return {
    keyId: k.id,
    tenantId: k.tenantId,
    status: k.status,
    fingerprint: k.fingerprint,
    clientId: k.clientId,
    createdAt: k.createdAt.toISOString(),
    verifiedAt: k.verifiedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
    credentialsIssuedAt: k.credentialsIssuedAt?.toISOString() ?? null,
  };
}

/** Key upload, challenge issue and proof of possession (setup steps 2 and 3). */
@Injectable()
export class KeysService {
  constructor(
    private readonly keys: AuthKeysRepository,
    private readonly clock: Clock,
    private readonly config: AuthConfig,
  ) {}

  async upload(tenantId: string, publicKey: string): Promise<KeyCreatedDto> {
    const parsed = parseRsaPublicKey(publicKey);
    const { challenge, expiresAt } = this.newChallenge();
    const k = await this.keys.insert({
      tenantId,
      publicKeyPem: parsed.spkiPem,
      fingerprint: parsed.fingerprint,
      challenge,
      challengeExpiresAt: expiresAt,
    });
    return { keyId: k.id, challenge, challengeExpiresAt: expiresAt.toISOString() };
  }

  async reissueChallenge(tenantId: string, keyId: string): Promise<ChallengeDto> {
    const { challenge, expiresAt } = this.newChallenge();
    const k = await this.keys.setChallenge(tenantId, keyId, challenge, expiresAt);
    if (!k) {
      await this.mustExist(tenantId, keyId);
      throw AuthErrors.error('key_revoked', `Key ${keyId} is revoked`);
    }
    return { keyId, challenge, challengeExpiresAt: expiresAt.toISOString() };
  }

  /** 400 with the reason on any mismatch; the key stays as it was. */
  async verify(tenantId: string, keyId: string, dto: VerifyKeyDto): Promise<VerifiedDto> {
    const k = await this.mustExist(tenantId, keyId);
    if (k.status === 'REVOKED') throw AuthErrors.error('key_revoked', `Key ${keyId} is revoked`);
    if (!k.challenge || k.challenge !== dto.challenge) {
      throw AuthErrors.error(
        'challenge_mismatch',
        'challenge is not the current challenge of this key (request a new one with POST …/challenge)',
      );
    }
    if (k.challengeUsedAt)
      throw AuthErrors.error('challenge_used', 'This challenge was already used; request a new one with POST …/challenge');
    const now = this.clock.now();
    if (!k.challengeExpiresAt || k.challengeExpiresAt <= now) {
      throw AuthErrors.error('challenge_expired', 'This challenge has expired; request a new one with POST …/challenge');
    }
    const sig = decodeBase64(dto.signature);
    if (!sig) throw AuthErrors.error('signature_malformed', 'signature must be base64');
    const { key } = parseRsaPublicKey(k.publicKeyPem);
    if (!verifyPss(key, dto.challenge, sig)) {
      throw AuthErrors.error(
        'signature_invalid',
        'signature does not match the challenge: sign its UTF-8 bytes with RSA-PSS, SHA-256, MGF1-SHA-256, with the private key of this public key, and send it base64',
      );
    }
    if (!(await this.keys.consumeChallenge(tenantId, keyId, dto.challenge, now))) {
      // Another request used it (or it expired) between the read and the update.
      throw AuthErrors.error('challenge_used', 'This challenge was already used; request a new one with POST …/challenge');
    }
    return { verified: true };
  }

  async list(tenantId: string): Promise<KeyDto[]> {
    return (await this.keys.listByTenant(tenantId)).map(toKeyDto);
  }

  async mustExist(tenantId: string, keyId: string): Promise<AuthKey> {
    const k = await this.keys.find(tenantId, keyId);
    if (!k) throw AuthErrors.error('key_not_found', `Key ${keyId} does not exist for this tenant`);
    return k;
  }

  private newChallenge(): { challenge: string; expiresAt: Date } {
    return {
      challenge: randomBytes(32).toString('base64url'),
      expiresAt: new Date(this.clock.now().getTime() + this.config.challengeTtlSeconds * 1000),
    };
  }
}
