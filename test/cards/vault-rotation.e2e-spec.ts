import { randomBytes } from 'node:crypto';
import { addCredentials, onboardTenant } from '../support/tenant-auth';
import { freshDatabase, http, startTestApp, TestApp } from '../support/test-app';
import { CARD } from './support';

const k1 = `k1:${randomBytes(32).toString('base64')}`;
const k2 = `k2:${randomBytes(32).toString('base64')}`;
const FINGERPRINT = randomBytes(32).toString('base64');

/** Master key rotation across restarts of the service on one database. */
describe('vault key rotation', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let t: TestApp | null = null;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await t?.close();
    await db.drop();
  });

  const boot = async (keys: string) => {
    await t?.close();
    t = await startTestApp({
      databaseUrl: db.url,
      env: { VAULT_MASTER_KEYS: keys, VAULT_FINGERPRINT_KEY: FINGERPRINT, ACQUIRER_RETRY_DELAYS_MS: '20' },
    });
    return t;
  };

  it('old records open under a ring with the new key; re-wrapping moves them; then the old key can go', async () => {
    let app = await boot(k1);
    const tenant = await onboardTenant(app);
    const tok = await http(app.url, 'POST', '/v1/acquiring/tokenize-card', CARD, tenant.auth);
    const slug = tok.body.slugStoredCard;
    const before = (await app.sql(`SELECT key_id, ciphertext, iv, tag, wrapped_data_key FROM stored_cards WHERE id = $1`, [slug]))[0];
    expect(before.key_id).toBe('k1');

    // the new key is appended (and so active); the old one stays for the records under it
    app = await boot(`${k1},${k2}`);
    let auth = (await addCredentials(app, tenant.tenantId)).auth;
    expect(
      (await http(app.url, 'POST', '/v1/acquiring/payments', { amount: 1, tokenData: { slugStoredCard: slug } }, auth)).body.status,
    ).toBe('ACCEPTED');
    const fresh = await http(app.url, 'POST', '/v1/acquiring/tokenize-card', { ...CARD, cardNumber: '5555555555554444' }, auth);
    expect((await app.sql(`SELECT key_id FROM stored_cards WHERE id = $1`, [fresh.body.slugStoredCard]))[0].key_id).toBe('k2');
    // the same card is still recognised (the fingerprint key does not rotate)
    expect((await http(app.url, 'POST', '/v1/acquiring/tokenize-card', CARD, auth)).body.slugStoredCard).toBe(slug);

    expect((await http(app.url, 'POST', '/admin/cards/vault/rewrap?limit=1000', undefined)).status).toBe(401);
    const r = await http(app.url, 'POST', '/admin/cards/vault/rewrap?limit=1000', undefined, { 'X-Admin-Key': app.adminKey });
    expect(r.body).toEqual({ activeKeyId: 'k2', rewrapped: 1, byKey: { k2: 2 } });
    const after = (await app.sql(`SELECT key_id, ciphertext, iv, tag, wrapped_data_key FROM stored_cards WHERE id = $1`, [slug]))[0];
    // only the data key was re-wrapped: the card number's ciphertext is untouched
    // (compared as values: base64 read as a regular expression breaks on "++" or a leading "+")
    expect(after.wrapped_data_key).not.toBe(before.wrapped_data_key);
    expect(after).toEqual({ ...before, key_id: 'k2', wrapped_data_key: after.wrapped_data_key });

    app = await boot(k2);
    auth = (await addCredentials(app, tenant.tenantId)).auth;
    expect(
      (await http(app.url, 'POST', '/v1/acquiring/payments', { amount: 2, tokenData: { slugStoredCard: slug } }, auth)).body.status,
    ).toBe('ACCEPTED');
  });

  it('refuses to boot with a malformed key ring, without echoing key material', async () => {
    const short = randomBytes(16).toString('base64');
    const e = await startTestApp({ databaseUrl: db.url, env: { VAULT_MASTER_KEYS: `k1:${short}` } }).catch((err) => err);
    expect(e.message).toMatch(/VAULT_MASTER_KEYS is invalid \(vault_key_length_invalid/);
    expect(e.message).not.toContain(short);
    await expect(startTestApp({ databaseUrl: db.url, env: { VAULT_MASTER_KEYS: k1, VAULT_ACTIVE_KEY_ID: 'k9' } })).rejects.toThrow(
      /vault_active_key_missing/,
    );
    await expect(startTestApp({ databaseUrl: db.url, env: { NODE_ENV: 'production', VAULT_MASTER_KEYS: '' } })).rejects.toThrow(
      /VAULT_MASTER_KEYS is required in production/,
    );
  });
});
