import { Client } from 'pg';
import { IdempotencyStore } from '../../kernel/platform/idempotency/idempotency.store';
import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant, rsaPair } from '../support/tenant-auth';

describe('Idempotency-Key on POST', () => {
  let t: TestApp;
  let o: OnboardedTenant;
  const keysUrl = () => `/v1/tenants/${o.tenantId}/keys`;
  const count = async () => (await t.sql('SELECT count(*)::int AS n FROM auth_keys WHERE tenant_id = $1', [o.tenantId]))[0].n;

  beforeAll(async () => {
    t = await startTestApp({ env: { SETUP_RATE_LIMIT_PER_MINUTE: '1000' } });
    o = await onboardTenant(t);
  });
  afterAll(() => t.close());

  it('replays the first answer for the same key and body, with Idempotent-Replayed: true', async () => {
    const body = { publicKey: rsaPair().publicKey };
    const before = await count();
    const first = await http(t.url, 'POST', keysUrl(), body, { 'Idempotency-Key': 'upload-1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await http(t.url, 'POST', keysUrl(), body, { 'Idempotency-Key': 'upload-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count()).toBe(before + 1);
    // without the header a repeated create creates twice, as the spec says
    await http(t.url, 'POST', keysUrl(), body);
    await http(t.url, 'POST', keysUrl(), body);
    expect(await count()).toBe(before + 3);
  });

  it('answers 422 idempotency_key_reused for the same key with another body or path', async () => {
    await http(t.url, 'POST', keysUrl(), { publicKey: rsaPair().publicKey }, { 'Idempotency-Key': 'upload-2' });
    const other = await http(t.url, 'POST', keysUrl(), { publicKey: rsaPair(true).publicKey }, { 'Idempotency-Key': 'upload-2' });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('idempotency_key_reused');
    const path = await http(t.url, 'POST', `${keysUrl()}/${o.keyId}/challenge`, undefined, { 'Idempotency-Key': 'upload-2' });
    expect(path.status).toBe(422);
  });

  it('runs exactly one of many concurrent duplicates; the others get 409 in flight or the replay', async () => {
    const body = { publicKey: rsaPair().publicKey };
    const before = await count();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => http(t.url, 'POST', keysUrl(), body, { 'Idempotency-Key': 'race-1' })),
    );
    expect(await count()).toBe(before + 1);
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length).toBe(12);
    expect(new Set(ok.map((a) => a.body.keyId)).size).toBe(1);
    busy.forEach((a) => expect(a.body.error).toBe('idempotency_in_flight'));
    expect(ok.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
  });

  it('replays a refusal (4xx) as it was, and keys are per tenant', async () => {
    const bad = await http(t.url, 'POST', keysUrl(), { publicKey: 'junk' }, { 'Idempotency-Key': 'bad-1' });
    expect(bad.status).toBe(400);
    const again = await http(t.url, 'POST', keysUrl(), { publicKey: 'junk' }, { 'Idempotency-Key': 'bad-1' });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('key_malformed');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await onboardTenant(t);
    const theirs = await http(
      t.url,
      'POST',
      `/v1/tenants/${other.tenantId}/keys`,
      { publicKey: 'junk' },
      { 'Idempotency-Key': 'upload-1' },
    );
    expect(theirs.status).toBe(400);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key with 400 and keeps the records in PostgreSQL for 24 h', async () => {
    const r = await http(t.url, 'POST', keysUrl(), { publicKey: 'junk' }, { 'Idempotency-Key': 'x'.repeat(300) });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('idempotency_key_invalid');
    const rows = await t.sql(
      `SELECT key, status, extract(epoch FROM expires_at - created_at)::int AS ttl FROM idempotency_keys WHERE tenant_id = $1 AND key = 'upload-1'`,
      [o.tenantId],
    );
    expect(rows).toEqual([{ key: 'upload-1', status: 'DONE', ttl: 86400 }]);
  });

  it('the hourly purge deletes every expired record past one batch, keeps live ones, and yields to a replica holding the lock', async () => {
    const expired = 12_000; // more than two purge batches of 5 000
    await t.sql(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, status, response_status, response_body, locked_until, expires_at)
       SELECT $1, 'old-' || g, 'h', 'DONE', 200, '{}', now() - interval '25 hours', now() - interval '1 hour' FROM generate_series(1, $2) g`,
      [o.tenantId, expired],
    );
    const live = async () => (await t.sql(`SELECT count(*)::int AS n FROM idempotency_keys WHERE expires_at >= now()`))[0].n;
    const liveBefore = await live();
    expect(liveBefore).toBeGreaterThan(0);
    const store = t.app.get(IdempotencyStore);

    // another replica's purge holds the lock: this one deletes nothing
    const other = new Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('idempotency-purge'))`);
      expect(await store.purgeExpired()).toBe(0);
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    expect((await t.sql(`SELECT count(*)::int AS n FROM idempotency_keys WHERE expires_at < now()`))[0].n).toBe(expired);

    expect(await store.purgeExpired()).toBe(expired);
    expect((await t.sql(`SELECT count(*)::int AS n FROM idempotency_keys WHERE expires_at < now()`))[0].n).toBe(0);
    expect(await live()).toBe(liveBefore);
    // a purged key is free again: the same key with another body is a new request, not a 422
    const reused = await http(t.url, 'POST', keysUrl(), { publicKey: rsaPair().publicKey }, { 'Idempotency-Key': 'old-1' });
    expect(reused.status).toBe(200);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
  });
});
