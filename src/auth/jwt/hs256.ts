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

/** Tokens whose signature and claims were checked, kept per codec (see `verify`): at most this many… */
export const VERIFIED_TOKENS_KEPT = 10_000;
/** …and at most this many characters of tokens in all (a token is at most `MAX_TOKEN_LENGTH`). */
export const VERIFIED_TOKEN_CHARS_KEPT = 4 * 1024 * 1024;
/**
 * A token longer than this is refused before any work. This service's tokens are about 400
 * characters (a fixed header, seven short claims, a 43-character signature).
 */
export const MAX_TOKEN_LENGTH = 1024;

/** base64url without padding, canonical: re-encoding the bytes gives the same text. */
const B64URL = /^[A-Za-z0-9_-]+$/;
/** An HS256 signature: 32 bytes are exactly 43 characters, the last holding 2 zero bits. */
const SIGNATURE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

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
   * Only canonical tokens reach it (one text per signed token, see `check`), only live ones are
   * kept (an entry found expired is dropped), and it is bounded by count and by characters;
   * oldest entries go first when full.
   */
  private readonly verified = new Map<string, AccessClaims>();
  private verifiedChars = 0;

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
    if (known) {
      const v = judge(known, nowSec);
      if (!v.ok) this.forget(token);
      return v;
    }
    const r = this.check(token);
    if (!('claims' in r)) return r;
    const v = judge(r.claims, nowSec);
    if (v.ok) this.keep(token, r.claims);
    return v;
  }

  private keep(token: string, claims: AccessClaims): void {
    while (
      this.verified.size &&
      (this.verified.size >= VERIFIED_TOKENS_KEPT || this.verifiedChars + token.length > VERIFIED_TOKEN_CHARS_KEPT)
    ) {
      this.forget(this.verified.keys().next().value as string);
    }
    this.verified.set(token, claims);
    this.verifiedChars += token.length;
  }

  private forget(token: string): void {
    if (this.verified.delete(token)) this.verifiedChars -= token.length;
  }

  /** What the store holds now (tests, metrics). */
  get kept(): { tokens: number; chars: number } {
    return { tokens: this.verified.size, chars: this.verifiedChars };
  }

  /** Signature and claims, without the time checks. */
  private check(token: string): { claims: AccessClaims } | { ok: false; code: 'invalid_token'; reason: string } {
    // Strict compact JWS: a decoder that skips characters outside the alphabet or accepts padding
    // gives endless texts for one signed token, each a new entry in the store above.
    if (token.length > MAX_TOKEN_LENGTH) return bad('too long');
    const d1 = token.indexOf('.');
    const d2 = d1 < 0 ? -1 : token.indexOf('.', d1 + 1);
    if (d1 < 0 || d2 < 0 || token.indexOf('.', d2 + 1) >= 0) return bad('not a JWT');
    const k = this.byHeader.get(token.slice(0, d1));
    if (!k) return bad('unknown header or signing key');
    const sigText = token.slice(d2 + 1);
    const payloadText = token.slice(d1 + 1, d2);
    if (!SIGNATURE.test(sigText)) return bad('bad signature');
    if (!B64URL.test(payloadText)) return bad('payload is not base64url');
    const payload = Buffer.from(payloadText, 'base64url');
    if (payload.toString('base64url') !== payloadText) return bad('payload is not canonical base64url');
    const sig = Buffer.from(sigText, 'base64url');
    const expected = createHmac('sha256', k.key).update(token.slice(0, d2)).digest();
    if (!timingSafeEqual(sig, expected)) return bad('bad signature');
    let c: any;
    try {
      c = JSON.parse(payload.toString('utf8'));
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
