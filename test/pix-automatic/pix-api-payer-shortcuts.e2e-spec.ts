/**
 * The sandbox's payer shortcuts (`POST /sandbox/recurrences/{recurrenceId}/approve`, `reject`,
 * `cancel`, as docs/guide/pix-automatic.md gives them for every provider) on
 * BANK_PROVIDER=pix-api: called with the service's recurrenceId, the sandbox acts on the rec its
 * PSP holds as the payer's bank would, and the service learns it through its API Pix path (the
 * PSP's rec callback, read back with GET /rec), with no refresh.
 */
import { onboardTenant, OnboardedTenant, eventually } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { PixApiCallbacks } from '../../src/provider/pix-api/pix-api-callbacks';
import { day, startPixApp } from './support';

const BASE = '/v1/banking/pix/automatic';

describe('sandbox payer shortcuts on BANK_PROVIDER=pix-api', () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let acme: OnboardedTenant;
  const api = (method: string, path: string, body?: unknown) => http(t.url, method, `${BASE}${path}`, body, acme.auth);
  const shortcut = (id: string, action: string) => http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${id}/${action}`);

  async function created(amount: number): Promise<string> {
    const c = await api('POST', '/recurrences', {
      amount,
      currency: 'BRL',
      periodicity: 'MONTHLY',
      firstDueDate: day(t, 12),
      dayAdjustment: 'KEEP_DUE_DATE',
      payerName: 'Maria Souza',
      payerTaxId: '52998224725',
    });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('PENDING');
    return c.body.recurrenceId;
  }

  /** The service's own list (GET, never refresh) once the PSP's callback has been applied. */
  async function seen(id: string, status: string): Promise<void> {
    const worker = t.app.get(PixApiCallbacks);
    await eventually(async () => {
      await worker.settle();
      const page = await api('GET', `/recurrences?status=${status}&limit=100`);
      return page.body.items.some((r: { recurrenceId: string }) => r.recurrenceId === id);
    }, 15_000);
  }

  beforeAll(async () => {
    t = await startPixApp({ env: { BANK_PROVIDER: 'pix-api', PIX_API_RECONCILE_INTERVAL_MS: '0' } });
    acme = await onboardTenant(t, { name: 'ACME Academia', rateLimitPerMinute: 5000 });
  });
  afterAll(() => t?.close());

  it('approve, then the payer cancels: ACCEPTED, then CANCELLED_PAYER, as the service sees them from the PSP', async () => {
    const id = await created(49.9);
    const approved = await shortcut(id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ recurrenceId: id, status: 'ACCEPTED' });
    await seen(id, 'ACCEPTED');
    // the rec at the PSP is the one approved (APROVADA), not a copy
    const [{ id_rec: idRec }] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [id]);
    expect((await t.sql(`SELECT status FROM sandbox_bank_recurrences WHERE id_rec = $1`, [idRec]))[0].status).toBe('ACCEPTED');

    const cancelled = await shortcut(id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ recurrenceId: id, status: 'CANCELLED_PAYER' });
    await seen(id, 'CANCELLED_PAYER');
    // a second cancel is refused as on the service protocol
    expect((await shortcut(id, 'cancel')).body.error).toBe('recurrence_not_cancelable');
  });

  it('reject: REJECTED at the PSP and in the service; a second decision is refused', async () => {
    const id = await created(30);
    const rejected = await shortcut(id, 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ recurrenceId: id, status: 'REJECTED' });
    await seen(id, 'REJECTED');
    const again = await shortcut(id, 'approve');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('recurrence_not_pending');
  });

  it('an id neither protocol knows is still 404 sandbox_recurrence_not_found', async () => {
    const r = await shortcut('00000000-0000-4000-8000-000000000000', 'approve');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('sandbox_recurrence_not_found');
  });
});
