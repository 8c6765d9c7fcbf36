import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import type { CardDisputeStage } from '../../../kernel/common/protocols/acquirer-refunds';
import { PlatformErrors } from '../../../kernel/platform/errors/app-error';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { SandboxEnabledGuard } from '../sandbox-enabled.guard';
import { pspReferenceOf } from './adyen/sandbox-adyen-checkout';
import { DISPUTE_SEQUENCE_NAMES, DISPUTE_SEQUENCES, DisputeSequence, SandboxDisputes } from './sandbox-disputes.service';

export class OpenDisputeDto {
  @ApiPropertyOptional({
    description: "The sandbox acquirer's card transaction id; give exactly one of this, `pspReference` and `paymentReference`",
    example: 'ctx_5f0e3c2a1b9d8e7f6a5b4c3d',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  acquirerTransactionId?: string;

  @ApiPropertyOptional({
    description: "Adyen's pspReference of the payment (a payment made on the Adyen face)",
    example: '8F3A61C0B2D4E597',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  pspReference?: string;

  @ApiPropertyOptional({
    description: "The payment's id in this service (`paymentId`: the acquirer's transactionId or Adyen's merchant reference)",
    example: 'pay_1q2w3e4r5t6y7u8i9o0p',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  paymentReference?: string;

  @ApiProperty({ enum: DISPUTE_SEQUENCE_NAMES, example: 'chargeback_lost', description: 'The sequence of stages to play, one per tick' })
  @IsIn(DISPUTE_SEQUENCE_NAMES)
  sequence: DisputeSequence;
}

export class SandboxDisputeDto {
  @ApiProperty({ example: 'dsp_0a1b2c3d4e5f6a7b8c9d0e1f' })
  disputeId: string;
  @ApiPropertyOptional({ description: "The dispute's pspReference in Adyen's webhooks (Adyen face only)", example: '1B2C3D4E5F6A7B8C' })
  pspReference?: string;
  @ApiProperty({ example: 'ctx_5f0e3c2a1b9d8e7f6a5b4c3d' })
  acquirerTransactionId: string;
  @ApiProperty({ enum: ['generic', 'adyen'], description: 'The face the payment was made on, where the stages are reported' })
  face: 'generic' | 'adyen';
  @ApiProperty({ enum: DISPUTE_SEQUENCE_NAMES, example: 'chargeback_lost' })
  sequence: DisputeSequence;
  @ApiProperty({
    type: [String],
    example: DISPUTE_SEQUENCES.chargeback_lost,
    description: 'The stages, in the order they will be reported',
  })
  stages: CardDisputeStage[];
  @ApiProperty({ example: 150.75, description: 'Disputed amount (BRL): what was still refundable' })
  amount: number;
  @ApiProperty({ example: '10.4', description: "The scheme's reason code (Visa 10.4, Mastercard 4837, Amex F29)" })
  reasonCode: string;
  @ApiProperty({ example: '2026-12-21T15:00:00.000Z', description: 'End of the defence period (test clock)' })
  defendBy: string;
}

const BY = ['acquirerTransactionId', 'pspReference', 'paymentReference'] as const;

/** The sandbox acquirer's chargebacks, played on a card payment as a scheme would. */
@ApiTags('sandbox')
@UseGuards(SandboxEnabledGuard)
@Controller('sandbox/acquirer')
export class SandboxDisputesController {
  constructor(private readonly disputes: SandboxDisputes) {}

  @Post('disputes')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'sandboxOpenDispute',
    summary:
      "Dispute a card payment at the sandbox acquirer: plays the sequence's stages one per tick of the sandbox clock (and per day of the test clock), as Adyen dispute webhooks or `card_dispute.updated` notifications",
  })
  @ApiCreatedResponse({ type: SandboxDisputeDto })
  @ApiErrors(
    400,
    [404, 'acquirer_transaction_not_found', 'No card transaction with this id or reference'],
    [409, 'not_disputable', 'Not captured, voided, or nothing left to dispute'],
  )
  async open(@Body() body: OpenDisputeDto): Promise<SandboxDisputeDto> {
    const named = BY.filter((k) => body[k] !== undefined);
    if (named.length !== 1) {
      const message = 'give exactly one of acquirerTransactionId, pspReference and paymentReference';
      throw PlatformErrors.error('validation_error', message, { details: [{ field: 'acquirerTransactionId', message }] });
    }
    const d = await this.disputes.open({ kind: named[0], value: body[named[0]]! }, body.sequence);
    return {
      disputeId: d.disputeId,
      ...(d.face === 'adyen' ? { pspReference: pspReferenceOf(d.disputeId) } : {}),
      acquirerTransactionId: d.acquirerTransactionId,
      face: d.face,
      sequence: d.sequence,
      stages: d.stages,
      amount: d.amountCents / 100,
      reasonCode: d.reasonCode,
      defendBy: d.defendBy,
    };
  }
}
