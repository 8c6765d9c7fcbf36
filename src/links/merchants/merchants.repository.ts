import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FeeTable } from '../domain/fees';
import * as sql from '../../../kernel/platform/database/sql';
import type { Row } from '../../../kernel/platform/database/sql';

export interface Merchant {
  id: string;
  tenantId: string;
  name: string;
  taxId: string | null;
  isDefault: boolean;
  feeTable: FeeTable | null;
  source: 'SANDBOX' | 'ADMIN';
  createdAt: Date;
}

export interface NewMerchant {
  id: string;
  tenantId: string;
  name: string;
  taxId: string | null;
  isDefault: boolean;
  feeTable: FeeTable | null;
  source: 'SANDBOX' | 'ADMIN';
}

/** Port: the merchants a tenant can split with (and the one that owns its links). */
export abstract class MerchantsRepository {
  abstract list(tenantId: string): Promise<Merchant[]>;
  abstract find(tenantId: string, ids: string[]): Promise<Merchant[]>;
  abstract findDefault(tenantId: string): Promise<Merchant | null>;
  /** Inserts the rows that do not exist yet (same id or a second default are skipped). */
  abstract insertMissing(rows: NewMerchant[]): Promise<void>;
  abstract insert(row: NewMerchant): Promise<Merchant>;
}

const COLUMNS = 'id, tenant_id, name, tax_id, is_default, fee_table, source, created_at';

@Injectable()
export class SqlMerchantsRepository extends MerchantsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async list(tenantId: string): Promise<Merchant[]> {
    return (
      await sql.rows<MerchantRow>(
        this.ds,
        `SELECT ${COLUMNS} FROM links_merchants WHERE tenant_id = $1 ORDER BY is_default DESC, created_at, id`,
        [tenantId],
      )
    ).map(toMerchant);
  }

  async find(tenantId: string, ids: string[]): Promise<Merchant[]> {
    if (!ids.length) return [];
    return (
      await sql.rows<MerchantRow>(this.ds, `SELECT ${COLUMNS} FROM links_merchants WHERE tenant_id = $1 AND id = ANY($2)`, [tenantId, ids])
    ).map(toMerchant);
  }

  async findDefault(tenantId: string): Promise<Merchant | null> {
    const rows = await sql.rows<MerchantRow>(this.ds, `SELECT ${COLUMNS} FROM links_merchants WHERE tenant_id = $1 AND is_default`, [
      tenantId,
    ]);
    return rows[0] ? toMerchant(rows[0]) : null;
  }

  async insertMissing(rows: NewMerchant[]): Promise<void> {
    for (const r of rows) {
      await sql.rows(
        this.ds,
        `INSERT INTO links_merchants (id, tenant_id, name, tax_id, is_default, fee_table, source) VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING`,
        [r.id, r.tenantId, r.name, r.taxId, r.isDefault, r.feeTable ? JSON.stringify(r.feeTable) : null, r.source],
      );
    }
  }

  async insert(r: NewMerchant): Promise<Merchant> {
    const rows = await sql.rows<MerchantRow>(
      this.ds,
      `INSERT INTO links_merchants (id, tenant_id, name, tax_id, is_default, fee_table, source) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING ${COLUMNS}`,
      [r.id, r.tenantId, r.name, r.taxId, r.isDefault, r.feeTable ? JSON.stringify(r.feeTable) : null, r.source],
    );
    return toMerchant(rows[0]);
  }
}

type MerchantRow = Row<'links_merchants'>;

function toMerchant(r: MerchantRow): Merchant {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    name: r.name,
    taxId: r.tax_id,
    isDefault: r.is_default,
    feeTable: r.fee_table as Merchant['feeTable'],
    source: r.source as Merchant['source'],
    createdAt: r.created_at,
  };
}
