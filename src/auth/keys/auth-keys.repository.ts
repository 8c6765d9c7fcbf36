import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import * as sql from '../../../kernel/platform/database/sql';
import type { Row } from '../../../kernel/platform/database/sql';

export type KeyStatus = 'UNVERIFIED' | 'VERIFIED' | 'REVOKED';

export interface AuthKey {
  id: string;
  tenantId: string;
  publicKeyPem: string;
  fingerprint: string;
  status: KeyStatus;
  challenge: string | null;
  challengeExpiresAt: Date | null;
  challengeUsedAt: Date | null;
  verifiedAt: Date | null;
  revokedAt: Date | null;
  clientId: string | null;
  credentialsIssuedAt: Date | null;
  createdAt: Date;
}

export interface ClientRecord {
  keyId: string;
  tenantId: string;
  status: KeyStatus;
  secretHash: string;
}

/** Port: tenant keys, their challenges and credentials. */
export abstract class AuthKeysRepository {
  abstract insert(k: {
    tenantId: string;
    publicKeyPem: string;
    fingerprint: string;
    challenge: string;
    challengeExpiresAt: Date;
  }): Promise<AuthKey>;
  abstract find(tenantId: string, keyId: string): Promise<AuthKey | null>;
  abstract listByTenant(tenantId: string): Promise<AuthKey[]>;
  /** A fresh challenge for a key that is not revoked; null when none was updated. */
  abstract setChallenge(tenantId: string, keyId: string, challenge: string, expiresAt: Date): Promise<AuthKey | null>;
  /** Consumes the challenge and marks the key verified, only if it is the current, unused, unexpired one. */
  abstract consumeChallenge(tenantId: string, keyId: string, challenge: string, now: Date): Promise<boolean>;
  /** Sets a new secret hash on a VERIFIED key (keeping its client id, or setting `newClientId`). */
  abstract issueSecret(tenantId: string, keyId: string, newClientId: string, secretHash: string, now: Date): Promise<string | null>;
  abstract findClient(clientId: string): Promise<ClientRecord | null>;
  abstract revoke(tenantId: string, keyId: string, now: Date): Promise<AuthKey | null>;
  abstract statusOf(keyId: string): Promise<KeyStatus | null>;
}

const COLUMNS = `id, tenant_id, public_key_pem, fingerprint, status, challenge, challenge_expires_at, challenge_used_at,
  verified_at, revoked_at, client_id, credentials_issued_at, created_at`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type KeyRow = Row<'auth_keys'>;

function toKey(r: KeyRow): AuthKey {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    publicKeyPem: r.public_key_pem,
    fingerprint: r.fingerprint,
    status: r.status as AuthKey['status'],
    challenge: r.challenge,
    challengeExpiresAt: r.challenge_expires_at,
    challengeUsedAt: r.challenge_used_at,
    verifiedAt: r.verified_at,
    revokedAt: r.revoked_at,
    clientId: r.client_id,
    credentialsIssuedAt: r.credentials_issued_at,
    createdAt: r.created_at,
  };
}

/** Single-statement SQL; every state change is a conditional UPDATE checked by its row count. */
@Injectable()
export class SqlAuthKeysRepository extends AuthKeysRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async insert(k: {
    tenantId: string;
    publicKeyPem: string;
    fingerprint: string;
    challenge: string;
    challengeExpiresAt: Date;
  }): Promise<AuthKey> {
    const rows = await sql.rows<KeyRow>(
      this.ds,
      `INSERT INTO auth_keys (tenant_id, public_key_pem, fingerprint, challenge, challenge_expires_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [k.tenantId, k.publicKeyPem, k.fingerprint, k.challenge, k.challengeExpiresAt],
    );
    return toKey(rows[0]);
  }

  async find(tenantId: string, keyId: string): Promise<AuthKey | null> {
    if (!UUID.test(keyId)) return null;
    const rows = await sql.rows<KeyRow>(this.ds, `SELECT ${COLUMNS} FROM auth_keys WHERE id = $1 AND tenant_id = $2`, [keyId, tenantId]);
    return rows[0] ? toKey(rows[0]) : null;
  }

  async listByTenant(tenantId: string): Promise<AuthKey[]> {
    const rows = await sql.rows<KeyRow>(this.ds, `SELECT ${COLUMNS} FROM auth_keys WHERE tenant_id = $1 ORDER BY created_at, id`, [
      tenantId,
    ]);
    return rows.map(toKey);
  }

  async setChallenge(tenantId: string, keyId: string, challenge: string, expiresAt: Date): Promise<AuthKey | null> {
    if (!UUID.test(keyId)) return null;
    const rows = await sql.rows<KeyRow>(
      this.ds,
      `UPDATE auth_keys SET challenge = $3, challenge_expires_at = $4, challenge_used_at = NULL, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 AND status IN ('UNVERIFIED', 'VERIFIED') RETURNING ${COLUMNS}`,
      [keyId, tenantId, challenge, expiresAt],
    );
    return rows[0] ? toKey(rows[0]) : null;
  }

  async consumeChallenge(tenantId: string, keyId: string, challenge: string, now: Date): Promise<boolean> {
    const { count } = await sql.exec(
      this.ds,
      `UPDATE auth_keys SET status = 'VERIFIED', challenge_used_at = $4, verified_at = COALESCE(verified_at, $4), updated_at = now()
       WHERE id = $1 AND tenant_id = $2 AND challenge = $3 AND challenge_used_at IS NULL AND challenge_expires_at > $4
         AND status IN ('UNVERIFIED', 'VERIFIED')`,
      [keyId, tenantId, challenge, now],
    );
    return count === 1;
  }

  async issueSecret(tenantId: string, keyId: string, newClientId: string, secretHash: string, now: Date): Promise<string | null> {
    const rows = await sql.rows(
      this.ds,
      `UPDATE auth_keys SET client_id = COALESCE(client_id, $3), secret_hash = $4, credentials_issued_at = $5, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 AND status = 'VERIFIED' RETURNING client_id`,
      [keyId, tenantId, newClientId, secretHash, now],
    );
    return rows[0]?.client_id ?? null;
  }

  async findClient(clientId: string): Promise<ClientRecord | null> {
    const rows = await sql.rows(this.ds, `SELECT id, tenant_id, status, secret_hash FROM auth_keys WHERE client_id = $1`, [clientId]);
    const r = rows[0];
    return r ? { keyId: r.id, tenantId: r.tenant_id, status: r.status, secretHash: r.secret_hash } : null;
  }

  async revoke(tenantId: string, keyId: string, now: Date): Promise<AuthKey | null> {
    if (!UUID.test(keyId)) return null;
    await sql.rows(
      this.ds,
      `UPDATE auth_keys SET status = 'REVOKED', revoked_at = $3, challenge = NULL, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 AND status IN ('UNVERIFIED', 'VERIFIED')`,
      [keyId, tenantId, now],
    );
    return this.find(tenantId, keyId);
  }

  async statusOf(keyId: string): Promise<KeyStatus | null> {
    const rows = await sql.rows(this.ds, `SELECT status FROM auth_keys WHERE id = $1`, [keyId]);
    return rows[0]?.status ?? null;
  }
}
