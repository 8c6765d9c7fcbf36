import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rows, Sql } from '../sql';
import { CARD_SESSION_MACHINE } from './card-session.state-machine';
import type { Row } from '../../../kernel/platform/database/sql';

export interface NewCardSession {
  id: string;
  tenantId: string;
  documentId: string;
  urlKeyHash: Buffer;
  parentOrigin: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** What the hosted page needs to render a session (and the tenant's framing rules). */
export interface SessionView {
  tenantId: string;
  parentOrigin: string | null;
  frameAncestors: string[];
}

export interface OpenedSession {
  tenantId: string;
  failedAttempts: number;
}

/** Port: hosted card sessions. Every transition is a conditional UPDATE. */
export abstract class CardSessionsRepository {
  abstract create(s: NewCardSession): Promise<void>;
  /** CREATED → OPENED for the right URL key before expiry (the URL is single use). */
  abstract open(id: string, urlKeyHash: Buffer, pageKeyHash: Buffer, now: Date): Promise<SessionView | null>;
  /** A session known by id and URL key, whatever its state (to answer 410 rather than 404). */
  abstract peek(id: string, urlKeyHash: Buffer): Promise<SessionView | null>;
  /** An OPENED, unexpired session for the page key handed to the page that opened it. */
  abstract findOpened(id: string, pageKeyHash: Buffer, now: Date): Promise<OpenedSession | null>;
  abstract recordFailure(id: string): Promise<void>;
  /** OPENED → USED; false when another request won or the session expired meanwhile. */
  abstract markUsed(db: Sql, id: string, pageKeyHash: Buffer, storedCardId: string, now: Date): Promise<boolean>;
}

@Injectable()
export class SqlCardSessionsRepository extends CardSessionsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async create(s: NewCardSession): Promise<void> {
    await rows(
      this.ds,
      `INSERT INTO hosted_card_sessions (id, tenant_id, document_id, url_key_hash, parent_origin, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [s.id, s.tenantId, s.documentId, s.urlKeyHash, s.parentOrigin, s.createdAt, s.expiresAt],
    );
  }

  async open(id: string, urlKeyHash: Buffer, pageKeyHash: Buffer, now: Date): Promise<SessionView | null> {
    const r = await rows<SessionRow>(
      this.ds,
      `UPDATE hosted_card_sessions s SET status = $6, opened_at = $4, page_key_hash = $3
        WHERE s.id = $1 AND s.url_key_hash = $2 AND s.status = ANY($5) AND s.expires_at > $4
        RETURNING s.tenant_id, s.parent_origin,
                  (SELECT c.frame_ancestors FROM card_settings c WHERE c.tenant_id = s.tenant_id) AS frame_ancestors`,
      [id, urlKeyHash, pageKeyHash, now, CARD_SESSION_MACHINE.sourcesOf('open'), CARD_SESSION_MACHINE.targetOf('open')],
    );
    return r[0] ? view(r[0]) : null;
  }

  async peek(id: string, urlKeyHash: Buffer): Promise<SessionView | null> {
    const r = await rows<SessionRow>(
      this.ds,
      `SELECT s.tenant_id, s.parent_origin, c.frame_ancestors
         FROM hosted_card_sessions s LEFT JOIN card_settings c ON c.tenant_id = s.tenant_id
        WHERE s.id = $1 AND s.url_key_hash = $2`,
      [id, urlKeyHash],
    );
    return r[0] ? view(r[0]) : null;
  }

  async findOpened(id: string, pageKeyHash: Buffer, now: Date): Promise<OpenedSession | null> {
    const r = await rows(
      this.ds,
      `SELECT tenant_id, failed_attempts FROM hosted_card_sessions
        WHERE id = $1 AND page_key_hash = $2 AND status = 'OPENED' AND expires_at > $3`,
      [id, pageKeyHash, now],
    );
    return r[0] ? { tenantId: r[0].tenant_id, failedAttempts: r[0].failed_attempts } : null;
  }

  async recordFailure(id: string): Promise<void> {
    await rows(this.ds, `UPDATE hosted_card_sessions SET failed_attempts = failed_attempts + 1 WHERE id = $1 AND status = 'OPENED'`, [id]);
  }

  async markUsed(db: Sql, id: string, pageKeyHash: Buffer, storedCardId: string, now: Date): Promise<boolean> {
    const r = await rows(
      db,
      `UPDATE hosted_card_sessions SET status = $6, used_at = $4, stored_card_id = $3
        WHERE id = $1 AND page_key_hash = $2 AND status = ANY($5) AND expires_at > $4
        RETURNING id`,
      [id, pageKeyHash, storedCardId, now, CARD_SESSION_MACHINE.sourcesOf('tokenize'), CARD_SESSION_MACHINE.targetOf('tokenize')],
    );
    return r.length === 1;
  }
}

type SessionRow = Pick<Row<'hosted_card_sessions'>, 'tenant_id' | 'parent_origin'> & {
  frame_ancestors: Row<'card_settings'>['frame_ancestors'] | null;
};

function view(r: SessionRow): SessionView {
  return { tenantId: r.tenant_id, parentOrigin: r.parent_origin, frameAncestors: r.frame_ancestors ?? [] };
}
