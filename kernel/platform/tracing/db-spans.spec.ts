import { summaryOf } from './db-spans';

describe('database span names', () => {
  it.each([
    ['SELECT id, name FROM links WHERE id = $1 AND tenant_id = $2', 'SELECT links'],
    ['  select * from public.tenants where id = $1', 'SELECT public.tenants'],
    ['SELECT l.id, (SELECT json_agg(p) FROM links_payments p WHERE p.link_id = l.id) FROM links l', 'SELECT links_payments'],
    ['INSERT INTO pix_recurrences (id, tenant_id) VALUES ($1, $2) RETURNING id', 'INSERT pix_recurrences'],
    ['UPDATE card_payments SET status = $2 WHERE id = $1', 'UPDATE card_payments'],
    ['DELETE FROM webhook_deliveries WHERE id = ANY($1)', 'DELETE webhook_deliveries'],
    [
      'WITH ev AS (INSERT INTO webhook_events (id) VALUES ($1) RETURNING id) INSERT INTO webhook_deliveries SELECT id FROM ev',
      'INSERT webhook_events',
    ],
    ['WITH due AS (SELECT id FROM pix_billings LIMIT 10) SELECT * FROM due', 'SELECT pix_billings'],
    ['-- the claim\nUPDATE "webhook_deliveries" SET status = $1', 'UPDATE webhook_deliveries'],
    ['BEGIN', 'BEGIN'],
    ['SELECT pg_try_advisory_lock($1) AS ok', 'SELECT'],
    ["SELECT 'a value' AS x", 'SELECT'],
  ])('%s → %s', (text, name) => {
    expect(summaryOf(text)).toBe(name);
  });
});
