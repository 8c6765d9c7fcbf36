import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { NestedObject } from '../../../kernel/common/dto/nested';
import { IsMoney } from '../../../kernel/common/dto/amount';
import { PageOf, PageQueryDto } from '../../../kernel/platform/pagination/pagination';
import { REFUND_REASONS, REFUND_STATUSES, RefundReason, RefundStatus } from '../domain/refund.state-machine';
import { DISPUTE_STATUSES, DisputeStatus } from '../domain/dispute';

export class PayoutDestinationDto {
  @ApiProperty({
    description: "The payer's Pix key the refund is paid out to (CPF/CNPJ digits, e-mail, +55 phone or random key)",
    example: '52998224725',
    maxLength: 77,
  })
  @IsString()
  @MaxLength(77)
  pixKey: string;

  @ApiPropertyOptional({ description: 'The name the key should belong to, for your payout check', example: 'Ana Souza', maxLength: 140 })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  holderName?: string;
}

export class ConfirmPayoutDto {
  @ApiProperty({
    description: "The end-to-end id of the Pix you paid the payer out with (on your bank's receipt)",
    example: 'E9999999920261126120000000000001',
  })
  @Matches(/^[Ee]\d{8}\d{12}[a-zA-Z0-9]{11}$/, {
    message: 'endToEndId must be a Pix end-to-end id (E + 8 digits + 12 digits of date and time + 11 letters or digits)',
  })
  endToEndId: string;
}

export class CreateRefundDto {
  @ApiPropertyOptional({
    description: 'Amount to refund in BRL (currency units, at most 2 decimals); omitted: all that can still be refunded',
    example: 40.5,
  })
  @IsOptional()
  @IsMoney()
  @Min(0.01)
  @Max(10_000_000)
  amount?: number;

  @ApiProperty({ enum: REFUND_REASONS, description: 'Why the money goes back', example: 'requested_by_customer' })
  @IsIn(REFUND_REASONS)
  reason: RefundReason;

  @ApiPropertyOptional({
    type: PayoutDestinationDto,
    description: 'Required for a boleto paid by bank clearing (it has no network refund): where you will pay the payer out',
  })
  @IsOptional()
  @NestedObject(() => PayoutDestinationDto)
  payout?: PayoutDestinationDto;

  @ApiPropertyOptional({
    description: 'Free text for your own records (not sent to the payer)',
    example: 'Pedido 1234 devolvido',
    maxLength: 140,
  })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  description?: string;
}

export class SplitReversalMerchantDto {
  @ApiProperty({ example: 'mer_3f9a1c1e6f7e4b8e' })
  merchantId: string;
  @ApiProperty({ description: 'What this merchant gives back', example: 28.35 })
  amount: number;
}

export class SplitReversalDto {
  @ApiProperty({
    type: [SplitReversalMerchantDto],
    description: "Each merchant's part of the refund, in proportion to its share of the payment",
  })
  merchants: SplitReversalMerchantDto[];
  @ApiProperty({ description: 'What the platform gives back of its fee (0 unless REFUND_PLATFORM_FEE=return)', example: 0 })
  platformFee: number;
}

export class RefundDto {
  @ApiProperty({ example: '0b8f7e0c-5d1e-4a8b-9f3e-2c6d7a1b4e55' })
  refundId: string;
  @ApiProperty({
    description: 'The payment it belongs to (a card payment `pay_…`, a link payment, a billing)',
    example: 'pay_1q2w3e4r5t6y7u8i9o0pAA',
  })
  paymentId: string;
  @ApiProperty({
    enum: ['card_payment', 'link_payment', 'billing'],
    description:
      "The payment's kind: a card payment, a payment on a link (its Pix, or a boleto paid by its Pix QR), a Pix Automático billing",
    example: 'card_payment',
  })
  paymentKind: 'card_payment' | 'link_payment' | 'billing';
  @ApiProperty({
    enum: ['card', 'pix', 'payout'],
    description:
      "How the money goes back: `card` (the acquirer's refund), `pix` (an API Pix devolução of the Pix received) or `payout` (a boleto paid by bank clearing: you pay the payer out and confirm it)",
    example: 'card',
  })
  rail: 'card' | 'pix' | 'payout';
  @ApiProperty({
    enum: ['refund', 'void'],
    description: '`void`: a pre-authorization never captured, released instead of refunded',
    example: 'refund',
  })
  method: 'refund' | 'void';
  @ApiProperty({ example: 40.5 })
  amount: number;
  @ApiProperty({ enum: ['BRL'] })
  currency: 'BRL';
  @ApiProperty({ enum: REFUND_REASONS, example: 'requested_by_customer' })
  reason: RefundReason;
  @ApiPropertyOptional({ example: 'Pedido 1234 devolvido' })
  description?: string;
  @ApiProperty({
    enum: REFUND_STATUSES,
    description:
      'PENDING: sent (or being sent) to the acquirer or PSP (a devolução EM_PROCESSAMENTO); SUCCEEDED: refunded (a devolução DEVOLVIDO); FAILED: it did not (see failureCode); REVERSED: it had succeeded and the acquirer undid it (the money is back with the merchant and can be refunded again)',
    example: 'PENDING',
  })
  status: RefundStatus;
  @ApiPropertyOptional({
    description: "The provider's reference of the refund (Adyen's pspReference; a devolução's rtrId)",
    example: 'QFQTPCQ8HXSKGK82',
  })
  providerReference?: string;
  @ApiPropertyOptional({
    description:
      'Why it failed: `refund_declined` (the acquirer or scheme refused it), `refund_failed_later` (it failed after being reported done), `acquirer_rejected` (the acquirer refused the call); a Pix devolução: `devolucao_nao_realizada` (the PSP reported it NAO_REALIZADO: its motivo in failureReason), `devolucao_exceeds_pix`, `refund_window_closed`, `devolucao_id_reused`, `pix_not_found`, `devolucao_rejected` (the PSP refused the request)',
    example: 'refund_declined',
  })
  failureCode?: string;
  @ApiPropertyOptional({ description: "The provider's own words, as it gave them (a devolução's motivo)", example: 'Refund declined' })
  failureReason?: string;
  @ApiProperty({ example: '2026-11-26T12:00:00Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-26T12:00:01Z' })
  updatedAt: string;
  @ApiPropertyOptional({ example: '2026-11-26T12:00:05Z' })
  succeededAt?: string;
  @ApiPropertyOptional({ example: '2026-11-26T12:00:05Z' })
  failedAt?: string;
  @ApiPropertyOptional({ example: '2026-11-27T09:00:00Z' })
  reversedAt?: string;
  @ApiPropertyOptional({
    description:
      'Rail `payout` (a boleto paid by bank clearing): where you pay the payer out, and the end-to-end id of your Pix once you confirm it',
    example: { pixKey: '52998224725', holderName: 'Ana Souza', endToEndId: 'E9999999920261126120000000000001' },
  })
  payout?: { pixKey: string; holderName?: string; endToEndId?: string };
  @ApiPropertyOptional({
    type: () => SplitReversalDto,
    description: "A link payment's: who gives the refund back (its split's merchants in proportion, the platform's fee as configured)",
  })
  splitReversal?: SplitReversalDto;
}

export class RefundPageDto extends PageOf(RefundDto) {}

export class DisputeDto {
  @ApiProperty({ example: '5d2e8c1a-7b3f-4e9d-a6c0-1f2e3d4c5b6a' })
  disputeId: string;
  @ApiProperty({ example: 'pay_1q2w3e4r5t6y7u8i9o0pAA' })
  paymentId: string;
  @ApiProperty({
    enum: DISPUTE_STATUSES,
    description:
      "Derived from the stages the acquirer reported: INQUIRY (a request for information, no money held), NEEDS_RESPONSE (a chargeback: the amount is held), UNDER_REVIEW (a defence was supplied), WON (reversed in the merchant's favour), LOST",
    example: 'NEEDS_RESPONSE',
  })
  status: DisputeStatus;
  @ApiProperty({ description: "The last stage in the scheme's order (Adyen's event code)", example: 'CHARGEBACK' })
  stage: string;
  @ApiProperty({ description: 'The disputed amount', example: 150.75 })
  amount: number;
  @ApiProperty({ description: 'What the dispute holds from the merchant now (and so from what can be refunded)', example: 150.75 })
  heldAmount: number;
  @ApiProperty({ enum: ['BRL'] })
  currency: 'BRL';
  @ApiPropertyOptional({ description: "The scheme's reason code", example: '10.4' })
  reasonCode?: string;
  @ApiPropertyOptional({
    description: "When the defence period ends (defend it in the acquirer's back office)",
    example: '2026-12-16T00:00:00Z',
  })
  defendBy?: string;
  @ApiProperty({
    description: "Every stage reported, in the scheme's order",
    example: [{ stage: 'NOTIFICATION_OF_CHARGEBACK', at: '2026-11-26T12:00:00Z', amount: 150.75 }],
  })
  stages: { stage: string; at: string; amount: number }[];
  @ApiProperty({ example: '2026-11-26T12:00:00Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-26T12:00:00Z' })
  updatedAt: string;
}

export class DisputePageDto extends PageOf(DisputeDto) {}

export class RefundListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: "Only this payment's", example: 'pay_1q2w3e4r5t6y7u8i9o0pAA' })
  @IsOptional()
  @IsString()
  @MaxLength(80)
  paymentId?: string;
}
