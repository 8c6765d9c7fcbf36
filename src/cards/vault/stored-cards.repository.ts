import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CardBrandName } from '../domain/card-input';
import { EncryptedPan } from '../domain/vault-crypto';
import { poolRows, rows, Sql } from '../sql';
import type { Row } from '../../../kernel/platform/database/sql';

export interface NewStoredCard {
  id: string;
  tenantId: string;
  fingerprint: string;
  sealed: EncryptedPan;
  brand: CardBrandName;
  first4: string;
  last4: string;
  expMonth: number;
  expYear: number;
  nickname?: string;
  now: Date;
}

export interface NewCardToken {
  id: string;
  expiresAt: Date;
}

export interface StoredCardRecord {
  id: string;
  tenantId: string;
  sealed: EncryptedPan;
  fingerprint: string;
  brand: CardBrandName;
  first4: string;
  last4: string;
  expMonth: number;
  expYear: number;
  nickname: string | null;
}

export type TokenClaim = { outcome: 'claimed'; storedCardId: string } | { outcome: 'not_found' | 'used' | 'expired' };

/** Port: stored cards (the vault table) and their single-use tokens. */
export abstract class StoredCardsRepository {
  /**
   * Stores the card (or, when the tenant already has the same card by fingerprint, refreshes
   * its expiry and nickname) and issues a token for it, in ONE statement. Answers the stored
   * card id in force (the existing one when the card was known).
   */
  abstract saveWithToken(db: Sql, card: NewStoredCard, token: NewCardToken): Promise<string>;
  abstract find(db: Sql, tenantId: string, storedCardId: string): Promise<StoredCardRecord | null>;
  /** The card behind an unused, unexpired token (the token is not consumed). */
  abstract findByLiveToken(tenantId: string, tokenId: string, now: Date): Promise<StoredCardRecord | null>;
  /** Marks the token used (conditional UPDATE: only one caller ever wins). */
  abstract claimToken(db: Sql, tenantId: string, tokenId: string, now: Date): Promise<TokenClaim>;
  /** Up to `limit` records not under `activeKeyId`, locked for re-wrapping (SKIP LOCKED). */
  abstract lockForRewrap(db: Sql, activeKeyId: string, limit: number): Promise<StoredCardRecord[]>;
  abstract updateWrapping(db: Sql, storedCardId: string, sealed: EncryptedPan): Promise<void>;
  abstract countByKey(): Promise<Record<string, number>>;
  /** The tenant's stored cards, newest first (display values only). */
  abstract list(tenantId: string, limit: number, offset: number): Promise<[StoredCardSummary[], number]>;
}

export interface StoredCardSummary {
  id: string;
  brand: string;
  first4: string;
  last4: string;
  expMonth: number;
  expYear: number;
  nickname: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const CARD_COLUMNS = `id, tenant_id, fingerprint, key_id, wrapped_data_key, iv, tag, ciphertext, brand, first4, last4, exp_month, exp_year, nickname`;

type CardRow = Row<'stored_cards'>;

function toRecord(r: CardRow): StoredCardRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    fingerprint: r.fingerprint,
    sealed: { keyId: r.key_id, wrappedDataKey: r.wrapped_data_key, iv: r.iv, tag: r.tag, ciphertext: r.ciphertext },
    brand: r.brand as StoredCardRecord['brand'],
    first4: r.first4,
    last4: r.last4,
    expMonth: Number(r.exp_month),
    expYear: Number(r.exp_year),
    nickname: r.nickname,
  };
}

@Injectable()
export class SqlStoredCardsRepository extends StoredCardsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async saveWithToken(db: Sql, c: NewStoredCard, t: NewCardToken): Promise<string> {
    const run = db instanceof DataSource ? poolRows : rows;
    const r = await run(
      db as DataSource,
      `WITH card AS (
         INSERT INTO stored_cards (id, tenant_id, fingerprint, key_id, wrapped_data_key, iv, tag, ciphertext,
                                   brand, first4, last4, exp_month, exp_year, nickname, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
         ON CONFLICT (tenant_id, fingerprint) DO UPDATE
           SET exp_month = EXCLUDED.exp_month, exp_year = EXCLUDED.exp_year,
               nickname = COALESCE(EXCLUDED.nickname, stored_cards.nickname), updated_at = EXCLUDED.updated_at
         RETURNING id)
       INSERT INTO card_tokens (id, tenant_id, stored_card_id, created_at, expires_at)
       SELECT $16, $2, card.id, $15, $17 FROM card
       RETURNING stored_card_id`,
      [
        c.id,
        c.tenantId,
        c.fingerprint,
        c.sealed.keyId,
        c.sealed.wrappedDataKey,
        c.sealed.iv,
        c.sealed.tag,
        c.sealed.ciphertext,
        c.brand,
        c.first4,
        c.last4,
        c.expMonth,
        c.expYear,
        c.nickname ?? null,
        c.now,
        t.id,
        t.expiresAt,
      ],
    );
    return r[0].stored_card_id;
  }

  async find(db: Sql, tenantId: string, storedCardId: string): Promise<StoredCardRecord | null> {
    const r = await rows<CardRow>(db, `SELECT ${CARD_COLUMNS} FROM stored_cards WHERE id = $1 AND tenant_id = $2`, [
      storedCardId,
      tenantId,
    ]);
    return r[0] ? toRecord(r[0]) : null;
  }

  async findByLiveToken(tenantId: string, tokenId: string, now: Date): Promise<StoredCardRecord | null> {
    const r = await rows<CardRow>(
      this.ds,
      `SELECT ${CARD_COLUMNS.split(', ')
        .map((c) => `s.${c}`)
        .join(', ')}
         FROM card_tokens t JOIN stored_cards s ON s.id = t.stored_card_id
        WHERE t.id = $1 AND t.tenant_id = $2 AND t.used_at IS NULL AND t.expires_at > $3`,
      [tokenId, tenantId, now],
    );
    return r[0] ? toRecord(r[0]) : null;
  }

  async claimToken(db: Sql, tenantId: string, tokenId: string, now: Date): Promise<TokenClaim> {
    const claimed = await rows(
      db,
      `UPDATE card_tokens SET used_at = $3
        WHERE id = $1 AND tenant_id = $2 AND used_at IS NULL AND expires_at > $3
        RETURNING stored_card_id`,
      [tokenId, tenantId, now],
    );
    if (claimed[0]) return { outcome: 'claimed', storedCardId: claimed[0].stored_card_id };
    const seen = await rows(db, `SELECT used_at FROM card_tokens WHERE id = $1 AND tenant_id = $2`, [tokenId, tenantId]);
    if (!seen[0]) return { outcome: 'not_found' };
    return { outcome: seen[0].used_at ? 'used' : 'expired' };
  }

  async lockForRewrap(db: Sql, activeKeyId: string, limit: number): Promise<StoredCardRecord[]> {
    const r = await rows<CardRow>(
      db,
      `SELECT ${CARD_COLUMNS} FROM stored_cards WHERE key_id <> $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [activeKeyId, limit],
    );
    return r.map(toRecord);
  }

  async updateWrapping(db: Sql, storedCardId: string, s: EncryptedPan): Promise<void> {
    await rows(db, `UPDATE stored_cards SET key_id = $2, wrapped_data_key = $3 WHERE id = $1`, [storedCardId, s.keyId, s.wrappedDataKey]);
  }

  async list(tenantId: string, limit: number, offset: number): Promise<[StoredCardSummary[], number]> {
    const [items, total] = await Promise.all([
      rows(
        this.ds,
        `SELECT id, brand, first4, last4, exp_month, exp_year, nickname, created_at, updated_at FROM stored_cards
          WHERE tenant_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
        [tenantId, limit, offset],
      ),
      rows(this.ds, `SELECT count(*)::int AS n FROM stored_cards WHERE tenant_id = $1`, [tenantId]),
    ]);
    const summaries = items.map((r) => ({
      id: r.id,
      brand: r.brand,
      first4: r.first4,
      last4: r.last4,
      expMonth: Number(r.exp_month),
      expYear: Number(r.exp_year),
      nickname: r.nickname,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
    return [summaries, total[0].n];
  }

  async countByKey(): Promise<Record<string, number>> {
    const r = await rows(this.ds, `SELECT key_id, count(*)::int AS n FROM stored_cards GROUP BY key_id`);
    return Object.fromEntries(r.map((x) => [x.key_id, x.n]));
  }
}
