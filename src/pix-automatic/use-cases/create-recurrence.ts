import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { BankProvider } from '../../provider/bank/bank-provider.port';
import { DayAdjustment } from '../domain/calendar';
import { CreateRecurrenceDto, RecurrenceCreatedDto } from '../dto/recurrence.dto';
import { sendDateOfCycle } from '../engine/schedule';
import { newIdTx } from '../id-tx';
import { PixAutomaticErrors } from '../pix-automatic.errors';
import { PixAutomaticConfig } from '../pix-automatic.config';
import { providerFailure } from '../provider-errors';
import { RecurrencesRepository } from '../recurrences.repository';
import { toCents } from '../sql';
import { TenantNames } from '../tenant-names';

/**
 * Creates a recurrence: the provider first (it answers the authorization URL), then our row.
 * A provider failure leaves nothing behind on our side.
 */
@Injectable()
export class CreateRecurrence {
  private readonly logger = new Logger('CreateRecurrence');

  constructor(
    private readonly recurrences: RecurrencesRepository,
    private readonly provider: BankProvider,
    private readonly names: TenantNames,
    private readonly config: PixAutomaticConfig,
  ) {}

  async execute(t: TenantContext, dto: CreateRecurrenceDto): Promise<RecurrenceCreatedDto> {
    const id = randomUUID();
    const idTx = newIdTx('RR');
    const amountCents = toCents(dto.amount);
    const dayAdjustment = dto.dayAdjustment ?? DayAdjustment.MOVE_FORWARD_NEXT_BUSINESS_DAY;
    const expirationDate = dto.expirationDate ?? null;
    const description = dto.description ?? null;
    if (!this.provider.supportsPeriodicity(dto.periodicity)) {
      throw PixAutomaticErrors.error(
        'periodicity_not_supported',
        `The bank provider (${this.provider.name}) has no ${dto.periodicity} periodicity: API Pix has WEEKLY, MONTHLY, QUARTERLY, BIANNUAL and ANNUAL only`,
        {
          details: [
            {
              field: 'periodicity',
              code: 'periodicity_not_supported',
              message: `${dto.periodicity} is not offered by the ${this.provider.name} provider`,
            },
          ],
        },
      );
    }
    if (dto.payerBankAccount && !this.provider.supportsPushAuthorization()) {
      throw PixAutomaticErrors.error(
        'push_authorization_not_supported',
        `The bank provider (${this.provider.name}) cannot push the authorization to the payer's bank: leave payerBankAccount out and show authorizationUrl`,
        {
          details: [
            {
              field: 'payerBankAccount',
              code: 'push_authorization_not_supported',
              message: `not offered by the ${this.provider.name} provider`,
            },
          ],
        },
      );
    }
    let created;
    try {
      created = await this.provider.createRecurrence({
        recurrenceId: id,
        idTx,
        receiver: { id: t.tenantId, name: await this.names.nameOf(t.tenantId) },
        amountCents,
        currency: 'BRL',
        periodicity: dto.periodicity,
        firstDueDate: dto.firstDueDate,
        expirationDate,
        dayAdjustment,
        payerName: dto.payerName,
        payerTaxId: dto.payerTaxId,
        description,
        ...(dto.payerBankAccount
          ? {
              payerBankAccount: {
                ispb: dto.payerBankAccount.ispb,
                account: dto.payerBankAccount.account,
                ...(dto.payerBankAccount.branch ? { branch: dto.payerBankAccount.branch } : {}),
              },
            }
          : {}),
      });
    } catch (e) {
      throw providerFailure(e);
    }
    const schedule = { firstDueDate: dto.firstDueDate, periodicity: dto.periodicity, dayAdjustment, expirationDate };
    try {
      const r = await this.recurrences.insert({
        id,
        tenantId: t.tenantId,
        idTx,
        amountCents,
        currency: 'BRL',
        ...schedule,
        payerName: dto.payerName,
        payerTaxId: dto.payerTaxId,
        description,
        authorizationUrl: created.authorizationUrl,
        nextSendDate: sendDateOfCycle(schedule, 0, this.config.leadDays),
        idRec: created.providerRef ?? null,
      });
      return { recurrenceId: r.id, status: r.status, authorizationUrl: r.authorizationUrl };
    } catch (e) {
      // The provider holds a recurrence we could not store: withdraw it so the payer never sees it.
      this.provider
        .cancelRecurrence(id)
        .catch((err) => this.logger.warn(`could not withdraw recurrence ${id} at the provider: ${err?.message}`));
      throw e;
    }
  }
}
