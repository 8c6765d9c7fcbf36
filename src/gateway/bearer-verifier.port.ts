import { AppError } from '../../kernel/platform/errors/app-error';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';

/** A bearer token as read by the verifier. */
export interface BearerCheck {
  /** Known once the signature is good (even when expired): the allow-list is checked first. */
  tenantId: string | null;
  context: TenantContext | null;
  /** 401 `invalid_token` / `expired_token` when set. */
  error: AppError | null;
}

/**
 * Port: reads `Authorization: Bearer …`. Bound by the auth module (HS256 JWT + revocation);
 * the gateway only orders the checks.
 */
export abstract class BearerVerifier {
  /** Signature, claims, expiry: synchronous and cheap. */
  abstract read(authorization: string | undefined): BearerCheck;
  /** Whether the credentials behind a token were revoked (bounded staleness). */
  abstract isRevoked(keyId: string): boolean | Promise<boolean>;
}
