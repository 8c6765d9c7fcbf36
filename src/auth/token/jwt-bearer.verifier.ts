import { Injectable } from '@nestjs/common';
import { BearerCheck, BearerVerifier } from '../../gateway/bearer-verifier.port';
import { GatewayErrors } from '../../gateway/gateway.errors';
import { wwwAuthenticate } from '../../gateway/gateway.guard';
import { AccessTokenCodec } from './access-token.codec';
import { KeyRevocationCache } from './key-revocation.cache';

const BEARER = /^Bearer +(\S+)\s*$/i;

/** Binds the gateway's BearerVerifier port: HS256 access tokens and key revocation. */
@Injectable()
export class JwtBearerVerifier extends BearerVerifier {
  constructor(
    private readonly codec: AccessTokenCodec,
    private readonly revocations: KeyRevocationCache,
  ) {
    super();
  }

  read(authorization: string | undefined): BearerCheck {
    const m = authorization ? BEARER.exec(authorization) : null;
    if (!m) return fail(null, 'invalid_token', 'Send Authorization: Bearer <access_token> (from POST /v1/oauth/token)');
    const r = this.codec.verify(m[1]);
    if (r.ok)
      return {
        tenantId: r.claims.tenant,
        context: { tenantId: r.claims.tenant, clientId: r.claims.sub, keyId: r.claims.kid },
        error: null,
      };
    if (r.code === 'expired_token')
      return fail(r.claims.tenant, 'expired_token', 'The access token has expired; obtain a new one from POST /v1/oauth/token');
    return fail(null, 'invalid_token', 'The access token is not valid');
  }

  isRevoked(keyId: string): boolean | Promise<boolean> {
    return this.revocations.isRevoked(keyId);
  }
}

function fail(tenantId: string | null, code: 'invalid_token' | 'expired_token', message: string): BearerCheck {
  const headers =
    code === 'expired_token' ? { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="expired"' } : wwwAuthenticate;
  return { tenantId, context: null, error: GatewayErrors.error(code, message, { headers }) };
}
