import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RefundablePayment } from '../../../kernel/common/contracts/refundable-payments.port';
import { Clock } from '../../../kernel/platform/clock/clock';
import { transaction } from '../../../kernel/platform/database/sql';
import { Devolucao, PixDevolucaoEvents, PixDevolucoesReport } from '../../provider/pix-devolucoes.port';
import { medCaseView } from '../med-case.view';
import { MedCasesRepository } from '../med-cases.repository';
import { PaymentsOf } from '../payments-of';
import { RefundEvents } from '../refund-events';
import { RefundsRepository } from '../refunds.repository';
import { RefundRails, refundIdOf } from './refund-rails';

const MED = new Set(['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO']);

/**
 * A MED case: a devolução the payer's side started (natureza MED_*), recorded against the Pix it
 * returns, with what it takes from the payment's balance and the `acquiring.med_case` webhook,
 * in one transaction. A repeat of the same state changes nothing.
 */
@Injectable()
export class ApplyMedCase {
  constructor(
    private readonly ds: DataSource,
    private readonly cases: MedCasesRepository,
    private readonly events: RefundEvents,
    private readonly clock: Clock,
  ) {}

  apply(p: RefundablePayment, endToEndId: string, d: Devolucao): Promise<boolean> {
    return transaction(this.ds, async (tx) => {
      const before = await this.cases.lock(tx, p, endToEndId, d.id);
      if (before && before.status === d.status) return false;
      const now = this.clock.now();
      const after = await this.cases.save(tx, p, before, endToEndId, d, before?.id ?? randomUUID(), now);
      await this.events.medCaseChanged(tx, p.tenantId, medCaseView(after), now);
      return true;
    });
  }
}

/**
 * The devoluções the PSP reports on a received Pix (its callbacks, read back by the API Pix edge):
 * ours (natureza ORIGINAL, `{id}` a refund id without dashes) settle their refund (DEVOLVIDO →
 * SUCCEEDED, NAO_REALIZADO → FAILED `devolucao_nao_realizada` with the PSP's motivo); MED ones
 * become MED cases against the payment the Pix paid.
 */
@Injectable()
export class ApplyPixDevolucoes implements OnModuleInit {
  private readonly logger = new Logger('Refunds');

  constructor(
    private readonly pixEvents: PixDevolucaoEvents,
    private readonly refunds: RefundsRepository,
    private readonly rails: RefundRails,
    private readonly payments: PaymentsOf,
    private readonly med: ApplyMedCase,
  ) {}

  onModuleInit(): void {
    this.pixEvents.subscribe((r) => this.apply(r));
  }

  async apply(report: PixDevolucoesReport): Promise<void> {
    let payment: RefundablePayment | null | undefined;
    for (const d of report.devolucoes) {
      if (MED.has(d.natureza)) {
        payment ??= await this.payments.ofPix(report.transactionId, report.endToEndId);
        if (payment) await this.med.apply(payment, report.endToEndId, d);
        else this.logger.warn({ endToEndId: report.endToEndId, devolucaoId: d.id }, 'a MED devolução of a Pix no payment of ours received');
        continue;
      }
      const refundId = refundIdOf(d.id);
      const refund = refundId ? await this.refunds.get(refundId) : null;
      if (refund?.rail === 'pix' && refund.status === 'PENDING') await this.rails.applyDevolucao(refund.id, d);
      else if (!refund)
        this.logger.warn({ endToEndId: report.endToEndId, devolucaoId: d.id }, 'a devolução we did not ask for and not MED');
    }
  }
}
