import { Clock } from '../../kernel/platform/clock/clock';
import { randomUUID } from 'node:crypto';
import { parseBrCode } from '../../kernel/common/formats/brcode';
import { parseBoleto } from '../../kernel/common/formats/boleto';
import { AcquirerPort } from '../../src/provider/acquirer.port';
import { PixChargesPort } from '../../src/provider/pix-charges.port';
import { AcquirerNotification, signAcquirerEvent } from '../../kernel/common/protocols/acquirer-events';
import { AcquirerConfig } from '../../src/provider/acquirer/acquirer.config';
import { AcquirerEvents } from '../../src/provider/acquirer/acquirer-events';
import { JobQueue } from '../../kernel/platform/queue/job-queue';
import { http, startTestApp, TestApp } from '../support/test-app';

const DAY = 86_400_000;

/** Pix and boleto at the sandbox acquirer, and its signed notifications back to the service. */
describe('sandbox acquirer: Pix, boleto and notifications', () => {
  let t: TestApp;
  let acquirer: AcquirerPort;
  const seen: AcquirerNotification[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      env: { ACQUIRER_RETRY_DELAYS_MS: '10', SANDBOX_PIX_SETTLE_AFTER_SECONDS: '3600', SANDBOX_ACQUIRER_TICK_MS: '60000' },
    });
    acquirer = t.app.get(AcquirerPort);
    t.app.get(AcquirerEvents).subscribe('test', async (e) => {
      seen.push(e);
      return true;
    });
  });
  afterAll(() => t.close());

  const of = (transactionId: string) => seen.filter((e) => e.data.transactionId === transactionId).map((e) => e.data.status);

  const advanceDays = (n: number) => t.advanceDays(n);

  it('issues a single-use Pix BR Code, is paid from the bank, notifies AUTHORIZED then SETTLED', async () => {
    const transactionId = randomUUID();
    const charge = await acquirer.createPixCharge({ transactionId, merchantId: 'mer_1', amountCents: 15090, expiresInSeconds: 1800 });
    const parsed = parseBrCode(charge.brCode);
    expect(parsed).toMatchObject({ amountCents: 15090, txid: charge.txid, singleUse: true, type: 'STATIC' });
    // the same transaction id gives the same charge
    expect((await acquirer.createPixCharge({ transactionId, merchantId: 'mer_1', amountCents: 15090, expiresInSeconds: 1800 })).txid).toBe(
      charge.txid,
    );

    const page = await http(t.sandboxUrl, 'GET', `/sandbox/pix/${charge.txid}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).toContain('R$ 150,90');

    const paid = await http(t.sandboxUrl, 'POST', `/sandbox/pix/${charge.txid}/pay`);
    expect(paid.body).toEqual({ id: charge.txid, kind: 'PIX', status: 'AUTHORIZED', amount: 150.9 });
    expect(of(transactionId)).toEqual(['AUTHORIZED']);
    const again = await http(t.sandboxUrl, 'POST', `/sandbox/pix/${charge.txid}/pay`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('pix_not_payable');

    await advanceDays(1);
    expect(of(transactionId)).toEqual(['AUTHORIZED', 'SETTLED']);
  });

  it('with BANK_PROVIDER=service links take Pix from the acquirer, and the API Pix callback route is off', async () => {
    expect(t.app.get(PixChargesPort).provider).toBe('service');
    const r = await http(t.url, 'POST', '/provider/pix-api/pix', { pix: [{ endToEndId: 'E99999999202601010000abcdefghijk' }] });
    expect([r.status, r.body.error]).toEqual([404, 'pix_api_disabled']);
    expect(await t.sql(`SELECT count(*)::int AS n FROM pix_api_pix_received`)).toEqual([{ n: 0 }]);
  });

  it('expires an unpaid Pix QR by the test clock', async () => {
    const transactionId = randomUUID();
    const charge = await acquirer.createPixCharge({ transactionId, merchantId: 'mer_1', amountCents: 500, expiresInSeconds: 600 });
    await advanceDays(1);
    expect(of(transactionId)).toEqual(['EXPIRED']);
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${charge.txid}/pay`)).body.error).toBe('pix_not_payable');
  });

  it('issues a boleto with a valid line and Pix QR; paid by bank (PAID) or by its QR (PAID_PIX); expires after the due date', async () => {
    const due = new Date(t.app.get(Clock).now().getTime() + 3 * DAY).toISOString().slice(0, 10);
    const mk = () =>
      acquirer.createBoleto({
        transactionId: randomUUID(),
        merchantId: 'mer_1',
        amountCents: 25000,
        dueDate: due,
        payer: { name: 'Ana', taxId: '52998224725' },
      });
    const [a, b, c] = [await mk(), await mk(), await mk()];
    const parsed = parseBoleto(a.digitableLine, due);
    expect(parsed).toMatchObject({ amountCents: 25000, dueDate: due, barcode: a.barcode, bankCode: '237' });
    expect(parseBrCode(a.pixBrCode!).amountCents).toBe(25000);

    const byBank = await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${a.boletoId}/pay`, {});
    expect(byBank.body).toMatchObject({ kind: 'BOLETO', status: 'PAID' });
    const byQr = await http(t.sandboxUrl, 'POST', `/sandbox/pix/${parseBrCode(b.pixBrCode!).txid}/pay`);
    expect(byQr.body).toMatchObject({ kind: 'BOLETO', status: 'PAID_PIX', id: b.boletoId });
    const bad = await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${c.boletoId}/pay`, { via: 'CASH' });
    expect(bad.status).toBe(400);

    // found from the bank app by pasting the line
    const found = await fetch(`${t.sandboxUrl}/sandbox/bank-app?code=${encodeURIComponent(c.digitableLine)}`, { redirect: 'manual' });
    expect(found.headers.get('location')).toBe(`/sandbox/boletos/${c.boletoId}`);

    await advanceDays(3);
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${c.boletoId}/pay`, { via: 'PIX' })).status).toBe(200); // due date itself: still payable
  });

  it('expires a boleto the day after its due date', async () => {
    const due = t.app.get(Clock).today();
    const b = await acquirer.createBoleto({
      transactionId: randomUUID(),
      merchantId: 'mer_1',
      amountCents: 100,
      dueDate: due,
      payer: { name: 'Ana', taxId: '52998224725' },
    });
    await advanceDays(1);
    const r = await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${b.boletoId}/pay`, {});
    expect(r.status).toBe(409);
    expect(seen.filter((e) => e.data.acquirerId === b.boletoId).map((e) => e.data.status)).toEqual(['EXPIRED']);
  });

  it('refuses unsigned, forged and stale notifications', async () => {
    const body = JSON.stringify({
      eventId: randomUUID(),
      type: 'pix_charge.updated',
      occurredAt: new Date().toISOString(),
      data: { transactionId: 'x', status: 'AUTHORIZED' },
    });
    const post = (sig?: string) =>
      http(t.url, 'POST', '/provider/acquirer-events', body, {
        'content-type': 'application/json',
        ...(sig ? { 'x-acquirer-signature': sig } : {}),
      });
    expect((await post()).status).toBe(401);
    expect((await post(signAcquirerEvent('wrong-secret-wrong-secret-wrong', Math.floor(Date.now() / 1000), body))).body.error).toBe(
      'acquirer_signature_invalid',
    );
    const secret = t.app.get(AcquirerConfig).eventsSecret;
    expect((await post(signAcquirerEvent(secret, Math.floor(Date.now() / 1000) - 3600, body))).status).toBe(401);
    const ok = await post(signAcquirerEvent(secret, Math.floor(Date.now() / 1000), body));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ received: true });
  });

  it('keeps a notification whose application failed and applies it on a retry of its job', async () => {
    const events = t.app.get(AcquirerEvents) as any;
    let fail = true;
    events.handlers.unshift({
      name: 'flaky',
      handle: async () => {
        if (fail) throw new Error('down for a moment');
        return false;
      },
    });
    const transactionId = randomUUID();
    const charge = await acquirer.createPixCharge({ transactionId, merchantId: 'mer_1', amountCents: 700, expiresInSeconds: 1800 });
    await http(t.sandboxUrl, 'POST', `/sandbox/pix/${charge.txid}/pay`);
    expect(of(transactionId)).toEqual([]);
    // the service kept it (so the acquirer is done with it); its job failed once and waits its backoff
    const sent = (
      await t.sql(
        `SELECT id::text, attempts, delivered_at IS NOT NULL AS delivered, last_error FROM sandbox_acquirer_notifications
          WHERE payload->'data'->>'transactionId' = $1`,
        [transactionId],
      )
    )[0];
    expect(sent).toMatchObject({ attempts: 1, delivered: true, last_error: null });
    const job = async () =>
      (
        await t.sql(
          `SELECT n.applied_at IS NOT NULL AS applied, j.status, j.attempts, j.last_error
             FROM acquirer_notifications n JOIN jobs j ON j.kind = 'acquirer.notification' AND j.key = n.event_id WHERE n.event_id = $1`,
          [sent.id],
        )
      )[0];
    expect(await job()).toEqual({ applied: false, status: 'pending', attempts: 1, last_error: 'down for a moment' });
    fail = false;
    await t.sql(`UPDATE jobs SET run_at = now() WHERE kind = 'acquirer.notification' AND key = $1`, [sent.id]);
    await t.app.get(JobQueue).runDue();
    expect(of(transactionId)).toEqual(['AUTHORIZED']);
    expect(await job()).toEqual({ applied: true, status: 'done', attempts: 1, last_error: 'down for a moment' });
    events.handlers.shift();
  });
});
