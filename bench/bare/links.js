// Bare baseline for GET /v1/acquiring/links/{linkId}: node:http + pg, the same SQL on the same
// tables and the same JSON, with nothing else (no framework, no validation, no rate limit); the
// bearer checked by the service's own codec with its store of verified tokens (./hs256-check).
// The service's three round trips, one after the other as it makes them: the link with its
// payments and events, what went back of the link (refund_balances summed by parent), and what
// went back of each payment (its refund_balances rows), for the refund and dispute fields.
const { createServer } = require('node:http');
const { Pool } = require('pg');
const { hs256Checker } = require('./hs256-check');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE || 10) });
const TENANT = process.env.TENANT_ID;
const PUBLIC_URL = process.env.PUBLIC_URL;
const verify = hs256Checker(process.env.JWT_SIGNING_KEYS);
const COLS = ['id', 'tenant_id', 'slug', 'owner_merchant_id', 'name', 'description', 'amount_cents', 'min_amount_cents', 'max_amount_cents', 'payment_methods',
  'max_installments', 'pass_fee', 'splits', 'max_uses', 'checkout_attempts_per_minute', 'expires_at', 'notify_email', 'actor_email', 'status', 'view_count', 'attempt_count', 'paid_count',
  'total_paid_cents', 'created_at', 'updated_at'];
const SQL = `SELECT ${COLS.map((c) => `l.${c}`).join(', ')},
  (SELECT json_agg(json_build_object('id', p.id, 'method', p.method, 'status', p.status, 'amount_cents', p.amount_cents, 'fee_cents', p.fee_cents,
     'net_cents', p.net_cents, 'installments', p.installments, 'payer', p.payer, 'instrument', p.instrument, 'splits', p.splits,
     'reason', p.reason, 'paid_at', p.paid_at, 'created_at', p.created_at, 'updated_at', p.updated_at) ORDER BY p.seq)
   FROM links_payments p WHERE p.link_id = l.id) AS payments,
  (SELECT json_agg(e ORDER BY e.id) FROM (SELECT id, type, payment_id, data, occurred_at FROM links_events WHERE link_id = l.id ORDER BY id DESC LIMIT 200) e) AS events
  FROM links l WHERE l.id = $1 AND l.tenant_id = $2`;
const PARENT_TOTALS = `SELECT parent_id, sum(refunded_cents) AS refunded, sum(disputed_cents) AS disputed, sum(cap_cents) AS cap
  FROM refund_balances WHERE parent_id = ANY($1::text[]) GROUP BY parent_id`;
const PAYMENT_TOTALS = 'SELECT * FROM refund_balances WHERE payment_id = ANY($1::text[])';
// which payments can be refunded with no refund yet (src/links/links/link-views.ts): a card sale or
// a boleto paid by clearing always, a Pix (or a boleto paid by its Pix) only where API Pix takes devoluções
const PAID_ELSEWHERE = new Set(['CARD:ACCEPTED', 'CARD:CAPTURED', 'BOLETO:PAID']);
const PAID_BY_PIX = new Set(['PIX:AUTHORIZED', 'PIX:SETTLED', 'BOLETO:PAID_PIX']);
const DEVOLUCOES = (process.env.BANK_PROVIDER || 'service') === 'pix-api';
const PAID = new Set(['ACCEPTED', 'CAPTURED', 'PAID', 'PAID_PIX', 'AUTHORIZED', 'SETTLED']);
const KEYS = ['brand', 'last4', 'txid', 'expiresAt', 'boletoId', 'digitableLine', 'dueDate'];
const n = (v) => (v === null ? null : Number(v) / 100);
const iso = (v) => (v === null || v === undefined ? null : new Date(v).toISOString());

/** A refund_balances total as the service's RefundTotals gives it, in cents. */
const total = (refunded, disputed, cap) => ({ refunded: Number(refunded), disputed: Number(disputed), refundable: Number(cap) - Number(refunded) - Number(disputed) });

function toJson(r, ofLink, ofPayments) {
  const refunded = ofLink?.refunded ?? 0;
  const disputed = ofLink?.disputed ?? 0;
  return {
    linkId: r.id, slug: r.slug, checkoutUrl: `${PUBLIC_URL}/checkout/${r.slug}`, status: r.status, name: r.name, description: r.description,
    amount: n(r.amount_cents), minAmount: n(r.min_amount_cents), maxAmount: n(r.max_amount_cents), paymentMethods: r.payment_methods,
    maxInstallments: r.max_installments, passFee: r.pass_fee,
    splits: r.splits.map((s) => ({ merchantId: s.merchantId, ...(s.percentage !== undefined ? { percentage: s.percentage } : {}), ...(s.amountCents !== undefined ? { amount: s.amountCents / 100 } : {}) })),
    ownerMerchantId: r.owner_merchant_id, maxUses: r.max_uses, checkoutAttemptsPerMinute: r.checkout_attempts_per_minute, expiresAt: iso(r.expires_at), notifyEmail: r.notify_email,
    actor: r.actor_email ? { email: r.actor_email } : null, viewCount: Number(r.view_count), attemptCount: r.attempt_count, paidCount: r.paid_count,
    totalPaid: (Number(r.total_paid_cents) - refunded - disputed) / 100, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
    totalRefunded: refunded / 100, totalDisputed: disputed / 100,
    payments: r.payments === null ? null : r.payments.map((p) => {
      const method = { type: p.method };
      for (const k of KEYS) if (p.instrument[k] !== undefined) method[k] = p.instrument[k];
      const t = ofPayments.get(p.id);
      const paid = `${p.method}:${p.status}`;
      const refundable = PAID_ELSEWHERE.has(paid) || (DEVOLUCOES && PAID_BY_PIX.has(paid));
      return {
        id: p.id, transactionMethod: p.method, status: p.status, paid: PAID.has(p.status), amount: Number(p.amount_cents) / 100, fee: Number(p.fee_cents) / 100,
        netAmount: Number(p.net_cents) / 100, installments: p.installments, method,
        payer: { name: p.payer.name, email: p.payer.email, taxId: p.payer.taxId ?? null },
        splits: p.splits.map((a) => ({ merchantId: a.merchantId, amount: a.amountCents / 100 })),
        reason: p.reason ?? null, paidAt: iso(p.paid_at), createdAt: iso(p.created_at), updatedAt: iso(p.updated_at),
        refundedAmount: (t?.refunded ?? 0) / 100, disputedAmount: (t?.disputed ?? 0) / 100,
        refundableAmount: t ? t.refundable / 100 : refundable ? Number(p.amount_cents) / 100 : 0,
      };
    }),
    events: (r.events || []).map((e) => ({ type: e.type, paymentId: e.payment_id ?? null, data: e.data ?? {}, occurredAt: iso(e.occurred_at) })),
  };
}

createServer(async (req, res) => {
  if (req.url === '/__ready') return res.writeHead(200).end();
  const m = /^\/v1\/acquiring\/links\/([0-9a-f-]{36})$/.exec(req.url);
  if (!m) return res.writeHead(404).end();
  if (verify(req.headers.authorization)?.tenant !== TENANT) return res.writeHead(401).end();
  try {
    const { rows } = await pool.query(SQL, [m[1], TENANT]);
    if (!rows[0]) return res.writeHead(404).end();
    const [ofLink] = (await pool.query(PARENT_TOTALS, [[rows[0].id]])).rows;
    const ofPayments = new Map();
    if (rows[0].payments?.length) {
      for (const b of (await pool.query(PAYMENT_TOTALS, [rows[0].payments.map((p) => p.id)])).rows) ofPayments.set(b.payment_id, total(b.refunded_cents, b.disputed_cents, b.cap_cents));
    }
    const body = JSON.stringify(toJson(rows[0], ofLink && total(ofLink.refunded, ofLink.disputed, ofLink.cap), ofPayments));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } catch (e) {
    res.writeHead(500).end(String(e.message));
  }
}).listen(Number(process.env.PORT), '127.0.0.1');
