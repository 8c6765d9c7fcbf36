import { EntityManager } from 'typeorm';

/**
 * Rows and affected count of one statement, inside the manager's transaction when it has one.
 * Outside a transaction the statement goes straight to the data source's pg pool: a TypeORM
 * query runner per statement costs more CPU than the statement on the hot paths (create).
 */
export async function exec<T = any>(m: EntityManager, text: string, params: unknown[] = []): Promise<{ rows: T[]; count: number }> {
  if (!m.queryRunner) {
    const r = await (m.dataSource.driver as unknown as { master: { query: (t: string, p: unknown[]) => Promise<{ rows: T[]; rowCount: number | null }> } }).master.query(text, params);
    return { rows: r.rows, count: r.rowCount ?? 0 };
  }
  const r = await m.queryRunner.query(text, params as any[], true);
  return { rows: (r.records ?? []) as T[], count: r.affected ?? 0 };
}

/** Currency units (JSON number, 2 decimals) → integer cents: the one conversion of common/formats/money. */
export { toCents } from '../common/formats/money';

/** Integer cents → currency units. */
export function fromCents(cents: number | string): number {
  return Number(cents) / 100;
}
