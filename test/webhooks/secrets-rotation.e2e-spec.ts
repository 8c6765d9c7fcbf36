import { deriveSecretsKey, secretsKeyId } from '../../src/webhooks/endpoints/secret-box';
import { freshDatabase, http, startTestApp, TestApp } from '../support/test-app';
import { guideOpener, guideVerifier } from './guide-snippets';
import { acquiringEvent, createTenant, endpoints, FAST_ENV, pixEvent, publish, Receiver, waitFor } from './support';

const KEY_A = 'rotation-test-secrets-key-A-0123456789abcdef';
const KEY_B = 'rotation-test-secrets-key-B-0123456789abcdef';
const ID_A = secretsKeyId(deriveSecretsKey(KEY_A));
const ID_B = secretsKeyId(deriveSecretsKey(KEY_B));

/**
 * WEBHOOK_SECRETS_KEY rotation across restarts of the service on one database: A → (B, previous
 * A) → rewrap → B alone. Receivers keep verifying and opening with what they were given at
 * registration; nothing needs re-registering.
 */
describe('WEBHOOK_SECRETS_KEY rotation', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let t: TestApp | null = null;
  const acq = new Receiver();
  const pix = new Receiver();
  let tenant: string;
  let secretOld: string;
  let secretNew: string;
  let sealingKey: string;
  let n = 0;

  const boot = async (env: Record<string, string>) => {
    await t?.close();
    t = await startTestApp({ databaseUrl: db.url, env: { ...FAST_ENV, ...env } });
    return t;
  };
  const rewrap = async (app: TestApp) =>
    http(app.url, 'POST', '/admin/webhooks/secrets/rewrap', undefined, { 'X-Admin-Key': app.adminKey });

  /** Publishes one event per domain and checks both arrive verifiable with what the tenant holds. */
  const deliversBoth = async (app: TestApp) => {
    const a = acq.received.length;
    const p = pix.received.length;
    n++;
    await publish(app, [acquiringEvent(tenant, n, 'acquiring.payout'), pixEvent(tenant, n, 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED')]);
    await waitFor('both deliveries', () => acq.received.length > a && pix.received.length > p);
    const signed = acq.received[acq.received.length - 1];
    expect(guideVerifier()(signed.body, signed.headers['x-service-signature'] as string, secretNew)).toBe(true);
    expect(JSON.parse(signed.body).data.n).toBe(n);
    const sealed = pix.received[pix.received.length - 1];
    expect(guideOpener()(sealed.body, sealingKey).data.n).toBe(n);
  };

  beforeAll(async () => {
    db = await freshDatabase('rot');
    await acq.start();
    await pix.start();
  });
  afterAll(async () => {
    await t?.close();
    await acq.stop();
    await pix.stop();
    await db.drop();
  });

  it('under key A: registrations store boxes named by A', async () => {
    const app = await boot({ WEBHOOK_SECRETS_KEY: KEY_A });
    tenant = await createTenant(app);
    secretOld = (await endpoints(app).registerAcquiring(tenant, { url: acq.url })).secret;
    // a rotation of the tenant's own secret: the old one stays (boxed) for the grace period
    secretNew = (await endpoints(app).registerAcquiring(tenant, { url: acq.url })).secret;
    sealingKey = (await endpoints(app).registerPixAutomatic(tenant, { url: pix.url })).encryptionKey;
    expect(secretNew).not.toBe(secretOld);
    const boxes = await app.sql(`SELECT secret_box, previous_secret_box FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY domain`, [
      tenant,
    ]);
    const all = boxes.flatMap((b) => [b.secret_box, b.previous_secret_box]).filter(Boolean);
    expect(all).toHaveLength(3);
    for (const box of all) {
      expect(box.startsWith(`v2.${ID_A}.`)).toBe(true);
      expect(box).not.toContain(secretOld.slice(6));
    }
    await deliversBoth(app);
    const signed = acq.received[acq.received.length - 1];
    expect(guideVerifier()(signed.body, signed.headers['x-service-signature-previous'] as string, secretOld)).toBe(true);
  });

  it('B with A as previous: everything still delivers; rewrap moves every box to B and says so', async () => {
    const app = await boot({ WEBHOOK_SECRETS_KEY: KEY_B, WEBHOOK_SECRETS_KEYS_PREVIOUS: KEY_A });
    await deliversBoth(app);
    const first = await rewrap(app);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ activeKeyId: ID_B, rewrapped: 2, unreadable: 0, byKey: { [ID_B]: 3 } });
    expect(first.text).not.toContain(secretNew);
    const again = await rewrap(app);
    expect(again.body).toEqual({ activeKeyId: ID_B, rewrapped: 0, unreadable: 0, byKey: { [ID_B]: 3 } });
    expect(app.logs()).not.toContain(secretNew);
    expect(app.logs()).not.toContain(KEY_A);
    await deliversBoth(app);
  });

  it('B alone after the rewrap: the old key is no longer needed', async () => {
    const app = await boot({ WEBHOOK_SECRETS_KEY: KEY_B });
    await deliversBoth(app);
    const signed = acq.received[acq.received.length - 1];
    expect(guideVerifier()(signed.body, signed.headers['x-service-signature-previous'] as string, secretOld)).toBe(true);
  });

  it('a ring without the key of the stored boxes: deliveries fail on our side and rewrap reports them unreadable, changing nothing', async () => {
    const app = await boot({ WEBHOOK_SECRETS_KEY: KEY_A });
    const before = await app.sql(`SELECT id, secret_box, previous_secret_box FROM webhook_endpoints ORDER BY id`);
    const r = await rewrap(app);
    expect(r.body).toEqual({ activeKeyId: ID_A, rewrapped: 0, unreadable: 2, byKey: { [ID_B]: 3 } });
    expect(await app.sql(`SELECT id, secret_box, previous_secret_box FROM webhook_endpoints ORDER BY id`)).toEqual(before);
    const got = acq.received.length;
    await publish(app, [acquiringEvent(tenant, 99, 'acquiring.payout')]);
    await waitFor(
      'a failed attempt',
      async () => (await app.sql(`SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE error LIKE 'internal_error%'`))[0].n > 0,
    );
    expect(acq.received.length).toBe(got);
  });

  it('the rewrap route needs the admin key', async () => {
    const r = await http(t!.url, 'POST', '/admin/webhooks/secrets/rewrap');
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('admin_unauthorized');
  });
});
