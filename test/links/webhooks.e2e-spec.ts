import { createHmac } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { advanceDays, CARD, createLink, pay, PAYER } from './support';

interface Hook {
  signature: string;
  body: string;
  json: any;
}

/** Acquiring webhooks for each confirmed link transaction, signed, through the webhooks outbox. */
describe('acquiring webhooks from payment links', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  let server: Server;
  let secret: string;
  const hooks: Hook[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push({ signature: String(req.headers['x-service-signature']), body, json: JSON.parse(body) });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    t = await startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10', WEBHOOK_POLL_INTERVAL_MS: '50' } });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
    const reg = await http(
      t.url,
      'PUT',
      '/v1/banking/webhooks/acquiring',
      { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` },
      a.auth,
    );
    expect(reg.status).toBeLessThan(300);
    secret = reg.body.secret;
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function hooksFor(paymentId: string, n: number): Promise<Hook[]> {
    const end = Date.now() + 10_000;
    for (;;) {
      const mine = hooks.filter((h) => h.json.data.transactionId === paymentId);
      if (mine.length >= n || Date.now() > end) return mine;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('sends one signed event per confirmed transaction: card and Pix authorized, Pix settled, boleto paid; none for refusals', async () => {
    const l = await createLink(t, a.auth, { amount: 40 });
    const refused = (await pay(t, l.slug, { method: 'CARD', payer: PAYER(1), card: CARD('4000000000000002') })).body;
    const card = (await pay(t, l.slug, { method: 'CARD', payer: PAYER(2), card: CARD() })).body;
    const pix = (await pay(t, l.slug, { method: 'PIX', payer: PAYER(3) })).body;
    const slip = (await pay(t, l.slug, { method: 'BOLETO', payer: PAYER(4) })).body;
    await http(t.sandboxUrl, 'POST', `/sandbox/pix/${pix.pix.txid}/pay`);
    await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${slip.boleto.boletoId}/pay`, { via: 'PIX' });
    await advanceDays(t, 1); // the Pix settles

    const [c] = await hooksFor(card.paymentId, 1);
    expect(c.json).toMatchObject({
      type: 'acquiring.financial_transaction',
      data: {
        transactionId: card.paymentId,
        linkId: l.linkId,
        slug: l.slug,
        transactionMethod: 'CARD',
        status: 'ACCEPTED',
        amount: 40,
        previousStatus: null,
      },
    });
    expect(c.signature).toBe(`sha256=${createHmac('sha256', secret).update(c.body).digest('hex')}`);
    const p = await hooksFor(pix.paymentId, 2);
    expect(p.map((h) => `${h.json.type}:${h.json.data.status}`).sort()).toEqual([
      'acquiring.financial_transaction:AUTHORIZED',
      'acquiring.payout:SETTLED',
    ]);
    const [b] = await hooksFor(slip.paymentId, 1);
    expect(b.json).toMatchObject({
      type: 'acquiring.payment_slip_notification',
      data: { transactionMethod: 'BOLETO', status: 'PAID_PIX' },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await hooksFor(refused.paymentId, 0)).toEqual([]);
    expect(hooks).toHaveLength(4);
    const rows = await t.sql(`SELECT type, id_tx FROM webhook_events WHERE domain = 'acquiring' ORDER BY created_at`);
    expect(rows.map((r: any) => r.id_tx).sort()).toEqual([card.paymentId, pix.paymentId, pix.paymentId, slip.paymentId].sort());
  });
});
