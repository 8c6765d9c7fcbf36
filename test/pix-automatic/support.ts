import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { Clock } from '../../kernel/platform/clock/clock';
import { addDays, isBusinessDay } from '../../src/pix-automatic/domain/calendar';
import { CreateRecurrenceDto } from '../../src/pix-automatic/dto/recurrence.dto';
import { CreateRecurrence } from '../../src/pix-automatic/use-cases/create-recurrence';
import { PixApiCallbacks } from '../../src/provider/pix-api/pix-api-callbacks';
import { PixApiReceivedPix } from '../../src/provider/pix-api/pix-api-received-pix';
import { SandboxBankEvents } from '../../sandbox/src/bank/sandbox-bank.events';
import { PspPixCallbacks } from '../../sandbox/src/psp/psp-pix.callbacks';
import { http, startTestApp, TestApp, TestAppOptions } from '../support/test-app';

/**
 * Quiet timers (the test clock drives the engine and the bank) and fast provider retries. The
 * timeout is the production default (5 s): no suite here waits on a provider that never answers,
 * and 2 s was short for a call that is not retried (a PUT, a test's own GET) when the suite runs
 * whole on the embedded database (one such GET of the sandbox PSP took longer in a newcomer run).
 */
export const PIX_TEST_ENV: Record<string, string> = {
  BILLING_ENGINE_INTERVAL_MS: '0',
  SANDBOX_BANK_TICK_MS: '0',
  PROVIDER_RETRY_DELAYS_MS: '20,20,20',
  PROVIDER_TIMEOUT_MS: '5000',
  BILLING_RETRY_BASE_MS: '1000',
};

export function startPixApp(opts: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({ ...opts, env: { ...PIX_TEST_ENV, ...opts.env } });
}

/** A tenant made through the operator API, as a TenantContext for service-level calls. */
export async function newTenant(t: TestApp, name = 'ACME Academia'): Promise<TenantContext> {
  const r = await http(
    t.url,
    'POST',
    '/admin/tenants',
    { name, allowedCidrs: ['127.0.0.1/32', '::1/128'], rateLimitPerMinute: 100000 },
    { 'X-Admin-Key': t.adminKey },
  );
  if (r.status !== 201) throw new Error(`tenant create failed: ${r.status} ${r.text}`);
  return { tenantId: r.body.tenantId, clientId: 'test-client', keyId: 'test-key' };
}

export function today(t: TestApp): string {
  return t.app.get(Clock).today();
}

export function day(t: TestApp, offset: number): string {
  return addDays(today(t), offset);
}

/**
 * The first business day at least `minOffset` days from the test clock's today, and its offset:
 * a due date that MOVE_FORWARD_NEXT_BUSINESS_DAY leaves where it is, whatever weekday the suite
 * runs on.
 */
export function businessDay(t: TestApp, minOffset: number): { date: string; offset: number } {
  for (let offset = minOffset; ; offset++) if (isBusinessDay(day(t, offset))) return { date: day(t, offset), offset };
}

export function recurrenceBody(t: TestApp, over: Partial<CreateRecurrenceDto> = {}): CreateRecurrenceDto {
  return {
    amount: 49.9,
    currency: 'BRL',
    periodicity: 'MONTHLY',
    firstDueDate: day(t, 10),
    dayAdjustment: 'KEEP_DUE_DATE',
    payerName: 'Maria Souza',
    payerTaxId: '52998224725',
    description: 'Plano mensal',
    ...over,
  } as CreateRecurrenceDto;
}

/** Service-level create (no gateway): the provider call and the insert are the real ones. */
export function createRecurrence(t: TestApp, ctx: TenantContext, over: Partial<CreateRecurrenceDto> = {}) {
  return t.app.get(CreateRecurrence).execute(ctx, recurrenceBody(t, over));
}

export async function advance(t: TestApp, days: number) {
  const r = await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days });
  if (r.status !== 200) throw new Error(`advance failed: ${r.status} ${r.text}`);
  return r.body as { now: string; today: string };
}

/**
 * The PSP's callbacks so far delivered and applied (BANK_PROVIDER=pix-api): the sandbox's outboxes
 * flushed (its rec and cobr callbacks, and its Pix callbacks, POSTed to the service) and the
 * service's queues empty (the rec and cobr callbacks applied; the received Pix, a cobr's paying
 * Pix and a Pix whose devoluções changed, read back and applied), twice in a row 20 ms apart. It
 * waits for that state, not for a fixed time: a queued row that is not due is being applied by a
 * pass of a worker that its arrival started (its row leased), so it is counted and waited for too;
 * applying a callback can make the PSP change (and call back) again, hence the rounds; the second
 * look catches work started just after the first. Fails after 15 s, with what was left.
 */
export async function settled(t: TestApp): Promise<void> {
  const bank = t.sandbox.get(SandboxBankEvents);
  const pixCallbacks = t.sandbox.get(PspPixCallbacks);
  const worker = t.app.get(PixApiCallbacks);
  const received = t.app.get(PixApiReceivedPix);
  const deadline = Date.now() + 15_000;
  let quiet = false;
  for (;;) {
    await bank.flush();
    await pixCallbacks.deliverDue();
    await worker.settle();
    await received.applyDue();
    const [left] = await t.sql<{ events: number; pix_callbacks: number; callbacks: number; received_pix: number }>(
      `SELECT (SELECT count(*) FROM sandbox_bank_events WHERE delivered_at IS NULL)::int AS events,
              (SELECT count(*) FROM sandbox_psp_pix_callbacks WHERE delivered_at IS NULL)::int AS pix_callbacks,
              (SELECT count(*) FROM jobs WHERE kind LIKE 'pix-api.%' AND status = 'pending')::int AS callbacks,
              (SELECT count(*) FROM pix_api_pix_received WHERE status = 'PENDING')::int AS received_pix`,
    );
    const n = Object.values(left).reduce((a, b) => a + Number(b), 0);
    if (!n && quiet) return;
    quiet = !n;
    if (Date.now() > deadline) throw new Error(`the PSP and the service did not settle in 15 s (left: ${JSON.stringify(left)})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function statusOf(t: TestApp, recurrenceId: string): Promise<string> {
  return (await t.sql('SELECT status FROM pix_recurrences WHERE id = $1', [recurrenceId]))[0]?.status;
}

export async function billingsOf(t: TestApp, recurrenceId: string) {
  return t.sql<{
    id: string;
    cycle: number | null;
    status: string;
    due_date: string;
    send_attempts: number;
    id_tx: string;
    amount_cents: string;
  }>(
    `SELECT id, cycle, status, due_date::text AS due_date, send_attempts, id_tx, amount_cents FROM pix_billings WHERE recurrence_id = $1 ORDER BY due_date, cycle`,
    [recurrenceId],
  );
}
