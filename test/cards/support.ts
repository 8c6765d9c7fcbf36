import { FAST_ENV } from '../webhooks/support';
import { TcpProxy } from '../support/tcp-proxy';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';

export const MERCHANT = '11222333000181';
/** The sandbox 3DS server does not know this merchant. */
export const UNKNOWN_MERCHANT = '99999999000191';

export interface CardsApp {
  t: TestApp;
  tenant: OnboardedTenant;
  /** PUBLIC_URL: a TCP proxy on a port chosen before boot, in front of the app's random port, so the URLs the service hands out (hosted page, ACS) load in the browser. */
  publicUrl: string;
  proxy: TcpProxy;
  close(): Promise<void>;
}

/** The real app on a fresh database, an onboarded tenant, and a public origin for browser URLs. */
export async function startCardsApp(env: Record<string, string> = {}): Promise<CardsApp> {
  // The proxy takes its port first and keeps it: a port merely found free and released could be
  // taken by another worker before the proxy listened on it.
  const proxy = new TcpProxy('127.0.0.1', 0);
  await proxy.up(0);
  const publicUrl = `http://127.0.0.1:${proxy.port}`;
  const t = await startTestApp({
    env: {
      ...FAST_ENV,
      PUBLIC_URL: publicUrl,
      ACQUIRER_RETRY_DELAYS_MS: '20,20',
      THREE_DS_RETRY_DELAYS_MS: '20,20',
      LOG_LEVEL: 'info',
      TENANT_CACHE_TTL_MS: '0',
      ...env,
    },
  }).catch(async (e) => {
    await proxy.down();
    throw e;
  });
  proxy.retarget(Number(new URL(t.url).port));
  const tenant = await onboardTenant(t, { rateLimitPerMinute: 100000 });
  return {
    t,
    tenant,
    publicUrl,
    proxy,
    async close() {
      await proxy.down();
      await t.close();
    },
  };
}

export type Http = ReturnType<typeof http>;

/** Authenticated JSON call of the tenant. */
export function api(c: CardsApp, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return http(c.t.url, method, path, body, { ...c.tenant.auth, ...headers });
}

export async function createSession(c: CardsApp, body: Record<string, unknown> = {}) {
  const r = await api(c, 'POST', '/v1/acquiring/card-sessions', { documentId: MERCHANT, ...body });
  if (r.status !== 201) throw new Error(`card session: ${r.status} ${r.text}`);
  return r.body as { hostedCardSessionId: string; hostedCardUrl: string; expiresAt: string };
}

/** Loads the hosted page as a browser would (without running it) and reads its page key. */
export async function openPage(
  url: string,
): Promise<{ status: number; html: string; headers: Headers; pageKey: string | null; sessionId: string | null }> {
  const res = await fetch(url);
  const html = await res.text();
  const cfg = /<script type="application\/json" id="card-page-config">([^<]*)<\/script>/.exec(html);
  const parsed = cfg ? JSON.parse(cfg[1]) : {};
  return { status: res.status, html, headers: res.headers, pageKey: parsed.pageKey ?? null, sessionId: parsed.sessionId ?? null };
}

export const CARD = { cardNumber: '4111111111111111', expirationMonth: '12', expirationYear: '2031', securityCode: '123' };

export async function tokenize(c: CardsApp, card: Record<string, unknown> = {}) {
  const r = await api(c, 'POST', '/v1/acquiring/tokenize-card', { ...CARD, ...card });
  if (r.status !== 201) throw new Error(`tokenize: ${r.status} ${r.text}`);
  return r.body;
}

export function advanceClock(c: CardsApp, ms: number): Promise<number> {
  return c.t.advanceClock(ms);
}

/** Every text-like value of every column of every table (the leak scan). */
export async function dumpDatabase(t: TestApp): Promise<string> {
  const cols = await t.sql<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type NOT IN ('bytea') ORDER BY table_name, ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const c of cols) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  let out = '';
  for (const [table, columns] of byTable) {
    const rows = await t.sql(`SELECT ${columns.map((c) => `"${c}"::text AS "${c}"`).join(', ')} FROM "${table}"`);
    out += `${table}\n${rows.map((r) => Object.values(r).join('\t')).join('\n')}\n`;
  }
  return out;
}

/** Also base64 / hex / spaced forms of a secret, so an encoded copy is found too. */
export function forms(secret: string): string[] {
  return [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex'), secret.replace(/(\d{4})(?=\d)/g, '$1 ')];
}

/** The acquiring.financial_transaction events written for a payment, oldest first. */
export async function paymentEvents(t: TestApp, paymentId: string): Promise<any[]> {
  const rows = await t.sql(`SELECT type, data FROM webhook_events WHERE id_tx = $1 ORDER BY created_at, id`, [paymentId]);
  return rows.map((r) => ({ type: r.type, ...r.data }));
}

/**
 * Whether a security code appears as a standalone digit run (not inside an id, a hash or a
 * longer number). Numeric JSON values of the logs (responseTime, statusCode…) are masked first:
 * a code is sent and would leak as a string.
 */
export function findsCode(text: string, code: string): boolean {
  const masked = text.replace(/":-?\d+(\.\d+)?/g, '":#');
  return new RegExp(`(?<![0-9A-Za-z.])${code}(?![0-9A-Za-z])`).test(masked);
}
