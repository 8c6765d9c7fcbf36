import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { EngineRepository } from '../../src/pix-automatic/engine/engine.repository';
import { TestApp } from '../support/test-app';
import { newTenant, startPixApp, today } from './support';
import { transaction } from '../../kernel/platform/database/sql';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

/**
 * The engine claims due recurrences in batches, many times per run. Each claim must walk the
 * (next_send_date, id) index from the cursor and stop at the batch size; a claim that sorts every
 * due row makes a run quadratic (at 100 000 due recurrences each claim sorted 22 MB on disk).
 */
describe('billing engine claim plan', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startPixApp();
  });
  afterAll(() => t?.close());

  it('claims a batch of due recurrences by walking the engine index, without sorting them', async () => {
    const ctx = await newTenant(t, 'Plan SA');
    const ds = t.app.get(DataSource);
    const day = today(t);
    await ds.query(
      `INSERT INTO pix_recurrences (id, tenant_id, id_tx, status, amount_cents, periodicity, first_due_date, day_adjustment, payer_name, payer_tax_id, authorization_url, next_send_date)
       SELECT gen_random_uuid(), $1, 'RRPLAN' || lpad(g::text, 26, '0'), 'ACCEPTED', 4990, 'MONTHLY', $2::date + 3, 'KEEP_DUE_DATE', 'Plan Payer', '52998224725', 'http://plan/authorize', $2::date
       FROM generate_series(1, 20000) g`,
      [ctx.tenantId, day],
    );
    await ds.query('ANALYZE pix_recurrences');

    const repo = t.app.get(EngineRepository);
    const plans: PlanNode[] = [];
    await transaction(ds, async (m) => {
      const client = (m as unknown as { client: PoolClient }).client; // a Tx is a client of the SQL pool underneath
      const run = client.query.bind(client) as (sql: string, params?: unknown[]) => Promise<{ rows: any[] }>;
      // The repository's own statement, explained instead of run.
      client.query = (async (sql: string, params?: unknown[]) => {
        const r = await run(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        plans.push(r.rows[0]['QUERY PLAN'][0].Plan);
        return { rows: [], rowCount: 0 };
      }) as never;
      try {
        await repo.claimDueRecurrences(m, day, 500);
        await repo.claimDueRecurrences(m, day, 500, { date: day, id: '80000000-0000-0000-0000-000000000000' });
      } finally {
        client.query = run as never;
      }
    });

    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      const all = nodes(plan);
      expect(all.map((n) => n['Node Type'])).not.toContain('Sort');
      expect(all.map((n) => n['Index Name'])).toContain('pix_recurrences_engine_ix');
    }
  });
});
