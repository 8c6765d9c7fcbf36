import { Injectable } from '@nestjs/common';
import { acceptsPayments } from '../domain/link.state-machine';
import { randomUUID } from 'node:crypto';
import { cardBrand, luhnValid, panDigits, validCvv, validExpiry } from '../../../kernel/common/formats/card';
import { toCents } from '../../../kernel/common/formats/money';
import { Clock, saoPauloDate } from '../../../kernel/platform/clock/clock';
import { boletoDueDate } from '../domain/boleto-due-date';
import { simulate } from '../domain/fees';
import { CheckoutPaymentDto } from '../dto/checkout.dto';
import { LinksConfig } from '../links.config';
import { LinkErrors, refusingFees } from '../links.errors';
import { allocatePayment } from '../links/link-settings';
import { Link } from '../links/link.types';
import { LinksRepository } from '../links/links.repository';
import { MerchantsService } from '../merchants/merchants.service';
import { PaymentLedger, unavailable } from './payment-ledger';
import { PaymentItem } from './payment.types';
import { NewPaymentItem } from './payments.repository';
import { CheckedCard, PaymentInstruments } from './payment-instruments';

const DAY = 86_400_000;

function bad(
  code: 'card_invalid' | 'payer_invalid' | 'invalid_amount' | 'method_not_enabled' | 'installments_invalid' | 'fee_invalid',
  field: string,
  message: string,
): never {
  throw LinkErrors.error(code, message, { details: [{ field, message, code }] });
}

/**
 * A payer's attempt on the hosted checkout: checks (card again on the server: Luhn, brand,
 * expiry, CVV), prices it (fees, gross-up, split), holds a use, has PaymentInstruments make the
 * card charge, Pix charge or boleto, and gives the use back if that fails before the item is
 * recorded.
 */
@Injectable()
export class StartPayment {
  constructor(
    private readonly links: LinksRepository,
    private readonly merchants: MerchantsService,
    private readonly ledger: PaymentLedger,
    private readonly instruments: PaymentInstruments,
    private readonly clock: Clock,
    private readonly config: LinksConfig,
  ) {}

  async run(slug: string, dto: CheckoutPaymentDto): Promise<{ link: Link; item: PaymentItem }> {
    const link = await this.links.findBySlug(slug);
    if (!link) throw LinkErrors.error('link_not_found', 'No such payment link');
    if (dto.attemptId) {
      const again = await this.ledger.find(dto.attemptId);
      if (again) return { link, item: this.sameAttempt(again, link, dto) };
    }
    if (!acceptsPayments(link.status)) throw unavailable(link.status);
    if (!link.paymentMethods.includes(dto.method)) bad('method_not_enabled', 'method', `This link does not accept ${dto.method}`);
    const installments = dto.installments ?? 1;
    const maxInstallments = dto.method === 'CARD' ? link.maxInstallments : 1;
    if (installments > maxInstallments)
      bad('installments_invalid', 'installments', `At most ${maxInstallments}x for ${dto.method} on this link`);
    const price = this.price(link, dto.amount);
    if (dto.method === 'BOLETO' && !dto.payer.taxId) bad('payer_invalid', 'payer.taxId', 'A boleto needs the payer’s CPF or CNPJ');
    const card = dto.method === 'CARD' ? this.checkCard(dto) : null;

    const owner = await this.merchants.get(link.tenantId, link.ownerMerchantId);
    const priced = refusingFees('amount', () =>
      simulate({ amountCents: price, method: dto.method, installments, passFee: link.passFee }, this.merchants.feeTable(owner)),
    );
    const splits = allocatePayment(link, owner.id, price, priced.feeCents);
    if (splits.some((s) => s.amountCents < 0))
      bad('fee_invalid', 'amount', 'This amount is too small to cover the fee from the owner’s share');

    const now = this.clock.now();
    const id = dto.attemptId ?? randomUUID();
    const base: NewPaymentItem = {
      id,
      linkId: link.id,
      tenantId: link.tenantId,
      method: dto.method,
      status: 'PENDING',
      amountCents: priced.grossCents,
      feeCents: priced.feeCents,
      netCents: priced.netCents,
      installments,
      payer: { name: dto.payer.name.trim(), email: dto.payer.email, taxId: dto.payer.taxId ?? null },
      instrument: {},
      splits,
      acquirerId: null,
      reason: null,
      paidAt: null,
    };

    if (dto.method === 'CARD') {
      const holdUntil = new Date(now.getTime() + this.config.cardHoldSeconds * 1000);
      await this.ledger.reserve(link.id, id, holdUntil);
      return { link, item: await this.withHold(id, () => this.instruments.card(base, card!, owner.id)) };
    }
    if (dto.method === 'PIX') {
      const cap = link.expiresAt ? Math.floor((link.expiresAt.getTime() - now.getTime()) / 1000) : Infinity;
      const expiresIn = Math.max(60, Math.min(this.config.pixExpiresSeconds, cap));
      const holdUntil = new Date(now.getTime() + (expiresIn + 300) * 1000);
      await this.ledger.reserve(link.id, id, holdUntil);
      return { link, item: await this.withHold(id, () => this.instruments.pix(base, owner.id, expiresIn, holdUntil, owner.name)) };
    }
    const due = boletoDueDate(saoPauloDate(now), this.config.boletoDueBusinessDays, link.expiresAt ? saoPauloDate(link.expiresAt) : null);
    const holdUntil = new Date(Date.parse(`${due}T23:59:59-03:00`) + this.config.boletoHoldGraceDays * DAY);
    await this.ledger.reserve(link.id, id, holdUntil);
    return { link, item: await this.withHold(id, () => this.instruments.boleto(base, owner.id, due, holdUntil)) };
  }

  /**
   * A repeated attemptId (the page retrying a submit) answers the first attempt; the same id with
   * another link, method, installments or amount is a different request: 409 attempt_conflict.
   */
  private sameAttempt(first: PaymentItem, link: Link, dto: CheckoutPaymentDto): PaymentItem {
    const typed = dto.amount === undefined ? null : toCents(dto.amount);
    const firstPrice = first.amountCents - (link.passFee ? first.feeCents : 0);
    const same =
      first.linkId === link.id &&
      first.method === dto.method &&
      first.installments === (dto.installments ?? 1) &&
      (typed === null || link.amountCents !== null || typed === firstPrice);
    if (!same)
      throw LinkErrors.error('attempt_conflict', 'This attemptId was used for another payment; make a new attempt id for a new payment');
    return first;
  }

  /** The attempt gives its held use back if anything goes wrong before the item is recorded. */
  private async withHold<T>(id: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await this.ledger.releaseHold(id).catch(() => undefined);
      throw e;
    }
  }

  private price(link: Link, typed: number | undefined): number {
    if (link.amountCents !== null) {
      if (typed !== undefined && toCents(typed) !== link.amountCents) bad('invalid_amount', 'amount', 'This link has a fixed amount');
      return link.amountCents;
    }
    if (typed === undefined) bad('invalid_amount', 'amount', 'Type the amount to pay');
    const c = toCents(typed);
    if (link.minAmountCents !== null && c < link.minAmountCents)
      bad('invalid_amount', 'amount', `The least amount is ${link.minAmountCents / 100}`);
    if (link.maxAmountCents !== null && c > link.maxAmountCents)
      bad('invalid_amount', 'amount', `The most amount is ${link.maxAmountCents / 100}`);
    return c;
  }

  private checkCard(dto: CheckoutPaymentDto): CheckedCard {
    const c = dto.card;
    if (!c) bad('card_invalid', 'card', 'Card data is required');
    const pan = panDigits(c.number);
    if (!luhnValid(pan)) bad('card_invalid', 'card.number', 'The card number is not valid');
    const brand = cardBrand(pan);
    if (!brand) bad('card_invalid', 'card.number', 'The card brand is not accepted');
    if (!validExpiry(c.expMonth, c.expYear, this.clock.now()))
      bad('card_invalid', 'card.expiry', 'The card is expired or the expiry is not valid');
    if (!validCvv(c.cvv, brand)) bad('card_invalid', 'card.cvv', `The security code must have ${brand === 'amex' ? 4 : 3} digits`);
    return {
      pan,
      brand,
      expMonth: c.expMonth,
      expYear: c.expYear < 100 ? 2000 + c.expYear : c.expYear,
      cvv: c.cvv,
      holderName: c.holderName,
    };
  }
}
