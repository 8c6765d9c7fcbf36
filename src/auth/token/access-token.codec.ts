import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthConfig } from '../auth.config';
import { AccessClaims, Hs256Codec, VerifyResult } from '../jwt/hs256';

/**
 * Access tokens: HS256 JWTs signed by the newest JWT_SIGNING_KEYS entry (its kid in the
 * header), verified against every configured key. Token time is wall-clock time, not the
 * sandbox test clock: advancing the test clock by days must not log every caller out.
 */
@Injectable()
export class AccessTokenCodec {
  private readonly codec: Hs256Codec;

  constructor(private readonly config: AuthConfig) {
    this.codec = new Hs256Codec(config.jwtKeys, config.jwtIssuer);
  }

  issue(c: { clientId: string; tenantId: string; keyId: string }): { token: string; claims: AccessClaims } {
    const iat = Math.floor(Date.now() / 1000);
    const claims: AccessClaims = {
      iss: this.config.jwtIssuer,
      sub: c.clientId,
      tenant: c.tenantId,
      kid: c.keyId,
      iat,
      exp: iat + this.config.tokenTtlSeconds,
      jti: randomBytes(12).toString('base64url'),
    };
    return { token: this.codec.sign(claims), claims };
  }

  verify(token: string): VerifyResult {
    return this.codec.verify(token, Math.floor(Date.now() / 1000));
  }
}
