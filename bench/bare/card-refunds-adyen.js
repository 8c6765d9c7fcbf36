// The required-work floor for POST /v1/acquiring/payments/{paymentId}/refunds on
// ACQUIRER_PROVIDER=adyen (a partial refund of a captured sale): node:http + pg doing what a
// refund needs and nothing else: the gateway's checks (./gateway-check), the payment read
// (the columns a refund needs, the tenant checked) and its balance read, both before the
// transaction as the service reads them; then one transaction: the balance row made only when
// the read found none, the amount reserved by the same conditional UPDATE (the cap is the guard),
// the refund row inserted PENDING and its acquiring.refund webhook written by the outbox's one
// statement (event + delivery, routed to an active endpoint when there is one); then one
// POST /payments/{pspReference}/refunds over keep-alive HTTPS to the bare stub acquirer, and the
// UPDATE that keeps its pspReference. The answer is built from what was written (no re-read).
// No framework, validation, retries, breaker or logs; nothing prepared (the service
// prepares none of these statements).
const { createServer } = require('node:http');
const { randomBytes, randomUUID } = require('node:crypto');
const { Pool } = require('pg');
const { admitter } = require('./gateway-check');
const { send, postToAdyen } = require('./adyen-client');

const admit = admitter(process.env.JWT_SIGNING_KEYS);
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const ROUTE = /^\/v1\/acquiring\/payments\/([^/?]+)\/refunds$/;
const rfc3339 = (d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

async function refundAtAdyen(pspReference, body, key) {
  const r = await postToAdyen(`/payments/${encodeURIComponent(pspReference)}/refunds`, body, key);
  if (r.status >= 300) throw new Error(`refund answered ${r.status}`);
  return r.body;
}

/** The route after the gateway's check (`claims`: null when it refused the call). */
function admitted(req, res, claims) {
  if (!claims) return send(res, 401, {});
  const route = ROUTE.exec(req.url);
  if (req.method !== 'POST' || !route) return send(res, 404, {});
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', async () => {
    try {
      const b = JSON.parse(raw);
      const tenantId = claims.tenant;
      const paymentId = decodeURIComponent(route[1]);
      const p = (
        await pool.query(
          `SELECT status, capture_mode, captured_at, amount_cents, captured_amount_cents, acquirer_transaction_id FROM card_payments WHERE id = $1 AND tenant_id = $2`,
          [paymentId, tenantId],
        )
      ).rows[0];
      if (!p) return send(res, 404, { error: 'payment_not_found' });
      const captured = p.status === 'ACCEPTED' || p.status === 'CAPTURED' || (p.status === 'VOID_FAILED' && (p.capture_mode === 'SALE' || p.captured_at));
      if (!captured || !p.acquirer_transaction_id) return send(res, 409, { error: 'payment_not_refundable' });
      const capCents = Number(p.captured_amount_cents ?? p.amount_cents);
      const bal = (await pool.query(`SELECT cap_cents, refunded_cents, disputed_cents FROM refund_balances WHERE payment_id = $1`, [paymentId])).rows[0];
      const cents = Math.round(b.amount * 100);
      const refundId = randomUUID();
      const now = new Date();
      const view = {
        refundId, paymentId, method: 'refund', amount: cents / 100, currency: 'BRL', reason: b.reason, status: 'PENDING',
        createdAt: rfc3339(now), updatedAt: rfc3339(now),
      };
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        if (!bal)
          await c.query(`INSERT INTO refund_balances (payment_id, tenant_id, payment_kind, cap_cents) VALUES ($1, $2, 'card_payment', $3) ON CONFLICT (payment_id) DO NOTHING`, [paymentId, tenantId, capCents]);
        const reserved = await c.query(
          `UPDATE refund_balances SET refunded_cents = refunded_cents + $2 WHERE payment_id = $1 AND refunded_cents + disputed_cents + $2 <= cap_cents`,
          [paymentId, cents],
        );
        if (reserved.rowCount !== 1) {
          await c.query('ROLLBACK');
          return send(res, 422, { error: 'refund_exceeds_refundable' });
        }
        await c.query(
          `INSERT INTO refunds (id, tenant_id, payment_id, payment_kind, method, amount_cents, reason, description, status, request_id, created_at, updated_at)
           VALUES ($1, $2, $3, 'card_payment', 'refund', $4, $5, $6, 'PENDING', $7, $8, $8)`,
          [refundId, tenantId, paymentId, cents, b.reason, b.description ?? null, randomUUID(), now],
        );
        // the re-send's fallback job, due 30 s later, as the service enqueues it with the refund
        await c.query(
          `INSERT INTO jobs (kind, key, payload, run_at) VALUES ('refund.send.card', $1, $2, $3) ON CONFLICT ON CONSTRAINT jobs_once DO NOTHING`,
          [refundId, JSON.stringify({ refundId }), new Date(now.getTime() + 30_000)],
        );
        await c.query(
          `WITH ev AS (INSERT INTO webhook_events (id, tenant_id, domain, type, id_tx, data, occurred_at, created_at)
                       VALUES ($1, $2, 'acquiring', 'acquiring.refund', $3, $4, $5, $5) RETURNING id, tenant_id, domain, type)
           INSERT INTO webhook_deliveries (tenant_id, event_id, endpoint_id, domain, event_type, status, next_attempt_at, created_at)
           SELECT ev.tenant_id, ev.id, e.id, ev.domain, ev.type, CASE WHEN e.id IS NULL THEN 'NO_ENDPOINT' ELSE 'PENDING' END,
                  CASE WHEN e.id IS NULL THEN NULL ELSE $5::timestamptz END, $5
           FROM ev LEFT JOIN webhook_endpoints e ON e.tenant_id = ev.tenant_id AND e.domain = ev.domain AND e.status = 'ACTIVE'
           WHERE e.id IS NULL OR e.events IS NULL OR ev.type = ANY (e.events)`,
          [`evt_${randomBytes(12).toString('hex')}`, tenantId, refundId, JSON.stringify(view), now],
        );
        await c.query('COMMIT');
      } catch (e) {
        await c.query('ROLLBACK');
        throw e;
      } finally {
        c.release();
      }
      const a = await refundAtAdyen(p.acquirer_transaction_id, { merchantAccount: 'BenchMerchant', reference: refundId, amount: { currency: 'BRL', value: cents } }, refundId);
      const at = new Date();
      await pool.query(
        `UPDATE refunds SET provider_reference = COALESCE(provider_reference, $2), updated_at = $3 WHERE id = $1 AND status = 'PENDING'`,
        [refundId, a.pspReference || null, at],
      );
      send(res, 201, { ...view, providerReference: a.pspReference, updatedAt: rfc3339(at) });
    } catch (e) {
      send(res, 500, { error: String(e.message) });
    }
  });
}

createServer((req, res) => {
  if (req.url === '/__ready') return send(res, 200, { ok: true });
  admit(req, res, (claims) => admitted(req, res, claims));
}).listen(Number(process.env.PORT), '127.0.0.1');
