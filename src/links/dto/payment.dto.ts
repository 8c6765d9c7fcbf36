import { PAYMENT_ITEM_STATUSES } from '../domain/payment-item.state-machine';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BOLETO_DUE_DATE_RULE } from '../domain/boleto-due-date';
import { LinkDto } from './link.dto';

export class PayerDto {
  @ApiProperty({ example: 'Ana Souza' })
  name: string;
  @ApiProperty({ example: 'ana@example.com' })
  email: string;
  @ApiProperty({ nullable: true, type: String, example: '52998224725' })
  taxId: string | null;
}

export class PaymentMethodDetailDto {
  @ApiProperty({ enum: ['CARD', 'PIX', 'BOLETO'], example: 'CARD' })
  type: string;
  @ApiPropertyOptional({ description: 'Card', example: 'visa' })
  brand?: string;
  @ApiPropertyOptional({ description: 'Card', example: '1111' })
  last4?: string;
  @ApiPropertyOptional({ description: 'Pix', example: 'Qm3k9TzL0aB7cD1eF2gH3iJ4k' })
  txid?: string;
  @ApiPropertyOptional({ description: 'Pix QR expiry', example: '2026-11-20T12:30:00.000Z' })
  expiresAt?: string;
  @ApiPropertyOptional({ description: 'Boleto', example: 'bol_9a8b7c6d5e4f3a2b1c0d9e8f' })
  boletoId?: string;
  @ApiPropertyOptional({ description: 'Boleto, 47 digits', example: '23791234050900000012312345670000112340000025000' })
  digitableLine?: string;
  @ApiPropertyOptional({ description: `Boleto. ${BOLETO_DUE_DATE_RULE}`, example: '2026-11-25' })
  dueDate?: string;
}

export class AllocationDto {
  @ApiProperty({ example: 'mer_3f9a1c1e6f7e4b8e' })
  merchantId: string;
  @ApiProperty({ description: 'BRL', example: 70.0 })
  amount: number;
}

/** One attempt on a link (spec "Payment item"). */
export class PaymentItemDto {
  @ApiProperty({ description: 'Stable per transaction: state changes update this item', example: '0c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' })
  id: string;
  @ApiProperty({ enum: ['CARD', 'PIX', 'BOLETO'], example: 'CARD' })
  transactionMethod: string;
  @ApiProperty({
    description:
      'CARD: ACCEPTED, CAPTURED, PREAUTH, VOIDED, AUTH_REJECTED, CHALLENGE_REJECTED, SETUP_REJECTED, FAILED; PIX: PENDING, AUTHORIZED, SETTLED, EXPIRED; BOLETO: PENDING, PAID, PAID_PIX, EXPIRED, CANCELED, FAILED',
    enum: [...new Set(Object.values(PAYMENT_ITEM_STATUSES).flat())],
    example: 'ACCEPTED',
  })
  status: string;
  @ApiProperty({ description: 'Paid statuses: ACCEPTED, CAPTURED, PAID, PAID_PIX, AUTHORIZED, SETTLED', example: true })
  paid: boolean;
  @ApiProperty({ description: 'Charged to the payer, BRL', example: 154.49 })
  amount: number;
  @ApiProperty({ description: "The merchant's fee, BRL", example: 4.49 })
  fee: number;
  @ApiProperty({ description: 'Received after fees, BRL', example: 150.0 })
  netAmount: number;
  @ApiProperty({ example: 1 })
  installments: number;
  @ApiProperty({ type: PaymentMethodDetailDto })
  method: PaymentMethodDetailDto;
  @ApiProperty({ type: PayerDto })
  payer: PayerDto;
  @ApiProperty({ type: [AllocationDto], description: 'Split of the net among merchants' })
  splits: AllocationDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Why a card was refused or failed', example: null })
  reason: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-11-20T12:01:00.000Z' })
  paidAt: string | null;
  @ApiPropertyOptional({ description: 'Refunds of this payment, pending or done, BRL (on the link routes)', example: 0 })
  refundedAmount?: number;
  @ApiPropertyOptional({ description: 'Taken back without being asked (a Pix MED devolução), BRL (on the link routes)', example: 0 })
  disputedAmount?: number;
  @ApiPropertyOptional({
    description:
      'What can still be refunded, BRL (on the link routes): a Pix received over API Pix (or a boleto paid by its Pix QR) less refunds and MED; 0 for anything else',
    example: 25.0,
  })
  refundableAmount?: number;
  @ApiProperty({ example: '2026-11-20T12:01:00.000Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-20T12:01:00.000Z' })
  updatedAt: string;
}

export class LinkEventDto {
  @ApiProperty({
    example: 'PAYMENT_STATUS_CHANGED',
    enum: [
      'LINK_CREATED',
      'LINK_UPDATED',
      'LINK_ACTIVATED',
      'LINK_DEACTIVATED',
      'LINK_EXPIRED',
      'LINK_EXHAUSTED',
      'PAYMENT_ATTEMPTED',
      'PAYMENT_STATUS_CHANGED',
    ],
    description: 'What happened to the link or one of its payments',
  })
  type: string;
  @ApiProperty({ nullable: true, type: String, example: '0c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' })
  paymentId: string | null;
  @ApiProperty({ example: { from: 'PENDING', to: 'AUTHORIZED' } })
  data: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-20T12:01:00.000Z' })
  occurredAt: string;
}

export class LinkDetailDto extends LinkDto {
  @ApiProperty({ type: [PaymentItemDto], nullable: true, description: 'null before the first attempt; every attempt, in order' })
  payments: PaymentItemDto[] | null;
  @ApiProperty({ type: [LinkEventDto], description: 'History of the link, oldest first (the latest 200)' })
  events: LinkEventDto[];
}
