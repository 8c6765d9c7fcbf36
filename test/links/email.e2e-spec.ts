import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { advanceDays, CARD, createLink, pay, PAYER } from './support';

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** The Subject header, RFC 2047 encoded words (Q or B) decoded. */
function subjectOf(raw: string): string {
  const m = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw);
  const header = (m ? m[1] : '').replace(/\r?\n[ \t]/g, ' ');
  return header.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_all, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** Payment notices from the outbox, received by a real SMTP listener. */
describe('payment notices by e-mail', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  let smtp: SMTPServer;
  const inbox: Mail[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c) => (raw += c.toString()));
        stream.on('end', () => {
          inbox.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await startTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'Payments <no-reply@pay.example.com>',
        LINKS_TICK_MS: '100',
        LINKS_EMAIL_MAX_ATTEMPTS: '3',
        LINKS_EMAIL_RETRY_BASE_MS: '100',
        ACQUIRER_RETRY_DELAYS_MS: '10',
        PUBLIC_URL: 'https://pay.example.com',
      },
    });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  async function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 8000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('sends one notice per confirmed payment to actor.email, with payer data and the invoice link; none for refusals', async () => {
    const l = await createLink(t, a.auth, {
      name: 'Aula de violão',
      amount: 80,
      notifyEmail: true,
      actor: { email: 'finance@acme.example' },
    });
    await pay(t, l.slug, { method: 'CARD', payer: PAYER(1), card: CARD('4000000000000002') }); // refused: no notice
    const ok = (
      await pay(t, l.slug, { method: 'CARD', payer: { name: 'Ana Souza', email: 'ana@example.com', taxId: '52998224725' }, card: CARD() })
    ).body;
    const mail = await until(() => inbox.find((m) => m.raw.includes(ok.paymentId)));
    expect(mail.to).toEqual(['finance@acme.example']);
    expect(mail.from).toBe('no-reply@pay.example.com');
    const text = mail.raw.replace(/=\r?\n/g, '');
    expect(subjectOf(mail.raw)).toBe('Payment received: Aula de violão - R$ 80,00');
    for (const s of [
      'Ana Souza',
      'ana@example.com',
      '52998224725',
      'ACCEPTED',
      `https://pay.example.com/checkout/${l.slug}/payments/${ok.paymentId}/receipt`,
    ])
      expect(text).toContain(s);
    // the invoice link opens the receipt
    const receipt = await http(t.url, 'GET', `/checkout/${l.slug}/payments/${ok.paymentId}/receipt`);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain('Comprovante de pagamento');
    expect(receipt.text).toContain('Ana Souza');

    // Pix: AUTHORIZED then SETTLED is one payment, one notice
    const pix = (await pay(t, l.slug, { method: 'PIX', payer: PAYER(3) })).body;
    await http(t.sandboxUrl, 'POST', `/sandbox/pix/${pix.pix.txid}/pay`);
    await advanceDays(t, 1);
    await until(() => inbox.find((m) => m.raw.includes(pix.paymentId)));
    await new Promise((r) => setTimeout(r, 300));
    expect(inbox.filter((m) => m.raw.includes(pix.paymentId))).toHaveLength(1);
    expect(inbox).toHaveLength(2);
    const ready = (await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey })).body.details;
    expect(ready.linksEmail).toEqual({ status: 'up', late: 0 });
    expect(ready.jobQueue.dead).toEqual({});
    // each notice sent by its job on the job queue, at the first try
    const rows = await t.sql(
      `SELECT o.status, j.status AS job, j.attempts FROM links_email_outbox o JOIN jobs j ON j.kind = 'links.email' AND j.key = o.id::text
        ORDER BY o.created_at`,
    );
    expect(rows).toEqual([
      { status: 'SENT', job: 'done', attempts: 0 },
      { status: 'SENT', job: 'done', attempts: 0 },
    ]);
  });

  it('keeps the notice while SMTP is down: retried, then dead and visible; sent once by a replay when SMTP is back', async () => {
    const l = await createLink(t, a.auth, { amount: 9, notifyEmail: true, actor: { email: 'ops@acme.example' } });
    await new Promise<void>((r) => smtp.close(() => r()));
    const port = Number(new URL((t.app.get(require('../../src/links/links.config').LinksConfig) as any).smtpUrl).port);
    const p = (await pay(t, l.slug, { method: 'CARD', payer: PAYER(9), card: CARD() })).body;
    expect(p.status).toBe('ACCEPTED'); // the payment does not wait for e-mail
    const job = async () =>
      (
        await t.sql(
          `SELECT j.id::text, j.status, j.attempts, j.last_error, o.status AS notice FROM links_email_outbox o
             JOIN jobs j ON j.kind = 'links.email' AND j.key = o.id::text WHERE o.payment_id = $1`,
          [p.paymentId],
        )
      )[0];
    // retried on its backoff, then dead after LINKS_EMAIL_MAX_ATTEMPTS; the notice kept
    const dead = await until(async () => ((await job())?.status === 'dead' ? job() : undefined));
    expect(dead).toMatchObject({ attempts: 3, last_error: expect.any(String), notice: 'PENDING' });
    const admin = { 'X-Admin-Key': t.adminKey };
    await until(async () => /job_queue_jobs\{kind="links.email",status="dead"\} 1/.test((await http(t.url, 'GET', '/metrics')).text));
    expect((await http(t.url, 'GET', '/health/ready')).body.details.email).toEqual({ status: 'up', degraded: true });
    const list = await http(t.url, 'GET', '/admin/jobs/dead?kind=links.email', undefined, admin);
    expect(list.body.items).toEqual([expect.objectContaining({ id: dead.id, status: 'dead', attempts: 3 })]);

    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c) => (raw += c.toString()));
        stream.on('end', () => {
          inbox.push({ from: '', to: session.envelope.rcptTo.map((r) => r.address), raw });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', () => r()));
    const replay = await http(t.url, 'POST', `/admin/jobs/${dead.id}/replay`, undefined, admin);
    expect([replay.status, replay.body.status]).toEqual([200, 'pending']);
    const mail = await until(() => inbox.find((m) => m.raw.includes(p.paymentId)));
    expect(mail.to).toEqual(['ops@acme.example']);
    expect(await until(async () => ((await job()).status === 'done' ? job() : undefined))).toMatchObject({ notice: 'SENT' });
    await new Promise((r) => setTimeout(r, 300));
    expect(inbox.filter((m) => m.raw.includes(p.paymentId))).toHaveLength(1);
    await until(async () => !(await http(t.url, 'GET', '/health/ready')).body.details.email.degraded);
  });
});
