import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from '../../gateway/client-ip';
import { TenantGate } from '../../gateway/tenant-gate';
import { AuthConfig } from '../auth.config';
import { AuthErrors } from '../auth.errors';
import { verifyAgainstNothing, verifySecret } from '../credentials/client-secret';
import { TokenDto } from '../dto/token.dto';
import { AuthKeysRepository } from '../keys/auth-keys.repository';
import { AccessTokenCodec } from './access-token.codec';

type OAuthCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';

/** RFC 6749 §5.2: `error` + `error_description` (inside the service's usual envelope). */
function oauthError(code: OAuthCode, description: string, headers?: Record<string, string>) {
  return AuthErrors.error(code, description, { body: { error_description: description }, headers });
}

interface ClientAuth {
  clientId: string;
  clientSecret: string;
  viaBasic: boolean;
}

/**
 * `client_credentials` only. Limits: per caller IP first, then per client id; then the
 * tenant's allow-list (before the slow hash), then the scrypt check of the secret.
 */
@Injectable()
export class TokenService {
  constructor(
    private readonly keys: AuthKeysRepository,
    private readonly codec: AccessTokenCodec,
    private readonly gate: TenantGate,
    private readonly config: AuthConfig,
  ) {}

  async token(body: unknown, req: FastifyRequest, reply: FastifyReply): Promise<TokenDto> {
    await this.gate.limit(`ti:${clientIp(req)}`, this.config.tokenIpRateLimitPerMinute, reply);
    const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const grant = b.grant_type;
    if (grant === undefined || grant === '') throw oauthError('invalid_request', 'grant_type is required (client_credentials)');
    if (typeof grant !== 'string') throw oauthError('invalid_request', 'grant_type must be a string');
    if (grant !== 'client_credentials')
      throw oauthError('unsupported_grant_type', `grant_type "${grant.slice(0, 40)}" is not supported; use client_credentials`);
    const auth = readClient(b, req.headers.authorization);
    const challenge = auth.viaBasic ? { 'WWW-Authenticate': 'Basic realm="token"' } : undefined;
    await this.gate.limit(`tc:${auth.clientId}`, this.config.tokenRateLimitPerMinute, reply);
    const client = await this.keys.findClient(auth.clientId);
    if (!client) {
      await verifyAgainstNothing(auth.clientSecret, this.config.scryptCost);
      throw oauthError('invalid_client', 'Client authentication failed', challenge);
    }
    await this.gate.admit(client.tenantId, req);
    const ok = await verifySecret(auth.clientSecret, client.secretHash);
    if (!ok || client.status !== 'VERIFIED') throw oauthError('invalid_client', 'Client authentication failed', challenge);
    const { token } = this.codec.issue({ clientId: auth.clientId, tenantId: client.tenantId, keyId: client.keyId });
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return { access_token: token, token_type: 'Bearer', expires_in: this.config.tokenTtlSeconds };
  }
}

/** client_id/client_secret from the body or HTTP Basic (RFC 6749 §2.3.1), never both. */
function readClient(b: Record<string, unknown>, authorization: string | undefined): ClientAuth {
  const basic = authorization && /^Basic\s+/i.test(authorization) ? authorization.replace(/^Basic\s+/i, '') : null;
  const inBody = b.client_id !== undefined || b.client_secret !== undefined;
  if (basic !== null) {
    if (inBody) throw oauthError('invalid_request', 'Send the client credentials either in the body or with HTTP Basic, not both');
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i <= 0) throw oauthError('invalid_request', 'Malformed HTTP Basic credentials');
    return { clientId: safeDecode(decoded.slice(0, i)), clientSecret: safeDecode(decoded.slice(i + 1)), viaBasic: true };
  }
  const { client_id: id, client_secret: secret } = b;
  if (typeof id !== 'string' || !id) throw oauthError('invalid_request', 'client_id is required');
  if (typeof secret !== 'string' || !secret) throw oauthError('invalid_request', 'client_secret is required');
  if (id.length > 200 || secret.length > 200) throw oauthError('invalid_client', 'Client authentication failed');
  return { clientId: id, clientSecret: secret, viaBasic: false };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
