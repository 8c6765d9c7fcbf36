import { createPublicKey, verify } from 'node:crypto';
import { parseBrCode } from '../../kernel/common/formats/brcode';
import { SANDBOX_PIX_KEY } from '../../src/provider/pix-api/pix-api.config';
import { validateCallback, validateRequest, validateResponse } from '../support/pix-api-contract';
import { eventually, OnboardedTenant } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { advanceDays, createLink, pay, PAYER } from './support';
import { PixApiLinksApp, startPixApiLinksApp } from './pix-api-app';

/**
 * Links and boletos on BANK_PROVIDER=pix-api against the sandbox PSP over HTTPS with mutual TLS:
 * PUT /cob with a location, the PSP's dynamic BR Code, paid in the sandbox bank app, the PSP's
 * {pix:[…]} callback, the link payment SETTLED and the tenant's webhooks; a boleto's Pix QR as a
 * cobv. Every exchange with the PSP and every callback is checked against API Pix 2.9.0.
 */
describe('links and boletos over API Pix (pix-api)', () => {
  let h: PixApiLinksApp;
  let t: TestApp;
  let a: OnboardedTenant;
  let recorder: PixApiLinksApp['recorder'];
  let hooks: any[];
  let callbacks: PixApiLinksApp['callbacks'];

  beforeAll(async () => {
    h = await startPixApiLinksApp();
    ({ t, a, recorder, hooks, callbacks } = h);
  });
  afterAll(() => h?.close());

  const hooksFor = (id: string) =>
    hooks
      .filter((h) => h.data.transactionId === id)
      .map((h) => `${h.type}:${h.data.status}`)
      .sort();
  const statusOf = async (id: string) => (await t.sql(`SELECT status FROM links_payments WHERE id = $1`, [id]))[0]?.status;
  const settled = (id: string, status: string) => eventually(async () => (await statusOf(id)) === status, 10_000);

  /** The payer's bank: reads the BR Code, follows it to the charge, pays it. */
  async function payInBankApp(brCode: string): Promise<string> {
    const open = await fetch(`${t.sandboxUrl}/sandbox/bank-app?code=${encodeURIComponent(brCode)}`, { redirect: 'manual' });
    expect(open.status).toBe(303);
    const page = open.headers.get('location')!;
    const txid = page.split('/').pop()!;
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${txid}/pay`)).status).toBe(200);
    return txid;
  }

  /** What a location serves: a JWS (ES256) whose key is at its jku; answers the payload. */
  async function readLocation(url: string): Promise<any> {
    const path = new URL(url).pathname;
    const res = await fetch(`${t.sandboxUrl}${path}`); // the PSP's location, served by the sandbox app
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/jose');
    const [h, p, s] = (await res.text()).split('.');
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    expect(header.alg).toBe('ES256');
    const jwks = await (await fetch(`${t.sandboxUrl}${new URL(header.jku).pathname}`)).json();
    const key = createPublicKey({ key: jwks.keys.find((k: any) => k.kid === header.kid), format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true);
    return JSON.parse(Buffer.from(p, 'base64url').toString());
  }

  it('registers the Pix webhook for the receiver key at start-up', async () => {
    await eventually(async () => (await t.sql(`SELECT 1 FROM sandbox_psp_pix_webhooks`)).length > 0, 10_000);
    const [w] = await t.sql(`SELECT chave, webhook_url FROM sandbox_psp_pix_webhooks`);
    expect(w).toEqual({ chave: SANDBOX_PIX_KEY, webhook_url: h.webhookUrl });
    expect(validateRequest('PUT', '/webhook/{chave}', { webhookUrl: w.webhook_url }).valid).toBe(true);
  });

  it('a link paid by Pix: a cob at the PSP, its dynamic BR Code paid in the bank app, the callback → SETTLED, the tenant told once', async () => {
    const l = await createLink(t, a.auth, { amount: 25 });
    const r = await pay(t, l.slug, { method: 'PIX', payer: PAYER(1) });
    expect(r.status).toBe(201);
    const paymentId = r.body.paymentId;
    const txid = paymentId.replace(/-/g, '');
    expect(r.body.pix.txid).toBe(txid);
    const code = parseBrCode(r.body.pix.brCode);
    expect(code).toMatchObject({ type: 'DYNAMIC', txid: '***' });
    expect(code.key).toBeUndefined();
    expect(code.url).toMatch(/\/sandbox\/qr\/[a-f0-9]{20,32}$/);

    // the location the payer's bank reads: the charge, signed, as the standard's CobPayload
    const payload = await readLocation(`http://${code.url}`);
    expect(validateResponse('GET', '/{pixUrlAccessToken}', 200, payload)).toEqual({ valid: true, errors: [] });
    expect(payload).toMatchObject({
      txid,
      status: 'ATIVA',
      valor: { original: '25.00' },
      chave: SANDBOX_PIX_KEY,
      calendario: { expiracao: 1800 },
    });

    expect(await payInBankApp(r.body.pix.brCode)).toBe(txid);
    await settled(paymentId, 'SETTLED');
    await eventually(async () => hooksFor(paymentId).length >= 2, 10_000);
    expect(hooksFor(paymentId)).toEqual(['acquiring.financial_transaction:AUTHORIZED', 'acquiring.payout:SETTLED']);

    // the callback the PSP posted, as the standard writes it
    const cb = callbacks.find((c) => c.body.pix?.some((p: any) => p.txid === txid))!;
    expect(cb.path).toBe('/hook/pix');
    expect(validateCallback('pix', cb.body)).toEqual({ valid: true, errors: [] });
    const e2e = cb.body.pix[0].endToEndId;

    // the same callback again, twice: nothing changes
    for (let i = 0; i < 2; i++) expect((await http(t.url, 'POST', '/provider/pix-api/pix', cb.body)).status).toBe(200);
    await new Promise((res) => setTimeout(res, 500));
    expect(hooksFor(paymentId)).toHaveLength(2);
    expect(await t.sql(`SELECT status, txid FROM pix_api_pix_received WHERE end_to_end_id = $1`, [e2e])).toEqual([
      { status: 'APPLIED', txid },
    ]);
    expect((await t.sql(`SELECT count(*)::int AS n FROM links_payments WHERE link_id = $1 AND status = 'SETTLED'`, [l.linkId]))[0].n).toBe(
      1,
    );
    expect(await t.sql(`SELECT status FROM sandbox_acquirer_pix_charges WHERE txid = $1`, [txid])).toEqual([{ status: 'SETTLED' }]);
  });

  it('a boleto: its Pix QR is a cobv with the due date, paid by Pix → PAID_PIX once, the boleto paid at the bank too', async () => {
    const l = await createLink(t, a.auth, { amount: 80 });
    const r = await pay(t, l.slug, { method: 'BOLETO', payer: PAYER(2) });
    expect(r.status).toBe(201);
    const paymentId = r.body.paymentId;
    const [row] = await t.sql(`SELECT instrument FROM links_payments WHERE id = $1`, [paymentId]);
    const code = parseBrCode(row.instrument.pixBrCode);
    expect(code.type).toBe('DYNAMIC');
    expect(code.url).toMatch(/\/sandbox\/qr\/cobv\/[a-f0-9]{20,32}$/);
    const payload = await readLocation(`http://${code.url}`);
    expect(validateResponse('GET', '/cobv/{pixUrlAccessToken}', 200, payload)).toEqual({ valid: true, errors: [] });
    expect(payload).toMatchObject({
      txid: paymentId.replace(/-/g, ''),
      calendario: { dataDeVencimento: r.body.boleto.dueDate, validadeAposVencimento: 0 },
      devedor: { cpf: PAYER(2).taxId, nome: PAYER(2).name },
      valor: { original: '80.00' },
      infoAdicionais: [{ nome: 'Linha digitavel', valor: r.body.boleto.digitableLine }],
    });

    await payInBankApp(row.instrument.pixBrCode);
    await settled(paymentId, 'PAID_PIX');
    const [boleto] = await t.sql(`SELECT status FROM sandbox_acquirer_boletos WHERE id = $1`, [r.body.boleto.boletoId]);
    expect(boleto.status).toBe('PAID_PIX'); // one bank: the boleto is no longer payable by clearing
    await eventually(async () => hooksFor(paymentId).length >= 1, 10_000);
    await new Promise((res) => setTimeout(res, 500)); // the acquirer's own PAID_PIX notice arrives too and changes nothing
    expect(hooksFor(paymentId)).toEqual(['acquiring.payment_slip_notification:PAID_PIX']);
    const cb = callbacks.find((c) => c.body.pix?.some((p: any) => p.txid === paymentId.replace(/-/g, '')))!;
    expect(validateCallback('pix', cb.body).valid).toBe(true);
  });

  it('a Pix whose callback is lost is found when its cob is read back; an unpaid cob past its expiry is EXPIRED', async () => {
    const l = await createLink(t, a.auth, { amount: 12.5 });
    const lost = (await pay(t, l.slug, { method: 'PIX', payer: PAYER(3) })).body;
    const unpaid = (await pay(t, l.slug, { method: 'PIX', payer: PAYER(4) })).body;
    h.dropCallbacks = true;
    try {
      await payInBankApp(lost.pix.brCode);
      await eventually(async () => callbacks.some((c) => c.body.pix?.some((p: any) => p.txid === lost.pix.txid)), 10_000);
      await new Promise((res) => setTimeout(res, 300));
      expect(await statusOf(lost.paymentId)).toBe('PENDING');
    } finally {
      h.dropCallbacks = false;
    }
    await advanceDays(t, 1); // both past calendario.expiracao (30 min)
    await settled(lost.paymentId, 'SETTLED');
    await settled(unpaid.paymentId, 'EXPIRED');
    // The charge is closed after its event is applied (a separate statement: a close that fails
    // leaves it open, read back again on the next pass), so the payment's status can come first.
    const closed = async () =>
      (
        await t.sql(`SELECT count(*)::int AS n FROM pix_api_charges WHERE txid = ANY($1) AND closed_at IS NOT NULL`, [
          [lost.pix.txid, unpaid.pix.txid],
        ])
      )[0].n;
    await eventually(async () => (await closed()) === 2, 10_000); // throws if never both closed
  });

  it('a forged callback (a Pix the PSP does not know) changes nothing', async () => {
    const forged = {
      pix: [{ endToEndId: 'E99999999202601010000abcdefghijk', txid: 'a'.repeat(32), valor: '25.00', horario: new Date().toISOString() }],
    };
    expect((await http(t.url, 'POST', '/provider/pix-api/pix', forged)).status).toBe(200);
    await eventually(
      async () =>
        (await t.sql(`SELECT status FROM pix_api_pix_received WHERE end_to_end_id = $1`, [forged.pix[0].endToEndId]))[0]?.status ===
        'IGNORED',
      10_000,
    );
    expect((await http(t.url, 'POST', '/provider/pix-api/pix', { pix: [{ txid: 'x' }] })).body.error).toBe('invalid_callback');
  });

  it('every request sent to the PSP and every answer it gave conform to API Pix 2.9.0', () => {
    const ops = new Set(recorder.seen.map((x) => `${x.method} ${x.template}`));
    for (const op of ['POST /loc', 'PUT /cob/{txid}', 'PUT /cobv/{txid}', 'GET /pix/{e2eid}', 'GET /cob/{txid}']) expect(ops).toContain(op);
    expect(recorder.violations()).toEqual([]);
  });
});
