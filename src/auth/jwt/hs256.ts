import { createHmac, createSecretKey, KeyObject, timingSafeEqual } from 'node:crypto';

/** The claims of an access token. */
export interface AccessClaims {
  iss: string;
  /** client_id */
  sub: string;
  tenant: string;
  /** the tenant's keyId the credentials belong to (not the JWT header kid) */
  kid: string;
  iat: number;
  exp: number;
  jti: string;
}

export type VerifyResult =
  | { ok: true; claims: AccessClaims }
  | { ok: false; code: 'expired_token'; reason: string; claims: AccessClaims }
  | { ok: false; code: 'invalid_token'; reason: string };

interface SigningKey {
  kid: string;
  key: KeyObject;
  /** base64url of the exact header this service writes for this kid */
  headerSegment: string;
}

function b64url(s: string | Buffer): string {
  return Buffer.from(s).toString('base64url');
}

/** Tokens whose signature and claims were checked, kept per codec (see `verify`). */
export const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * HS256 JWTs by hand: `createHmac` + `timingSafeEqual` on keys imported once. Only the exact
 * header this service writes is accepted (`{"alg":"HS256","typ":"JWT","kid":…}`), so `alg`
 * confusion and unknown kids are refused before any crypto, by one map lookup.
 */
export class Hs256Codec {
  private readonly keys: SigningKey[];
  private readonly byHeader = new Map<string, SigningKey>();
  /**
   * Token → its claims, for tokens whose signature and claims were already checked: a tenant
   * sends the same token on every call for an hour, and its HMAC was a sixth of the gateway's
   * CPU per call. The key is the whole token, so only the exact bytes that verified find an
   * entry; the time checks (iat, exp) still run on every call. The keys are fixed for the
   * codec's life (a rotation restarts the service), so an entry never outlives its key.
   * Oldest entries go first when full.
   */
  private readonly verified = new Map<string, AccessClaims>();

  /** `keys` newest first: the first signs, all verify. */
  constructor(
    keys: { kid: string; key: Buffer }[],
    private readonly issuer: string,
  ) {
    if (!keys.length) throw new Error('Hs256Codec needs at least one key');
    this.keys = keys.map((k) => ({
      kid: k.kid,
      key: createSecretKey(k.key),
      headerSegment: b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: k.kid })),
    }));
    for (const k of this.keys) this.byHeader.set(k.headerSegment, k);
  }

  get signingKid(): string {
    return this.keys[0].kid;
  }

  sign(claims: AccessClaims): string {
    const k = this.keys[0];
    const input = `${k.headerSegment}.${b64url(JSON.stringify(claims))}`;
    return `${input}.${createHmac('sha256', k.key).update(input).digest('base64url')}`;
  }

  /** `nowSec`: wall-clock seconds. Never throws. */
  verify(token: string, nowSec: number): VerifyResult {
    const known = this.verified.get(token);
    if (known) return judge(known, nowSec);
    const r = this.check(token);
    if (!('claims' in r)) return r;
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, r.claims);
    return judge(r.claims, nowSec);
  }

  /** Signature and claims, without the time checks. */
  private check(token: string): { claims: AccessClaims } | { ok: false; code: 'invalid_token'; reason: string } {
    const d1 = token.indexOf('.');
    const d2 = d1 < 0 ? -1 : token.indexOf('.', d1 + 1);
    if (d1 < 0 || d2 < 0 || token.indexOf('.', d2 + 1) >= 0) return bad('not a JWT');
    const k = this.byHeader.get(token.slice(0, d1));
    if (!k) return bad('unknown header or signing key');
    const sig = Buffer.from(token.slice(d2 + 1), 'base64url');
    if (sig.length !== 32) return bad('bad signature');
    const expected = createHmac('sha256', k.key).update(token.slice(0, d2)).digest();
    if (!timingSafeEqual(sig, expected)) return bad('bad signature');
    let c: any;
    try {
      c = JSON.parse(Buffer.from(token.slice(d1 + 1, d2), 'base64url').toString('utf8'));
    } catch {
      return bad('payload is not JSON');
    }
    if (
      !c ||
      typeof c !== 'object' ||
      c.iss !== this.issuer ||
      typeof c.sub !== 'string' ||
      typeof c.tenant !== 'string' ||
      typeof c.kid !== 'string' ||
      typeof c.jti !== 'string' ||
      !Number.isInteger(c.iat) ||
      !Number.isInteger(c.exp)
    ) {
      return bad('claims missing');
    }
    return { claims: Object.freeze(c as AccessClaims) };
  }
}

function judge(c: AccessClaims, nowSec: number): VerifyResult {
  if (c.iat > nowSec + 60) return bad('issued in the future');
  if (nowSec >= c.exp) return { ok: false, code: 'expired_token', reason: 'expired', claims: c };
  return { ok: true, claims: c };
}

function bad(reason: string): { ok: false; code: 'invalid_token'; reason: string } {
  return { ok: false, code: 'invalid_token', reason };
}
