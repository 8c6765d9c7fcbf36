import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rows } from '../sql';

export interface CardSettings {
  frameAncestors: string[];
  updatedAt: Date | null;
}

/** Port: per-tenant settings of the hosted card page. */
export abstract class CardSettingsRepository {
  abstract get(tenantId: string): Promise<CardSettings>;
  abstract put(tenantId: string, frameAncestors: string[], now: Date): Promise<CardSettings>;
}

@Injectable()
export class SqlCardSettingsRepository extends CardSettingsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async get(tenantId: string): Promise<CardSettings> {
    const r = await rows(this.ds, `SELECT frame_ancestors, updated_at FROM card_settings WHERE tenant_id = $1`, [tenantId]);
    return r[0] ? { frameAncestors: r[0].frame_ancestors, updatedAt: r[0].updated_at } : { frameAncestors: [], updatedAt: null };
  }

  async put(tenantId: string, frameAncestors: string[], now: Date): Promise<CardSettings> {
    const r = await rows(
      this.ds,
      `INSERT INTO card_settings (tenant_id, frame_ancestors, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id) DO UPDATE SET frame_ancestors = EXCLUDED.frame_ancestors, updated_at = EXCLUDED.updated_at
       RETURNING frame_ancestors, updated_at`,
      [tenantId, frameAncestors, now],
    );
    return { frameAncestors: r[0].frame_ancestors, updatedAt: r[0].updated_at };
  }
}
