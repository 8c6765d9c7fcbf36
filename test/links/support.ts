import { http, TestApp } from '../support/test-app';

export const DAY = 86_400_000;

export const CARD = (number = '4111111111111111') => ({
  number,
  expMonth: 12,
  expYear: 2035,
  cvv: number.startsWith('3') ? '1234' : '123',
  holderName: 'ANA SOUZA',
});
export const PAYER = (n = 1) => ({ name: `Payer ${n}`, email: `payer${n}@example.com`, taxId: '52998224725' });

/** Moves the test clock through the sandbox's clock route: day by day, running the day's work. */
export function advanceDays(t: TestApp, days: number): Promise<void> {
  return t.advanceDays(days);
}

export async function createLink(t: TestApp, auth: Record<string, string>, body: Record<string, unknown>) {
  const r = await http(
    t.url,
    'POST',
    '/v1/acquiring/links',
    { name: 'Test link', paymentMethods: ['CARD', 'PIX', 'BOLETO'], ...body },
    auth,
  );
  if (r.status !== 201) throw new Error(`create link: ${r.status} ${r.text}`);
  return r.body;
}

export const pay = (t: TestApp, slug: string, body: Record<string, unknown>) => http(t.url, 'POST', `/checkout/${slug}/payments`, body);
export const detail = async (t: TestApp, auth: Record<string, string>, linkId: string) =>
  (await http(t.url, 'GET', `/v1/acquiring/links/${linkId}`, undefined, auth)).body;
