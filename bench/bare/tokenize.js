// Bare baseline for POST /v1/acquiring/tokenize-card: node:http + pg doing the same work as the
// service's hot path (the gateway's checks, ./gateway-check: the bearer by the service's own HS256
// codec and its store of verified tokens, allow-list, revocation, rate count; Luhn/expiry/CVV checks, keyed fingerprint, envelope
// encryption with the same compiled vault code, the same single-statement insert), nothing else.
const { createServer } = require('node:http');
const { createHmac, randomBytes } = require('node:crypto');
const { join } = require('node:path');
const { Pool } = require('pg');
const vault = require(join(__dirname, '../../dist/src/cards/domain/vault-crypto.js'));
const { isLuhnValid } = require(join(__dirname, '../../dist/kernel/common/formats/pan.js'));
const { admitter } = require('./gateway-check');

const ring = vault.parseKeyRing(process.env.VAULT_MASTER_KEYS);
const fpKey = createHmac('sha256', vault.parseFingerprintKey(process.env.VAULT_FINGERPRINT_KEY)).update(`card-fingerprint/v1|${process.env.BARE_TENANT_ID}`).digest();
const admit = admitter(process.env.JWT_SIGNING_KEYS);
const tenantId = process.env.BARE_TENANT_ID;
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const id = (p) => `${p}_${randomBytes(16).toString('base64url')}`;

const bearerOk = (claims) => claims !== null && claims.tenant === tenantId;

function send(res, status, body) {
  const s = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(s) });
  res.end(s);
}

/** The route after the gateway's check (`claims`: null when it refused the call). */
function admitted(req, res, claims) {
  if (!bearerOk(claims)) return send(res, 401, {});
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', async () => {
    try {
      const b = JSON.parse(raw);
      const pan = String(b.cardNumber).replace(/[\s-]/g, '');
      if (!/^\d{12,19}$/.test(pan) || !isLuhnValid(pan) || !/^\d{3,4}$/.test(b.securityCode)) return send(res, 400, { error: 'validation_error' });
      const month = Number(b.expirationMonth);
      const year = Number(b.expirationYear);
      const now = new Date();
      const expiresAt = new Date(now.getTime() + 900_000);
      const cardId = id('sc');
      const tokenId = id('tk');
      const sealed = vault.encryptPan(pan, ring, { recordId: cardId });
      const fp = vault.fingerprint(pan, fpKey);
      const r = await pool.query(
        `WITH card AS (
           INSERT INTO stored_cards (id, tenant_id, fingerprint, key_id, wrapped_data_key, iv, tag, ciphertext,
                                     brand, first4, last4, exp_month, exp_year, nickname, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
           ON CONFLICT (tenant_id, fingerprint) DO UPDATE
             SET exp_month = EXCLUDED.exp_month, exp_year = EXCLUDED.exp_year,
                 nickname = COALESCE(EXCLUDED.nickname, stored_cards.nickname), updated_at = EXCLUDED.updated_at
           RETURNING id)
         INSERT INTO card_tokens (id, tenant_id, stored_card_id, created_at, expires_at)
         SELECT $16, $2, card.id, $15, $17 FROM card
         RETURNING stored_card_id`,
        [cardId, tenantId, fp, sealed.keyId, sealed.wrappedDataKey, sealed.iv, sealed.tag, sealed.ciphertext,
          'VISA', pan.slice(0, 4), pan.slice(-4), month, year, null, now, tokenId, expiresAt],
      );
      send(res, 201, {
        slugStoredCard: r.rows[0].stored_card_id, slugToken: tokenId, tokenExpirationDate: expiresAt.toISOString(),
        brand: 'VISA', first4: pan.slice(0, 4), last4: pan.slice(-4), expirationMonth: String(month).padStart(2, '0'), expirationYear: String(year),
        requestId: id('req'),
      });
    } catch (e) {
      send(res, 500, { error: String(e.message) });
    }
  });
}

createServer((req, res) => {
  if (req.url === '/__ready') return send(res, 200, { ok: true });
  if (req.method !== 'POST' || req.url !== '/v1/acquiring/tokenize-card') return send(res, 404, {});
  admit(req, res, (claims) => admitted(req, res, claims));
}).listen(Number(process.env.PORT), '127.0.0.1');
