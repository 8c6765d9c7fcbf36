import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { SandboxAcquirerConfig } from '../acquirer/sandbox-acquirer.config';
import { SandboxConfig } from '../sandbox.config';
import { PspPixCallbacks } from './psp-pix.callbacks';
import { PspDevolucaoStore } from './psp-devolucao.store';
import { MED_FOR, MedNatureza, newMedId, newRtrId, NOT_DONE_MOTIVO, PspDevolucao } from './psp-devolucao.view';
import { SandboxPspErrors } from './sandbox-psp.errors';

/**
 * Where devoluções move at the sandbox PSP: each tick (SANDBOX_ACQUIRER_TICK_MS, and each day of
 * the test clock) settles those whose ticks are spent, and a devolução the payer's side started
 * (MED) is injected already DEVOLVIDO. Either way the Pix's callback is queued in the same
 * transaction and posted after commit, with the Pix and all its devoluções (the tick retries it).
 */
@Injectable()
export class PspDevolucaoSettlement implements OnApplicationBootstrap {
  constructor(
    private readonly store: PspDevolucaoStore,
    private readonly callbacks: PspPixCallbacks,
    private readonly clock: Clock,
    private readonly jobs: PeriodicJobs,
    private readonly sandbox: SandboxConfig,
    private readonly acquirer: SandboxAcquirerConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.sandbox.enabled) return;
    this.jobs.schedule({ name: 'sandbox-psp-devolucoes', everyMs: this.acquirer.tickMs, run: () => this.tick() });
  }

  /** One tick of the sandbox PSP for devoluções; answers how many Pix had one settle. */
  async tick(): Promise<number> {
    const ids = await this.store.transaction(async (m) => {
      const settled = await this.store.tick(m, this.clock.now(), NOT_DONE_MOTIVO);
      return this.store.queueCallbacks(m, settled);
    });
    await this.post(ids);
    return ids.length;
  }

  /** A MED devolução of `e2eid`: the receiver did not ask for it; DEVOLVIDO at once, its callback sent. */
  async injectMed(e2eid: string, med: { cents: number; natureza: MedNatureza; descricao: string | null }): Promise<PspDevolucao> {
    const now = this.clock.now();
    const { made, ids } = await this.store.transaction(async (m) => {
      const pix = await this.store.lockPix(m, e2eid);
      if (!pix) throw SandboxPspErrors.error('sandbox_pix_not_found', 'The sandbox PSP received no Pix with this endToEndId');
      if (!MED_FOR[pix.origin].includes(med.natureza))
        throw SandboxPspErrors.error(
          'med_natureza_not_allowed',
          `A ${pix.origin === 'cobr' ? 'Pix Automático payment' : 'Pix comum'} is returned by MED only as ${MED_FOR[pix.origin].join(' or ')}`,
        );
      if ((await this.store.takenCents(m, e2eid)) + med.cents > pix.amountCents)
        throw SandboxPspErrors.error('devolucao_over_pix', 'With the devoluções already made it would return more than the Pix received');
      const d = await this.store.insert(m, {
        endToEndId: e2eid,
        id: newMedId(),
        rtrId: newRtrId(now),
        amountCents: med.cents,
        natureza: med.natureza,
        descricao: med.descricao,
        requestHash: null,
        status: 'DEVOLVIDO',
        outcome: 'DEVOLVIDO',
        motivo: null,
        ticksLeft: 0,
        at: now,
      });
      return { made: d, ids: await this.store.queueCallbacks(m, [e2eid]) };
    });
    await this.post(ids);
    return made;
  }

  private async post(ids: string[]): Promise<void> {
    for (const id of ids) await this.callbacks.deliverOne(id);
  }
}
