import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { jsonCollector } from '../support/json-collector';
import { recordExchanges } from '../support/pix-api-contract';
import { eventually, onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { createLink, pay, PAYER } from './support';

export interface PixApiLinksApp {
  t: TestApp;
  a: OnboardedTenant;
  recorder: ReturnType<typeof recordExchanges>;
  /** The tenant's acquiring webhooks, as received. */
  hooks: any[];
  /** Every callback the PSP posted to PIX_API_WEBHOOK_URL (its path and body), forwarded or not. */
  callbacks: { path: string; body: any }[];
  /** PIX_API_WEBHOOK_URL: the proxy that keeps the PSP's callbacks and forwards them to the service. */
  webhookUrl: string;
  /** While true, the proxy answers the PSP 200 and does not forward (a callback lost on the way). */
  dropCallbacks: boolean;
  close(): Promise<void>;
}

/**
 * The service on BANK_PROVIDER=pix-api against the sandbox PSP over mutual TLS, with a proxy at
 * PIX_API_WEBHOOK_URL that keeps every callback and forwards it (or loses it, on demand), a
 * tenant onboarded with its acquiring webhooks registered, and the PSP's exchanges recorded; `env`
 * overrides the settings above (startTestApp's env).
 */
export async function startPixApiLinksApp(env: Record<string, string> = {}): Promise<PixApiLinksApp> {
  const h = { hooks: [] as any[], callbacks: [] as { path: string; body: any }[], dropCallbacks: false } as PixApiLinksApp;
  const hooksServer = await jsonCollector((_path, body) => void h.hooks.push(body));
  const proxy = await jsonCollector(async (path, body) => {
    h.callbacks.push({ path, body });
    if (h.dropCallbacks) return;
    const r = await http(h.t.url, 'POST', `/provider/pix-api${path.replace(/^\/hook/, '')}`, JSON.stringify(body), {
      'content-type': 'application/json',
    });
    return { status: r.status, text: r.text };
  });
  h.webhookUrl = `${proxy.url}/hook`;
  h.t = await startTestApp({
    env: {
      BANK_PROVIDER: 'pix-api',
      PIX_API_WEBHOOK_URL: h.webhookUrl,
      PIX_API_CHARGES_CHECK_MS: '200',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      SANDBOX_ACQUIRER_TICK_MS: '100',
      ...env,
    },
  });
  h.recorder = recordExchanges(h.t.sandbox.get(SandboxPspServer));
  h.a = await onboardTenant(h.t, { rateLimitPerMinute: 10000 });
  const reg = await http(h.t.url, 'PUT', '/v1/banking/webhooks/acquiring', { url: `${hooksServer.url}/hooks` }, h.a.auth);
  if (reg.status >= 300) throw new Error(`webhook registration: ${reg.status} ${reg.text}`);
  await eventually(async () => (await h.t.sql(`SELECT 1 FROM sandbox_psp_pix_webhooks`)).length > 0, 10_000);
  h.close = async () => {
    h.recorder.stop();
    await h.t.close();
    await hooksServer.close();
    await proxy.close();
  };
  return h;
}

/**
 * A boleto link of `amount` and its payment, with the txid of the Pix QR printed on the boleto
 * (found by opening its code in the sandbox bank app): pay it with `POST /sandbox/pix/{txid}/pay`.
 */
export async function boletoWithPixQr(t: TestApp, auth: Record<string, string>, amount: number, payer = 1) {
  const l = await createLink(t, auth, { amount, paymentMethods: ['BOLETO'] });
  const r = await pay(t, l.slug, { method: 'BOLETO', payer: PAYER(payer) });
  if (r.status !== 201) throw new Error(`boleto payment: ${r.status} ${JSON.stringify(r.body)}`);
  const paymentId: string = r.body.paymentId;
  const [row] = await t.sql(`SELECT instrument FROM links_payments WHERE id = $1`, [paymentId]);
  const open = await fetch(`${t.sandboxUrl}/sandbox/bank-app?code=${encodeURIComponent(row.instrument.pixBrCode)}`, { redirect: 'manual' });
  const txid = open.headers.get('location')!.split('/').pop()!;
  return { l, paymentId, txid };
}
