import { JobQueue } from '../../kernel/platform/queue/job-queue';
import type { TestApp } from '../support/test-app';
import { api, CardsApp, startCardsApp, tokenize } from '../cards/support';
import { AdyenHops } from '../provider/adyen-support';

export interface CardEdge {
  /** The app, once `beforeAll` ran. */
  c: CardsApp;
  /** The recording hops around the app on `adyen` (unused on `generic`). */
  hops: AdyenHops;
  /** A card payment of `amount` on a fresh stored card: its id. */
  pay(amount: number, captureMode?: 'SALE' | 'PREAUTH'): Promise<string>;
}

/** The cards app on one card edge for the enclosing `describe` (Adyen through recording hops), the sandbox ticking every 100 ms. */
export function onCardEdge(provider: 'generic' | 'adyen', env: Record<string, string> = {}): CardEdge {
  const edge = { hops: new AdyenHops() } as CardEdge;
  beforeAll(async () => {
    const acquirer = provider === 'adyen' ? await edge.hops.start() : { ACQUIRER_PROVIDER: 'generic' };
    edge.c = await startCardsApp({ ...acquirer, SANDBOX_ACQUIRER_TICK_MS: '100', ...env });
    if (provider === 'adyen') edge.hops.aim(edge.c.t);
  });
  afterAll(async () => {
    await edge.c?.close();
    if (provider === 'adyen') await edge.hops.close();
  });
  edge.pay = async (amount, captureMode = 'SALE') => {
    const card = await tokenize(edge.c);
    const r = await api(edge.c, 'POST', '/v1/acquiring/payments', {
      amount,
      captureMode,
      tokenData: { slugStoredCard: card.slugStoredCard },
    });
    if (r.body.status !== (captureMode === 'SALE' ? 'ACCEPTED' : 'PREAUTH')) throw new Error(`payment: ${r.status} ${r.text}`);
    return r.body.paymentId as string;
  };
  return edge;
}

/** A refund's pending send jobs made due now, and one pass of the queue (what its job does 30 s after the request, or on its backoff): how many jobs ran. */
export async function resendNow(t: TestApp, refundId: string): Promise<number> {
  await t.sql(`UPDATE jobs SET run_at = now() WHERE kind LIKE 'refund.send.%' AND key LIKE $1 || '%' AND status = 'pending'`, [refundId]);
  return t.app.get(JobQueue).runDue();
}
