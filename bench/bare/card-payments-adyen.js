// The required-work floor for POST /v1/acquiring/payments on ACQUIRER_PROVIDER=adyen (a stored
// card): node:http + pg doing what a card payment needs and nothing else: the gateway's checks
// (./gateway-check: the bearer, allow-list, revocation, rate count), the stored card read and decrypted with the same compiled vault code, the payment
// inserted PROCESSING and the Adyen attempt recorded, one POST /payments over keep-alive HTTPS
// to the bare stub acquirer, then the answer recorded with the payment's webhook event in one
// transaction. No framework, validation, retries, breaker or logs.
const { createServer } = require('node:http');
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const { Pool } = require('pg');
const vault = require(join(__dirname, '../../dist/src/cards/domain/vault-crypto.js'));
const { admitter } = require('./gateway-check');
const { send, postToAdyen } = require('./adyen-client');

const ring = vault.parseKeyRing(process.env.VAULT_MASTER_KEYS);
const admit = admitter(process.env.JWT_SIGNING_KEYS);
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const id = (p) => `${p}_${randomBytes(12).toString('hex')}`;

async function authorize(body, key) {
  return (await postToAdyen('/payments', body, key)).body;
}

/** The route after the gateway's check (`claims`: null when it refused the call). */
function admitted(req, res, claims) {
  if (!claims) return send(res, 401, {});
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', async () => {
    try {
      const b = JSON.parse(raw);
      const tenantId = claims.tenant;
      const { rows } = await pool.query(`SELECT id, key_id, wrapped_data_key, iv, tag, ciphertext, exp_month, exp_year, brand, last4 FROM stored_cards WHERE id = $1 AND tenant_id = $2`, [b.tokenData.slugStoredCard, tenantId]);
      const card = rows[0];
      const pan = vault.decryptPan({ keyId: card.key_id, wrappedDataKey: card.wrapped_data_key, iv: card.iv, tag: card.tag, ciphertext: card.ciphertext }, ring, { recordId: card.id });
      const paymentId = id('pay');
      const cents = Math.round(b.amount * 100);
      const now = new Date();
      await pool.query(
        `INSERT INTO card_payments (id, tenant_id, stored_card_id, amount_cents, installments, capture_mode, status, security_code_presented, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 1, 'SALE', 'PROCESSING', false, $5, $5)`,
        [paymentId, tenantId, card.id, cents, now],
      );
      await pool.query(`INSERT INTO adyen_payment_attempts (reference, kind, capture_mode, amount_cents) VALUES ($1, 'card', 'SALE', $2)`, [paymentId, cents]);
      const a = await authorize(
        {
          merchantAccount: 'BenchMerchant', reference: paymentId, amount: { currency: 'BRL', value: cents }, returnUrl: 'http://127.0.0.1/return',
          paymentMethod: { type: 'scheme', number: pan, expiryMonth: String(card.exp_month).padStart(2, '0'), expiryYear: String(card.exp_year) },
          shopperInteraction: 'Ecommerce', countryCode: 'BR', captureDelayHours: 0,
        },
        paymentId,
      );
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        await c.query(`UPDATE adyen_payment_attempts SET psp_reference = $2, result_code = $3, answered_at = now() WHERE reference = $1`, [paymentId, a.pspReference, a.resultCode]);
        await c.query(
          `UPDATE card_payments SET status = 'ACCEPTED', acquirer_transaction_id = $2, authorization_code = $3, authorized_on = CURRENT_DATE, updated_at = now()
           WHERE id = $1 AND status = 'PROCESSING'`,
          [paymentId, a.pspReference, a.additionalData.authCode],
        );
        const view = { paymentId, status: 'ACCEPTED', amount: b.amount, brand: card.brand, last4: card.last4, authorizationCode: a.additionalData.authCode };
        await c.query(
          `WITH ev AS (INSERT INTO webhook_events (id, tenant_id, domain, type, id_tx, data, occurred_at, created_at)
                       VALUES ($1, $2, 'acquiring', 'acquiring.financial_transaction', $3, $4, $5, $5) RETURNING id, tenant_id)
           INSERT INTO webhook_deliveries (tenant_id, event_id, endpoint_id, domain, event_type, status, next_attempt_at, created_at)
           SELECT ev.tenant_id, ev.id, NULL, 'acquiring', 'acquiring.financial_transaction', 'NO_ENDPOINT', NULL, $5 FROM ev`,
          [id('evt'), tenantId, paymentId, JSON.stringify(view), now],
        );
        await c.query('COMMIT');
        send(res, 201, { ...view, accepted: true, transactionMethod: 'CARD', installments: 1, captureMode: 'SALE' });
      } catch (e) {
        await c.query('ROLLBACK');
        throw e;
      } finally {
        c.release();
      }
    } catch (e) {
      send(res, 500, { error: String(e.message) });
    }
  });
}

createServer((req, res) => {
  if (req.url === '/__ready') return send(res, 200, { ok: true });
  admit(req, res, (claims) => admitted(req, res, claims));
}).listen(Number(process.env.PORT), '127.0.0.1');
