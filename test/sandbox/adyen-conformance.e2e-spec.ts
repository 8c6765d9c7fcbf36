import { CheckoutAPI, Client, EnvironmentEnum, hmacValidator, Types } from '@adyen/api-library';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, request, Server } from 'node:http';
import { createServer as createHttpsServer, Server as HttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutErrors, operationSchema, webhookErrors } from '../support/adyen-contract';
import { until } from '../provider/adyen-support';
import { startTestApp, TestApp } from '../support/test-app';

const API_KEY = `conformance_${randomBytes(16).toString('hex')}`;
const HMAC_KEY = randomBytes(32).toString('hex').toUpperCase();
const WEBHOOK_PASSWORD = randomBytes(12).toString('hex');
const MERCHANT = 'SandboxMerchantBR';

interface Exchange {
  method: string;
  path: string;
  request: string;
  status: number;
  answer: string;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.setEncoding('utf8').on('data', (d) => (s += d));
    req.on('end', () => resolve(s));
  });

/**
 * The sandbox's Adyen face driven by a client that is not ours: Adyen's own Node library
 * (`@adyen/api-library`, its generated Checkout v72 services and its HMAC validator), over
 * HTTPS as it insists (a TLS front with a certificate made by openssl, trusted by the client),
 * every exchange validated against the vendored CheckoutService-v72.yaml and every webhook
 * against Webhooks-v1.yaml. What an outside integrator would see pointing their Adyen client at
 * the sandbox.
 */
describe("sandbox Adyen face, driven by Adyen's own library", () => {
  let t: TestApp;
  let front: HttpsServer;
  let receiver: Server;
  let dir: string;
  const exchanges: Exchange[] = [];
  const webhooks: { authorization?: string; body: any }[] = [];
  let payments: CheckoutAPI['PaymentsApi'];
  let modifications: CheckoutAPI['ModificationsApi'];
  let trust: object;
  let base: string;

  beforeAll(async () => {
    receiver = createHttpServer(async (req, res) => {
      webhooks.push({ authorization: req.headers.authorization, body: JSON.parse(await body(req)) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('[accepted]');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    t = await startTestApp({
      env: {
        ADYEN_API_KEY: API_KEY,
        ADYEN_HMAC_KEY: HMAC_KEY,
        ADYEN_WEBHOOK_PASSWORD: WEBHOOK_PASSWORD,
        SANDBOX_ADYEN_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/adyen`,
        SANDBOX_ACQUIRER_TICK_MS: '100',
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'pp-adyen-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    const cert = readFileSync(join(dir, 'cert.pem'));
    const target = new URL(t.sandboxUrl);
    front = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, async (req, res) => {
      const sent = await body(req);
      const path = `/sandbox/adyen/checkout${req.url}`;
      const fwd = request(
        { host: target.hostname, port: target.port, method: req.method, path, headers: { ...req.headers, host: target.host } },
        async (a) => {
          const answer = await body(a);
          exchanges.push({ method: req.method!, path: req.url!, request: sent, status: a.statusCode!, answer });
          res.writeHead(a.statusCode!, a.headers).end(answer);
        },
      );
      fwd.end(sent);
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    const client = new Client({ apiKey: API_KEY, environment: EnvironmentEnum.TEST });
    // the library's own HTTPS client, told to trust the front's certificate (as it trusts Adyen's)
    trust = { ca: cert };
    (client.httpClient as unknown as { agentOptions: object }).agentOptions = trust;
    base = `https://127.0.0.1:${(front.address() as AddressInfo).port}/v72`;
    const checkout = new CheckoutAPI(client);
    // the services' base URL is Adyen's test host; an integrator points it at the sandbox
    payments = checkout.PaymentsApi;
    modifications = checkout.ModificationsApi;
    for (const api of [payments, modifications]) (api as unknown as { baseUrl: string }).baseUrl = base;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => front.close(r));
    await new Promise((r) => receiver.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The exchange of the last call to a path, validated against the file's request and answer schemas. */
  function lastValid(template: string, path: string, status: string): Exchange {
    const ex = exchanges.filter((e) => e.path === path).pop()!;
    expect(ex).toBeDefined();
    expect([ex.path, String(ex.status)]).toEqual([path, status]);
    expect(checkoutErrors(operationSchema(template, undefined), JSON.parse(ex.request))).toEqual([]);
    expect(checkoutErrors(operationSchema(template, status), JSON.parse(ex.answer))).toEqual([]);
    return ex;
  }

  const card = (number: string): Types.checkout.CardDetails => ({
    type: Types.checkout.CardDetails.TypeEnum.Scheme,
    number,
    expiryMonth: '03',
    expiryYear: '2030',
    cvc: '737',
    holderName: 'Maria Souza',
  });
  const payment = (number: string, amount: number): Types.checkout.PaymentRequest => ({
    merchantAccount: MERCHANT,
    reference: `conf_${randomUUID()}`,
    amount: { currency: 'BRL', value: amount },
    paymentMethod: card(number),
    returnUrl: 'https://shop.example/return',
  });

  async function events(pspReference: string, code: string) {
    return until(async () => {
      const items = webhooks.flatMap((w) => w.body.notificationItems.map((i: any) => i.NotificationRequestItem));
      return items.find((i: any) => (i.pspReference === pspReference || i.originalReference === pspReference) && i.eventCode === code);
    });
  }

  it('authorises, captures and refunds a card, with the webhooks Adyen would send, each one signed and valid', async () => {
    // an authorisation only (Adyen's manualCapture), captured below
    const req = { ...payment('4111111111111111', 15075), additionalData: { manualCapture: 'true' } };
    const paid = await payments.payments(req, { idempotencyKey: req.reference });
    expect(paid.resultCode).toBe(Types.checkout.PaymentResponse.ResultCodeEnum.Authorised);
    lastValid('/payments', '/v72/payments', '200');
    const psp = paid.pspReference!;

    // the same Idempotency-Key gets the same answer, not a second payment
    const again = await payments.payments(req, { idempotencyKey: req.reference });
    expect(again.pspReference).toBe(psp);

    const cap = await modifications.captureAuthorisedPayment(psp, {
      merchantAccount: MERCHANT,
      amount: { currency: 'BRL', value: 15075 },
    });
    expect(cap.status).toBe(Types.checkout.PaymentCaptureResponse.StatusEnum.Received);
    lastValid('/payments/{paymentPspReference}/captures', `/v72/payments/${psp}/captures`, '201');

    const ref = await modifications.refundCapturedPayment(psp, {
      merchantAccount: MERCHANT,
      amount: { currency: 'BRL', value: 5000 },
      reference: `refund_${randomUUID()}`,
    });
    expect(ref.status).toBe(Types.checkout.PaymentRefundResponse.StatusEnum.Received);
    lastValid('/payments/{paymentPspReference}/refunds', `/v72/payments/${psp}/refunds`, '201');

    const validator = new hmacValidator();
    for (const code of ['AUTHORISATION', 'CAPTURE', 'REFUND']) {
      const item = await events(psp, code);
      expect(validator.validateHMAC(item, HMAC_KEY)).toBe(true);
      expect(item.success).toBe('true');
    }
    for (const w of webhooks) {
      expect(webhookErrors(w.body)).toEqual([]);
      expect(w.authorization).toBe(`Basic ${Buffer.from(`adyen-webhooks:${WEBHOOK_PASSWORD}`).toString('base64')}`);
    }
  });

  it("refuses a declined card with Adyen's refusal fields, and cancels an authorisation", async () => {
    const refused = await payments.payments(payment('4000000000000002', 1000));
    expect(refused.resultCode).toBe(Types.checkout.PaymentResponse.ResultCodeEnum.Refused);
    expect(refused.refusalReason).toBeTruthy();
    lastValid('/payments', '/v72/payments', '200');

    const paid = await payments.payments({ ...payment('5555555555554444', 2000), additionalData: { manualCapture: 'true' } });
    const cancel = await modifications.cancelAuthorisedPaymentByPspReference(paid.pspReference!, { merchantAccount: MERCHANT });
    expect(cancel.status).toBe(Types.checkout.PaymentCancelResponse.StatusEnum.Received);
    lastValid('/payments/{paymentPspReference}/cancels', `/v72/payments/${paid.pspReference}/cancels`, '201');
    expect((await events(paid.pspReference!, 'CANCELLATION')).success).toBe('true');
  });

  it('answers a wrong API key as Adyen does, and the library reads it as its error', async () => {
    const stranger = new Client({ apiKey: 'not-the-key-0123456789abcdef', environment: EnvironmentEnum.TEST });
    (stranger.httpClient as unknown as { agentOptions: object }).agentOptions = trust;
    const api = new CheckoutAPI(stranger).PaymentsApi;
    (api as unknown as { baseUrl: string }).baseUrl = base;
    await expect(api.payments(payment('4111111111111111', 100))).rejects.toMatchObject({ statusCode: 401 });
    const ex = exchanges[exchanges.length - 1];
    expect(checkoutErrors('ServiceError', JSON.parse(ex.answer))).toEqual([]);
  });
});
