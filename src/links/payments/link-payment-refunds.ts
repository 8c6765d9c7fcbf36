import { Injectable } from '@nestjs/common';
import { LinkPaymentRefunds, RefundablePayment } from '../../../kernel/common/contracts/refundable-payments.port';
import { PixDevolucoes } from '../../provider/pix-devolucoes.port';
import { PaymentItem } from './payment.types';
import { PaymentsRepository } from './payments.repository';

/** Paid by a Pix the PSP received: a link's Pix (AUTHORIZED or SETTLED) or a boleto paid by its Pix QR. */
const PAID_BY_PIX: Record<string, readonly string[]> = { PIX: ['AUTHORIZED', 'SETTLED'], BOLETO: ['PAID_PIX'], CARD: [] };
/** Why a Pix the acquirer received cannot be given back, and what to do (the 409's message). */
const PIX_WITHOUT_API_PIX =
  "This Pix was received over the bank edge's own protocol (BANK_PROVIDER=service), which cannot give a Pix back: " +
  'run the service with BANK_PROVIDER=pix-api (what npm start does) to refund Pix by devolução';
/** A link's card payments are sales: accepted (or captured) took the money, refunded at the acquirer. */
const CARD_PAID: readonly string[] = ['ACCEPTED', 'CAPTURED'];

/**
 * Binds the refunds module's `LinkPaymentRefunds`: a link's payments as refunds see them. A payment
 * paid by Pix over API Pix is refundable by devolução of the Pix received, up to its valor (the PSP
 * edge knows its endToEndId and settlement time); a card payment at the acquirer, up to what the
 * payer paid; a boleto paid by bank clearing, by a payout the tenant makes and confirms. A Pix the
 * acquirer received (BANK_PROVIDER=service) is not refundable here.
 */
@Injectable()
export class LinkPaymentRefundsOfLinks extends LinkPaymentRefunds {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly devolucoes: PixDevolucoes,
  ) {
    super();
  }

  async find(tenantId: string | null, paymentId: string, linkId?: string): Promise<RefundablePayment | null> {
    const p = await this.payments.find(paymentId);
    if (!p || (tenantId !== null && p.tenantId !== tenantId) || (linkId !== undefined && p.linkId !== linkId)) return null;
    const receivedPix = !!PAID_BY_PIX[p.method]?.includes(p.status);
    const paidByPix = this.devolucoes.enabled && receivedPix;
    const pix = paidByPix ? await this.devolucoes.receivedFor(p.id) : null;
    const r = refundable(p, paidByPix, pix);
    return receivedPix && !paidByPix ? { ...r, notRefundableBecause: PIX_WITHOUT_API_PIX } : r;
  }
}

/**
 * `paidByPix` with `pix` null: the acquirer reported the boleto paid by its Pix QR (PAID_PIX) before
 * the PSP's callback of that Pix arrived; the payment took money, so a refund is taken and waits
 * PENDING (the refunds job sends its devolução once the Pix, the endToEndId it names, is known).
 */
function refundable(p: PaymentItem, paidByPix: boolean, pix: Awaited<ReturnType<PixDevolucoes['receivedFor']>>): RefundablePayment {
  const card = p.method === 'CARD' && CARD_PAID.includes(p.status) && !!p.acquirerId;
  const byBank = p.method === 'BOLETO' && p.status === 'PAID';
  return {
    kind: 'link_payment',
    rail: p.method === 'CARD' ? 'card' : byBank ? 'payout' : 'pix',
    paymentId: p.id,
    tenantId: p.tenantId,
    parentId: p.linkId,
    state: paidByPix || card || byBank ? 'captured' : 'not_refundable',
    status: p.method === 'BOLETO' && p.status === 'PAID' ? 'PAID (by bank clearing)' : `${p.method} ${p.status}`,
    capCents: pix?.amountCents ?? p.amountCents,
    acquirerTransactionId: card ? p.acquirerId : null,
    pix: pix && { endToEndId: pix.endToEndId, settledAt: pix.settledAt },
    allocation: {
      grossCents: p.amountCents,
      feeCents: p.feeCents,
      splits: p.splits.map((s) => ({ merchantId: s.merchantId, amountCents: s.amountCents })),
    },
  };
}
