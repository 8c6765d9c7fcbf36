// The engine bench's data and its SQL floor.
//
// `seedDueRecurrences` writes ACCEPTED recurrences (ours and the sandbox bank's) with a send date
// far ahead; the caller makes them due in one statement when its clock starts.
//
// `sqlFloor` is the billing engine's writes with no application at all: set-based statements
// that PostgreSQL runs on its own, in batches of 5 000 claimed in keyset order with FOR UPDATE
// SKIP LOCKED, on `workers` connections side by side (the service's BILLING_ENGINE_CONCURRENCY
// in the bench). Nothing travels to Node but the ids the bank step and the SENT step need. It
// writes either
//   - `spec`: only what the spec requires of each billing: the billing (PENDING_SEND) and its
//     BILLING_REQUESTED event in the outbox, the recurrence's cursor (and ACCEPTED → ACTIVE), in
//     one transaction; the bank's billing; the billing's PENDING_SEND → SENT; or
//   - `service`: the rows the service writes for it: the above plus the once-only row of the
//     event, the event's delivery record and the bank's recurrence ACCEPTED → ACTIVE.
// No engine can do the same work faster than PostgreSQL does these statements alone, so the
// figure is the floor under the engine's ratio.
const { randomUUID } = require('node:crypto');
const { Client } = require('pg');
const { saoPauloDay } = require('../lib');

const CHUNK = 5000;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

async function seedDueRecurrences(pg, tenantId, n, due) {
  for (let i = 0; i < n; i += CHUNK) {
    const k = Math.min(CHUNK, n - i);
    const ids = Array.from({ length: k }, () => randomUUID());
    const tx = ids.map((_, j) => `RRBENCH${String(i + j).padStart(25, '0')}`);
    await pg.query(
      `INSERT INTO pix_recurrences (id, tenant_id, id_tx, status, amount_cents, periodicity, first_due_date, day_adjustment, payer_name, payer_tax_id, authorization_url, next_send_date)
       SELECT id, $2, x, 'ACCEPTED', 4990, 'MONTHLY', $3, 'KEEP_DUE_DATE', 'Bench Payer', '52998224725', 'http://bench/authorize', $4
       FROM unnest($1::uuid[], $5::text[]) AS v(id, x)`,
      [ids, tenantId, due, '2999-01-01', tx],
    );
    await pg.query(
      `INSERT INTO sandbox.sandbox_bank_recurrences (recurrence_id, id_tx, receiver_id, receiver_name, status, amount_cents, periodicity, first_due_date, day_adjustment, payer_name, payer_tax_id, authorization_deadline)
       SELECT id::text, x, $2, 'Bench Engine', 'ACCEPTED', 4990, 'MONTHLY', $3, 'KEEP_DUE_DATE', 'Bench Payer', '52998224725', $3
       FROM unnest($1::uuid[], $4::text[]) AS v(id, x)`,
      [ids, tenantId, due, tx],
    );
  }
  await pg.query('ANALYZE');
}

/** One generation transaction: claim, billings, events, cursors. Returns the new billings. */
function generateSql(rows, part) {
  const service = rows === 'service';
  return `
    WITH due AS (
      SELECT id, tenant_id, next_cycle FROM pix_recurrences
      WHERE status IN ('ACCEPTED','ACTIVE') AND next_send_date <= $1 AND (next_send_date, id) > ($4::date, $5::uuid) ${part}
      ORDER BY next_send_date, id LIMIT ${CHUNK} FOR UPDATE SKIP LOCKED
    ), b AS (
      INSERT INTO pix_billings (tenant_id, recurrence_id, cycle, kind, id_tx, amount_cents, due_date, next_attempt_at)
      SELECT tenant_id, id, next_cycle, 'REGULAR', 'BL' || upper(left(md5(id::text), 30)), 4990, $2, now() FROM due
      RETURNING id, tenant_id, id_tx, recurrence_id, cycle, due_date
    ), ${service ? `once AS (INSERT INTO pix_published_events (id_tx, event_type) SELECT id_tx, 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED' FROM b),` : ''}
    ev AS (
      INSERT INTO webhook_events (id, tenant_id, domain, type, id_tx, data, occurred_at, created_at)
      SELECT 'evt_' || left(md5(id_tx), 24), tenant_id, 'pix-automatic', 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED', id_tx,
             jsonb_build_object('billingId', id, 'recurrenceId', recurrence_id, 'idTx', id_tx, 'cycle', cycle, 'amount', 49.9, 'dueDate', due_date, 'status', 'PENDING_SEND'),
             now(), now()
      FROM b RETURNING id, tenant_id, type
    ), ${service ? `delivery AS (INSERT INTO webhook_deliveries (tenant_id, event_id, domain, event_type, status, created_at) SELECT tenant_id, id, 'pix-automatic', type, 'NO_ENDPOINT', now() FROM ev),` : ''}
    cursor AS (
      UPDATE pix_recurrences p SET next_cycle = p.next_cycle + 1, next_send_date = $3, status = 'ACTIVE', updated_at = now()
      FROM due WHERE p.id = due.id
    )
    SELECT b.id::text, b.id_tx, b.recurrence_id::text, b.due_date::text,
           (SELECT max(id::text) FROM due) AS last_id
    FROM b`;
}

async function worker(url, rows, part, days) {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    let after = ZERO_UUID;
    for (;;) {
      await pg.query('BEGIN');
      const { rows: made } = await pg.query(generateSql(rows, part), [days.today, days.due, days.next, days.today, after]);
      await pg.query('COMMIT');
      if (!made.length) return;
      after = made[0].last_id;
      await pg.query('BEGIN');
      await pg.query(
        `INSERT INTO sandbox.sandbox_bank_billings (id_tx, billing_id, recurrence_id, status, amount_cents, due_date)
         SELECT x, b, r, 'RECEIVED', 4990, d::date FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS v(x, b, r, d)
         ON CONFLICT (id_tx) DO NOTHING`,
        [made.map((r) => r.id_tx), made.map((r) => r.id), made.map((r) => r.recurrence_id), made.map((r) => r.due_date)],
      );
      if (rows === 'service') {
        await pg.query(`UPDATE sandbox.sandbox_bank_recurrences SET status = 'ACTIVE', updated_at = now() WHERE recurrence_id = ANY($1) AND status = 'ACCEPTED'`, [made.map((r) => r.recurrence_id)]);
      }
      await pg.query('COMMIT');
      await pg.query(
        `UPDATE pix_billings SET status = 'SENT', send_attempts = send_attempts + 1, next_attempt_at = NULL, updated_at = now()
         WHERE id = ANY($1::uuid[]) AND status IN ('PENDING_SEND','SEND_FAILED')`,
        [made.map((r) => r.id)],
      );
    }
  } finally {
    await pg.end();
  }
}

/**
 * Makes every seeded recurrence due today, then runs the floor to the end. All recurrences of
 * one send date, so the keyset is the id alone; workers split the ids by their first byte.
 * Returns the elapsed milliseconds from the moment they became due.
 */
async function sqlFloor(url, { rows, workers, n }) {
  const days = { today: saoPauloDay(0), due: saoPauloDay(3), next: saoPauloDay(33) };
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    await pg.query('UPDATE pix_recurrences SET next_send_date = $1', [days.today]);
    const start = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: workers }, (_, k) => worker(url, rows, workers === 1 ? '' : `AND get_byte(uuid_send(id), 0) % ${workers} = ${k}`, days)),
    );
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const sent = (await pg.query(`SELECT count(*)::int AS n FROM pix_billings WHERE status = 'SENT'`)).rows[0].n;
    if (sent !== n) throw new Error(`SQL floor (${rows}): ${sent} billings SENT, ${n} expected`);
    return ms;
  } finally {
    await pg.end();
  }
}

module.exports = { seedDueRecurrences, sqlFloor, generateSql, CHUNK, ZERO_UUID };
