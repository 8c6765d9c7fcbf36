import { api, CardsApp, MERCHANT } from '../cards/support';

export const BROWSER_DEVICE = {
  userAgentBrowserValue: 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome',
  httpAcceptBrowserValue: 'text/html',
  httpBrowserLanguage: 'pt-BR',
  httpBrowserJavaEnabled: false,
  httpBrowserColorDepth: 24,
  httpBrowserScreenHeight: 900,
  httpBrowserScreenWidth: 1440,
  httpBrowserTimeDifference: 180,
};

export async function initialize(c: CardsApp, amount = 150.75, documentId = MERCHANT): Promise<string> {
  const r = await api(c, 'POST', '/v1/acquiring/payments/initialize', { amount, documentId });
  if (r.status !== 201) throw new Error(`initialize: ${r.status} ${r.text}`);
  return r.body.token;
}

export function setup(c: CardsApp, body: Record<string, unknown>) {
  return api(c, 'POST', '/v1/acquiring/payments/3ds/setup', body);
}

let seq = 0;

/** The authenticate body with every required field; `over` replaces any of them. */
export function authenticateBody(token: string, referenceId: string, over: Record<string, unknown> = {}) {
  return {
    token,
    documentId: MERCHANT,
    requestId: `req-${Date.now()}-${++seq}`,
    referenceId,
    transactionType: 'PURCHASE',
    deviceChannel: 'BROWSER',
    returnUrl: 'https://shop.example.com/3ds-done',
    transactionMode: 'S',
    acsWindowSize: '02',
    orderInformation: { amountDetails: { totalAmount: '150.75', currency: 'BRL' } },
    buyerInformation: { email: 'ana@example.com' },
    deviceInformation: BROWSER_DEVICE,
    ...over,
  };
}

export function authenticate(c: CardsApp, body: Record<string, unknown>) {
  return api(c, 'POST', '/v1/acquiring/payments/3ds/authenticate', body);
}

/** initialize → setup → authenticate for a card (number or slug fields). */
export async function authenticateCard(c: CardsApp, card: Record<string, unknown>, over: Record<string, unknown> = {}, amount = 150.75) {
  const token = await initialize(c, amount);
  const s = await setup(c, { token, ...card });
  if (s.status !== 200) throw new Error(`setup: ${s.status} ${s.text}`);
  const a = await authenticate(
    c,
    authenticateBody(token, s.body.referenceId, {
      ...card,
      orderInformation: { amountDetails: { totalAmount: amount.toFixed(2), currency: 'BRL' } },
      ...over,
    }),
  );
  return { token, referenceId: s.body.referenceId as string, setup: s.body, auth: a };
}
