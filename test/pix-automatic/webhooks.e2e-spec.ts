import { createDecipheriv } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onboardTenant } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { hasChromium, openBrowser } from './browser';
import { advance, day, startPixApp } from './support';

/** What a caller writes: the sealed body opened with Node's own crypto, nothing of ours. */
function openSealed(body: { iv: string; ciphertext: string; tag: string }, base64Key: string): any {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(base64Key, 'base64'), Buffer.from(body.iv, 'base64'), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(body.tag, 'base64'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body.ciphertext, 'base64')), decipher.final()]).toString('utf8'));
}

describe('end to end: create, authorize in Chromium, bill, settle, sealed webhooks at a local receiver', () => {
  let t: TestApp;
  let receiver: Server;
  let receiverUrl = '';
  const received: { headers: Record<string, unknown>; body: any }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/pix`;
    t = await startPixApp({ env: { WEBHOOK_POLL_INTERVAL_MS: '50' } });
  });
  afterAll(async () => {
    await t.close();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });

  async function events(until: (types: string[]) => boolean, key: string) {
    for (let i = 0; i < 100; i++) {
      const opened = received.map((r) => openSealed(r.body, key));
      if (until(opened.map((e) => e.event_type))) return opened;
      await new Promise((r) => setTimeout(r, 100));
    }
    return received.map((r) => openSealed(r.body, key));
  }

  it('each status change arrives once, sealed, and opens with node:crypto', async () => {
    const tenant = await onboardTenant(t, { name: 'Academia Webhook', rateLimitPerMinute: 1000 });
    const reg = await http(t.url, 'PUT', '/v1/banking/webhooks/pix-automatic', { url: receiverUrl }, tenant.auth);
    expect(reg.status).toBe(200);
    const key: string = reg.body.encryptionKey;
    expect(Buffer.from(key, 'base64')).toHaveLength(32);

    const c = await http(
      t.url,
      'POST',
      '/v1/banking/pix/automatic/recurrences',
      {
        amount: 89.9,
        currency: 'BRL',
        periodicity: 'MONTHLY',
        firstDueDate: day(t, 10),
        dayAdjustment: 'KEEP_DUE_DATE',
        payerName: 'João Pereira',
        payerTaxId: '11222333000181',
      },
      tenant.auth,
    );
    expect(c.status).toBe(200);
    const recurrenceId = c.body.recurrenceId;

    if (hasChromium()) {
      const b = await openBrowser();
      try {
        const page = await b.ctx.newPage();
        await page.goto(c.body.authorizationUrl);
        expect(await page.textContent('#amount')).toBe('R$ 89,90');
        await page.click('#authorize');
        await page.waitForSelector('#result');
      } finally {
        await b.close();
      }
    } else {
      console.warn('SKIPPED the browser step: /usr/bin/chromium is not installed; approving through the sandbox route');
      await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${recurrenceId}/approve`);
    }
    await advance(t, 7); // billing created, sent, activated by the bank
    await advance(t, 3); // due date: paid
    const billings = await http(t.url, 'GET', `/v1/banking/pix/automatic/recurrences/${recurrenceId}/billings`, undefined, tenant.auth);
    expect(billings.body.items.map((b: any) => b.status)).toEqual(['COMPLETED']);
    const billing = billings.body.items[0];

    const expected = [
      'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED',
      'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED',
      'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE',
      'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED',
    ];
    const opened = await events((types) => expected.every((e) => types.includes(e)), key);
    // Once each: the PAYER_* variants and any duplicate collapse into one delivery.
    expect(opened.map((e) => e.event_type).sort()).toEqual([...expected].sort());
    expect(new Set(opened.map((e) => e.id)).size).toBe(opened.length);
    const byType = Object.fromEntries(opened.map((e) => [e.event_type, e]));
    expect(byType.PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED).toMatchObject({
      idTx: expect.stringMatching(/^RR/),
      data: { recurrenceId, status: 'ACCEPTED' },
    });
    for (const [type, status] of [
      ['REQUESTED', 'PENDING_SEND'],
      ['ACTIVE', 'ACTIVE'],
      ['COMPLETED', 'COMPLETED'],
    ]) {
      expect(byType[`PIX_AUTOMATIC_RECEIVER_BILLING_${type}`]).toEqual({
        id: expect.any(String),
        event_type: `PIX_AUTOMATIC_RECEIVER_BILLING_${type}`,
        idTx: billing.idTx,
        occurredAt: expect.stringMatching(/Z$/),
        data: { billingId: billing.id, recurrenceId, status, amount: 89.9, currency: 'BRL', dueDate: billing.dueDate },
      });
    }
    // The sealed body carries nothing in clear.
    for (const r of received) {
      expect(Object.keys(r.body).sort()).toEqual(['ciphertext', 'iv', 'keyId', 'tag']);
      expect(JSON.stringify(r.body)).not.toContain(recurrenceId);
    }
  }, 60_000);
});
