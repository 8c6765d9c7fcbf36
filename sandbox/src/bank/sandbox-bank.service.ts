import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, DayPassedSignal } from '../../../kernel/platform/clock/clock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { SandboxConfig } from '../sandbox.config';
import { SandboxErrors } from '../sandbox.errors';
import { parseBillingBatch } from './bank-api.dto';
import { contratoOf } from '../../../kernel/common/protocols/pix-api-rec';
import { BankEvent, SETTLEMENT_EVENT, settlementOf, variants } from './bank-rules';
import { SandboxBankEvents } from './sandbox-bank.events';
import { BankRecurrence, SandboxBankStore } from './sandbox-bank.store';

export interface NewBankRecurrence {
  recurrenceId: string;
  idTx: string;
  receiver: { id: string; name: string };
  amountCents: number;
  periodicity: string;
  firstDueDate: string;
  expirationDate: string | null;
  dayAdjustment: string;
  payerName: string;
  payerTaxId: string;
  description: string | null;
}

export interface BillingIn {
  idTx: string;
  billingId: string;
  recurrenceId: string;
  amountCents: number;
  dueDate: string;
}

const OPEN = ['PENDING', 'ACCEPTED', 'ACTIVE'];

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * What the payer's bank does: holds recurrences until the payer authorizes or refuses them
 * (within a window of the test clock), receives billings, activates them, settles them on the
 * due date by the cents rule, lets the payer cancel, and tells the service by events.
 */
@Injectable()
export class SandboxBankService implements OnModuleInit {
  constructor(
    private readonly store: SandboxBankStore,
    private readonly events: SandboxBankEvents,
    private readonly config: SandboxConfig,
    private readonly clock: Clock,
    private readonly dayPassed: DayPassedSignal,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    if (!this.config.enabled) return;
    // After the billing engine (order 10): billings sent today are activated and settled today.
    this.dayPassed.subscribe('sandbox.bank', (day) => this.processDay(day), 20);
    this.jobs.schedule({ name: 'sandbox-bank', everyMs: this.config.tickMs, run: () => this.processDay(this.clock.today()) });
  }

  // ---- the provider API (called by the service) ------------------------------------------

  async createRecurrence(req: NewBankRecurrence): Promise<Pick<BankRecurrence, 'recurrenceId' | 'status'>> {
    return this.store.insertRecurrence({
      recurrenceId: req.recurrenceId,
      idTx: req.idTx,
      receiverId: req.receiver.id,
      receiverName: req.receiver.name,
      status: 'PENDING',
      amountCents: req.amountCents,
      periodicity: req.periodicity,
      firstDueDate: req.firstDueDate,
      expirationDate: req.expirationDate,
      dayAdjustment: req.dayAdjustment,
      payerName: req.payerName,
      payerTaxId: req.payerTaxId,
      description: req.description,
      authorizationDeadline: addDays(this.clock.today(), this.config.authorizationWindowDays),
    });
  }

  async get(recurrenceId: string): Promise<BankRecurrence> {
    const r = await this.store.findRecurrence(recurrenceId);
    if (!r) throw SandboxErrors.error('sandbox_recurrence_not_found', 'The bank holds no such recurrence');
    return r;
  }

  /** The receiver withdraws the recurrence: its open billings are cancelled with it. Events go out after the answer. */
  async receiverCancel(recurrenceId: string): Promise<BankRecurrence> {
    const r = await this.store.transaction(async (m) => {
      const moved = await this.store.moveRecurrence(m, recurrenceId, 'CANCELLED_RECEIVER', OPEN);
      if (!moved) return this.store.findRecurrence(recurrenceId, m);
      const at = this.clock.now().toISOString();
      const billings = await this.store.closeOpenBillings(m, recurrenceId, 'CANCELLED_RECEIVER');
      await this.store.insertEvents(m, [
        ...variants('RECURRENCE_CANCELED', moved.idTx, at, { recurrenceId }, 'RECEIVER'),
        ...billings.flatMap((b) => variants('BILLING_CANCELED_RECEIVER', b.idTx, at, { recurrenceId, billingId: b.billingId })),
      ]);
      return moved;
    });
    if (!r) throw SandboxErrors.error('sandbox_recurrence_not_found', 'The bank holds no such recurrence');
    setImmediate(() => void this.events.flush());
    return r;
  }

  async receiveBatch(body: unknown): Promise<{ idTx: string; accepted: boolean; status?: string; reason?: string }[]> {
    const { billings, problems } = parseBillingBatch(body);
    if (problems.length) throw SandboxErrors.error('invalid_request', 'The batch has invalid billings', { details: problems });
    return this.receiveBillings(billings);
  }

  /** Billings sent by the service: accepted (idempotently per idTx) or refused with a reason. */
  async receiveBillings(billings: BillingIn[]): Promise<{ idTx: string; accepted: boolean; status?: string; reason?: string }[]> {
    const today = this.clock.today();
    const recurrences = await this.store.recurrencesById([...new Set(billings.map((b) => b.recurrenceId))]);
    const existing = await this.store.billingsByIdTx(billings.map((b) => b.idTx));
    const results: { idTx: string; accepted: boolean; status?: string; reason?: string }[] = [];
    const fresh: BillingIn[] = [];
    for (const b of billings) {
      const known = existing.get(b.idTx);
      const r = recurrences.get(b.recurrenceId);
      if (known)
        results.push(
          known.status === 'CANCELLED_RECEIVER' && known.amountCents === null
            ? { idTx: b.idTx, accepted: false, status: known.status, reason: 'cancelled_by_receiver' }
            : { idTx: b.idTx, accepted: true, status: known.status },
        );
      else if (!r) results.push({ idTx: b.idTx, accepted: false, reason: 'unknown_recurrence' });
      else if (r.status !== 'ACCEPTED' && r.status !== 'ACTIVE')
        results.push({ idTx: b.idTx, accepted: false, reason: `recurrence_${r.status.toLowerCase()}` });
      else if (b.dueDate < today) results.push({ idTx: b.idTx, accepted: false, reason: 'due_date_in_past' });
      else {
        fresh.push(b);
        results.push({ idTx: b.idTx, accepted: true, status: 'RECEIVED' });
      }
    }
    if (fresh.length) {
      await this.store.transaction(async (m) => {
        await this.store.insertBillings(m, fresh);
        await this.store.activateRecurrences(m, [...new Set(fresh.map((b) => b.recurrenceId))]);
      });
    }
    return results;
  }

  async receiverCancelBilling(idTx: string, recurrenceId: string): Promise<{ idTx: string; status: string }> {
    const res = await this.store.transaction(async (m) => {
      const { billing, changed } = await this.store.cancelBilling(m, idTx, recurrenceId);
      if (changed)
        await this.store.insertEvents(
          m,
          variants('BILLING_CANCELED_RECEIVER', idTx, this.clock.now().toISOString(), { recurrenceId, billingId: billing.billingId }),
        );
      return billing;
    });
    setImmediate(() => void this.events.flush());
    return { idTx, status: res.status };
  }

  // ---- what the payer does (pages and their HTTP routes) ----------------------------------

  /** Whether the authorization window has closed (even before the day's expiry has run). */
  windowClosed(r: BankRecurrence): boolean {
    return r.status === 'PENDING' && this.clock.today() > r.authorizationDeadline;
  }

  /**
   * The bank's id of the recurrence the payer acts on: the id itself on the `service` protocol,
   * and on API Pix, where the bank knows the rec by its idRec, also the service's recurrence id
   * (which the rec carries as `vinculo.contrato`), as a payer's bank finds the authorization the
   * receiver names. Unknown ids stay as given (and are not found).
   */
  private async bankIdOf(recurrenceId: string): Promise<string> {
    if (await this.store.findRecurrence(recurrenceId)) return recurrenceId;
    return (await this.store.recurrenceIdOfContrato(contratoOf(recurrenceId))) ?? recurrenceId;
  }

  async approve(recurrenceId: string): Promise<BankRecurrence> {
    return this.decide(await this.bankIdOf(recurrenceId), 'ACCEPTED', 'RECURRENCE_ACCEPTED');
  }

  async reject(recurrenceId: string): Promise<BankRecurrence> {
    return this.decide(await this.bankIdOf(recurrenceId), 'REJECTED', 'RECURRENCE_REJECTED');
  }

  private async decide(recurrenceId: string, to: string, event: string): Promise<BankRecurrence> {
    const current = await this.get(recurrenceId);
    if (this.windowClosed(current)) throw SandboxErrors.error('authorization_expired', 'The authorization window has closed');
    const r = await this.store.transaction(async (m) => {
      const moved = await this.store.moveRecurrence(m, recurrenceId, to, ['PENDING']);
      if (moved) await this.store.insertEvents(m, variants(event, moved.idTx, this.clock.now().toISOString(), { recurrenceId }));
      return moved;
    });
    if (!r) throw SandboxErrors.error('recurrence_not_pending', `The recurrence is ${(await this.get(recurrenceId)).status}, not PENDING`);
    await this.events.flush();
    return r;
  }

  /** The payer cancels the automatic debit in their bank: open billings are cancelled by the payer too. */
  async payerCancel(id: string): Promise<BankRecurrence> {
    const recurrenceId = await this.bankIdOf(id);
    await this.get(recurrenceId);
    const r = await this.store.transaction(async (m) => {
      const moved = await this.store.moveRecurrence(m, recurrenceId, 'CANCELLED_PAYER', ['ACCEPTED', 'ACTIVE']);
      if (!moved) return null;
      const at = this.clock.now().toISOString();
      const billings = await this.store.closeOpenBillings(m, recurrenceId, 'CANCELLED_PAYER');
      await this.store.insertEvents(m, [
        ...variants('RECURRENCE_CANCELED', moved.idTx, at, { recurrenceId }, 'PAYER'),
        ...billings.flatMap((b) => variants('BILLING_CANCELED_PAYER', b.idTx, at, { recurrenceId, billingId: b.billingId })),
      ]);
      return moved;
    });
    if (!r)
      throw SandboxErrors.error(
        'recurrence_not_cancelable',
        `The recurrence is ${(await this.get(recurrenceId)).status}; only an authorized one can be cancelled`,
      );
    await this.events.flush();
    return r;
  }

  // ---- one day at the bank -----------------------------------------------------------------

  /**
   * Expires authorizations not given in time, activates received billings, settles the ones due
   * by `day` (cents rule), expires recurrences past their term; then delivers the events.
   * Every change is a conditional update, so replicas running it together do each once.
   */
  async processDay(day: string): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.store.transaction(async (m) => {
      const events: BankEvent[] = [];
      for (const r of await this.store.expirePending(m, day))
        events.push(...variants('RECURRENCE_EXPIRED', r.idTx, at, { recurrenceId: r.recurrenceId }));
      for (const b of await this.store.activateReceived(m))
        events.push(...variants('BILLING_ACTIVE', b.idTx, at, { recurrenceId: b.recurrenceId, billingId: b.billingId }));
      const due = await this.store.lockDue(m, day);
      const settled = due.map((b) => ({ b, outcome: settlementOf(b.amountCents ?? 0) }));
      await this.store.settle(
        m,
        settled.map(({ b, outcome }) => ({ idTx: b.idTx, status: outcome })),
      );
      for (const { b, outcome } of settled)
        events.push(...variants(SETTLEMENT_EVENT[outcome], b.idTx, at, { recurrenceId: b.recurrenceId, billingId: b.billingId }));
      for (const r of await this.store.expireEnded(m, day))
        events.push(...variants('RECURRENCE_EXPIRED_END_DATE', r.idTx, at, { recurrenceId: r.recurrenceId }));
      await this.store.insertEvents(m, events);
    });
    await this.events.flush();
  }
}
