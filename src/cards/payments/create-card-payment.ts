import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { CreateCardPaymentDto } from '../dto/card-payment.dto';
import { newId } from '../ids';
import { CardAuthorizer } from './card-authorizer';
import { CardPaymentWriter } from './card-payment-writer';
import { CardPaymentRecord } from './card-payments.repository';
import { PaymentCardResolver } from './payment-card-resolver';
import { StoredCardRecord } from '../vault/stored-cards.repository';
import { PaymentThreeDsCheck, ThreeDsDecision } from './payment-three-ds-check';
import { toCents } from './card-payment.view';
import { transaction } from '../../../kernel/platform/database/sql';

/**
 * POST /v1/acquiring/payments. In one transaction: resolve the card (claiming a single-use
 * token), check the 3DS result, insert the attempt (PROCESSING, or CHALLENGE_REJECTED /
 * SETUP_REJECTED with its webhook when 3DS refused the cardholder). Then, outside any
 * transaction, ask the acquirer and record its answer with the webhook.
 */
@Injectable()
export class CreateCardPayment {
  constructor(
    private readonly ds: DataSource,
    private readonly writer: CardPaymentWriter,
    private readonly cards: PaymentCardResolver,
    private readonly threeDs: PaymentThreeDsCheck,
    private readonly authorizer: CardAuthorizer,
    private readonly clock: Clock,
  ) {}

  async execute(tenantId: string, dto: CreateCardPaymentDto, requestId: string): Promise<CardPaymentRecord> {
    this.cards.assertOne(dto.tokenData);
    const amountCents = toCents(dto.amount);
    const id = newId('pay');
    const slugToken = dto.tokenData.slugToken;
    let decision: ThreeDsDecision | undefined;
    let card: StoredCardRecord | undefined;
    const payment = await transaction(this.ds, async (m) => {
      card = await this.cards.resolve(tenantId, dto.tokenData, m);
      decision = dto.threeDsData ? await this.threeDs.decide(m, tenantId, dto.threeDsData, card, amountCents) : undefined;
      const refused = decision?.refusedAs;
      const rec = await this.writer.insert(
        m,
        {
          id,
          tenantId,
          storedCardId: card.id,
          cardTokenId: slugToken ?? null,
          documentId: dto.documentId ?? null,
          amountCents,
          installments: dto.installments ?? 1,
          captureMode: dto.captureMode ?? 'SALE',
          status: refused ?? 'PROCESSING',
          securityCodePresented: !refused && this.cards.holdsSecurityCode(slugToken),
          threeDsAuthenticationId: decision?.authenticationId ?? null,
          threeDsTransStatus: decision?.transStatus ?? null,
          eci: decision?.eci ?? null,
          reason: refused ? 'three_ds_not_authenticated' : null,
          description: dto.description ?? null,
          requestId,
          now: this.clock.now(),
        },
        tenantId,
      );
      if (decision) await this.threeDs.markUsed(m, decision.authenticationId, id);
      return rec;
    });
    if (payment.status !== 'PROCESSING') return payment;
    // The card number is decrypted only now, outside the transaction, for the acquirer call.
    const charge = this.cards.open(card!, slugToken);
    return this.authorizer.authorize(payment, charge, decision?.acquirerData);
  }
}
