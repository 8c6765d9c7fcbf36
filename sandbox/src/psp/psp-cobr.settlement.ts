import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, DayPassedSignal } from '../../../kernel/platform/clock/clock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { SandboxConfig } from '../sandbox.config';
import { SandboxPspCallbacks } from './psp-cobr.events';
import { Attempt, CobrRow, SandboxCobrStore } from './psp-cobr.store';
import { attemptOutcome, NO_BALANCE, newAttempt, retryPolicyOf } from './psp-cobr.view';

const MAX_RETRIES = 3;
const RETRY_DAYS = 7;

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

function closeAttempt(t: Attempt, status: string, at: string, rejeicao?: Attempt['rejeicao']): Attempt {
  return { ...t, status, atualizacao: [...t.atualizacao, { status, data: at }], ...(rejeicao ? { rejeicao } : {}) };
}

/**
 * A day at the sandbox PSP for cobrs (after the bank's own day run, which activates received
 * billings of both faces): every ATIVA cobr gets its scheduled attempt (AGND, on its due date);
 * attempts due by the day settle by the cents rule (`attemptOutcome`); a failed attempt ends the
 * cobr (REJEITADA) under NAO_PERMITE, and under PERMITE_3R_7D leaves it ATIVA waiting for the
 * receiver's `retentativa` until 3 retries are spent or 7 days have passed since the due date.
 * Every change goes to the outbox, hence to the callbacks. Conditional updates on locked rows:
 * replicas running it together do each change once.
 */
@Injectable()
export class SandboxCobrSettlement implements OnModuleInit {
  constructor(
    private readonly store: SandboxCobrStore,
    private readonly callbacks: SandboxPspCallbacks,
    private readonly config: SandboxConfig,
    private readonly clock: Clock,
    private readonly dayPassed: DayPassedSignal,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    if (!this.config.enabled) return;
    this.dayPassed.subscribe('sandbox.psp-cobr', (day) => this.processDay(day), 21);
    this.jobs.schedule({ name: 'sandbox-psp-cobr', everyMs: this.config.tickMs, run: () => this.processDay(this.clock.today()) });
  }

  async processDay(day: string): Promise<void> {
    const at = this.clock.now().toISOString();
    const changed = await this.store.transaction(async (m) => {
      const out: { txid: string; recurrenceId: string; what: string }[] = [];
      for (const c of await this.store.lockAttemptsDue(m, day)) {
        const r = await this.settle(m, c, day, at);
        if (r) out.push({ txid: c.txid, recurrenceId: c.recurrenceId, what: r });
      }
      for (const c of await this.store.lockAwaitingRetry(m)) {
        const spent = c.tentativas.filter((t) => t.tipo === 'NTAG').length >= MAX_RETRIES || day > addDays(c.dueDate, RETRY_DAYS);
        if (!spent) continue;
        const last = [...c.tentativas].reverse().find((t) => t.rejeicao);
        await this.store.move(m, c.txid, 'REJECTED', ['ACTIVE'], { encerramento: { rejeicao: last?.rejeicao ?? NO_BALANCE } });
        out.push({ txid: c.txid, recurrenceId: c.recurrenceId, what: 'REJEITADA' });
      }
      await this.store.changed(m, out, at);
      return out.length;
    });
    if (changed) this.callbacks.kick();
  }

  /** Settles the attempt due on `c` (creating the scheduled one first); what changed, or null. */
  private async settle(m: Parameters<SandboxCobrStore['move']>[0], c: CobrRow, day: string, at: string): Promise<string | null> {
    const attempts = c.tentativas.some((t) => t.tipo === 'AGND')
      ? [...c.tentativas]
      : [...c.tentativas, newAttempt(c.attemptDate ?? c.dueDate, 'AGND', new Date(at))];
    const i = attempts.findIndex((t) => t.status === 'AGENDADA' && t.dataLiquidacao <= day);
    if (i < 0) {
      await this.store.move(m, c.txid, 'ACTIVE', ['ACTIVE'], {
        tentativas: attempts,
        attemptDate: attempts.find((t) => t.status === 'AGENDADA')?.dataLiquidacao ?? null,
      });
      return null;
    }
    const outcome = attemptOutcome(c.amountCents, attempts[i].tipo);
    switch (outcome) {
      case 'PAGA':
        attempts[i] = closeAttempt(attempts[i], 'PAGA', at);
        if (await this.store.move(m, c.txid, 'COMPLETED', ['ACTIVE'], { tentativas: attempts, attemptDate: null }))
          await this.store.recordPaidPix(m, { endToEndId: attempts[i].endToEndId, txid: c.txid, amountCents: c.amountCents, at });
        return 'CONCLUIDA';
      case 'EXPIRADA':
        attempts[i] = closeAttempt(attempts[i], 'EXPIRADA', at);
        await this.store.move(m, c.txid, 'EXPIRED', ['ACTIVE'], { tentativas: attempts, attemptDate: null });
        return 'EXPIRADA';
      case 'CANCELLED_PAYER':
        attempts[i] = closeAttempt(attempts[i], 'CANCELADA', at);
        await this.store.move(m, c.txid, 'CANCELLED_PAYER', ['ACTIVE'], {
          tentativas: attempts,
          attemptDate: null,
          encerramento: {
            cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLBD', descricao: 'Cancelamento solicitado pelo usuário pagador' },
          },
        });
        return 'CANCELADA';
      case 'NO_BALANCE': {
        attempts[i] = closeAttempt(attempts[i], 'REJEITADA', at, NO_BALANCE);
        if (retryPolicyOf(c.idRec) === 'NAO_PERMITE') {
          await this.store.move(m, c.txid, 'REJECTED', ['ACTIVE'], {
            tentativas: attempts,
            attemptDate: null,
            encerramento: { rejeicao: NO_BALANCE },
          });
          return 'REJEITADA';
        }
        // Stays ATIVA: the receiver may ask for a retry (the callback tells it the attempt failed).
        await this.store.move(m, c.txid, 'ACTIVE', ['ACTIVE'], { tentativas: attempts, attemptDate: null });
        return 'TENTATIVA_REJEITADA';
      }
    }
  }
}
