import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BOLETO_DUE_DATE_RULE } from '../domain/boleto-due-date';

import { IsEmail, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { NestedObject } from '../../../kernel/common/dto/nested';
import { PositiveAmount } from '../../../kernel/common/dto/amount';
import { IsTaxId } from '../../../kernel/common/tax-id';
import { FeeOptionDto } from './fees.dto';

export class CheckoutPayerDto {
  @ApiProperty({ example: 'Ana Souza' })
  @IsString()
  @Length(2, 100)
  name: string;

  @ApiProperty({ example: 'ana@example.com' })
  @IsEmail()
  @MaxLength(200)
  email: string;

  @ApiPropertyOptional({ description: 'CPF or CNPJ, digits only; required for boleto', example: '52998224725' })
  @IsOptional()
  @IsTaxId()
  taxId?: string;
}

export class CheckoutCardDto {
  @ApiProperty({ example: '4111111111111111' })
  @IsString()
  @Matches(/^[\d -]{12,23}$/, { message: 'card.number must be 12 to 19 digits' })
  number: string;

  @ApiProperty({ example: 12 })
  @IsInt()
  @Min(1)
  @Max(12)
  expMonth: number;

  @ApiProperty({ example: 2030, description: '2 or 4 digits' })
  @IsInt()
  @Min(0)
  @Max(9999)
  expYear: number;

  @ApiProperty({ example: '123' })
  @IsString()
  @Matches(/^\d{3,4}$/, { message: 'card.cvv must be 3 or 4 digits' })
  cvv: string;

  @ApiProperty({ example: 'ANA SOUZA' })
  @IsString()
  @Length(2, 100)
  holderName: string;
}

/** A payer's attempt from the hosted checkout. */
export class CheckoutPaymentDto {
  @ApiPropertyOptional({
    description: 'Made by the page per submit: a repeat with the same id answers the same attempt',
    example: '0c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  })
  @IsOptional()
  @IsUUID()
  attemptId?: string;

  @ApiProperty({ enum: ['CARD', 'PIX', 'BOLETO'] })
  @IsIn(['CARD', 'PIX', 'BOLETO'])
  method: 'CARD' | 'PIX' | 'BOLETO';

  @PositiveAmount({ description: 'Open-amount links only, BRL', example: 50.0 }, { optional: true })
  amount?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 12, default: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  installments?: number;

  @ApiProperty({ type: CheckoutPayerDto })
  @NestedObject(() => CheckoutPayerDto)
  payer: CheckoutPayerDto;

  @ApiPropertyOptional({ type: CheckoutCardDto })
  @IsOptional()
  @NestedObject(() => CheckoutCardDto)
  card?: CheckoutCardDto;
}

export class QuoteDto {
  @PositiveAmount({ example: 50.0 })
  amount: number;
}

export class CheckoutPixDto {
  @ApiProperty({ example: 'Qm3k9TzL0aB7cD1eF2gH3iJ4k' })
  txid: string;
  @ApiProperty({ description: 'BR Code ("Pix copia e cola")', example: '00020101021226580014br.gov.bcb.pix0136…6304ABCD' })
  brCode: string;
  @ApiProperty({ description: 'QR code of the BR Code, PNG data URL', example: 'data:image/png;base64,iVBORw0KGgo…' })
  qrCode: string;
  @ApiProperty({ example: '2026-11-20T12:30:00.000Z' })
  expiresAt: string;
  @ApiProperty({
    description:
      "The service's time when it answered, on the clock `expiresAt` is on (in sandbox mode the test clock, which may be days ahead of real time): count down from it, not from the payer's clock",
    example: '2026-11-20T12:00:00.000Z',
  })
  serverNow: string;
  @ApiPropertyOptional({
    description: 'Sandbox only: the page where the sandbox bank pays it',
    example: '/sandbox/pix/Qm3k9TzL0aB7cD1eF2gH3iJ4k',
  })
  bankAppUrl?: string;
}

export class CheckoutBoletoDto {
  @ApiProperty({ example: 'bol_9a8b7c6d5e4f3a2b1c0d9e8f' })
  boletoId: string;
  @ApiProperty({ example: '23791234050900000012312345670000112340000025000' })
  digitableLine: string;
  @ApiProperty({ example: '23791.23405 09000.000123 12345.670000 1 12340000025000' })
  formattedLine: string;
  @ApiProperty({ description: BOLETO_DUE_DATE_RULE, example: '2026-11-25' })
  dueDate: string;
  @ApiProperty({ description: 'ITF barcode, SVG', example: '/checkout/q7Xk2mP9aZ/payments/0c9d…/barcode.svg' })
  barcodeUrl: string;
  @ApiProperty({ description: 'Printable boleto page', example: '/checkout/q7Xk2mP9aZ/payments/0c9d…/boleto' })
  printUrl: string;
  @ApiPropertyOptional({
    description: "The acquirer's own printable boleto, when it gives one (Adyen's voucher download link)",
    example: 'https://test.adyen.com/hpp/generationBoleto.shtml?data=BQABAQ…',
  })
  downloadUrl?: string;
  @ApiPropertyOptional({ example: '/sandbox/boletos/bol_9a8b7c6d5e4f3a2b1c0d9e8f' })
  bankAppUrl?: string;
}

/** An attempt as the checkout page sees it. */
export class CheckoutPaymentViewDto {
  @ApiProperty({ example: '0c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' })
  paymentId: string;
  @ApiProperty({ example: 'PENDING' })
  status: string;
  @ApiProperty({ example: false })
  paid: boolean;
  @ApiProperty({ description: 'Still waiting for the payer (Pix or boleto unpaid)', example: true })
  pending: boolean;
  @ApiProperty({ enum: ['CARD', 'PIX', 'BOLETO'], example: 'PIX' })
  method: string;
  @ApiProperty({ example: 151.5 })
  amount: number;
  @ApiProperty({ example: 1 })
  installments: number;
  @ApiProperty({ nullable: true, type: String, example: null })
  reason: string | null;
  @ApiProperty({ example: '/checkout/q7Xk2mP9aZ/payments/0c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f/receipt' })
  receiptUrl: string;
  @ApiPropertyOptional({ type: CheckoutPixDto, description: 'On the answer to a Pix attempt' })
  pix?: CheckoutPixDto;
  @ApiPropertyOptional({ type: CheckoutBoletoDto, description: 'On the answer to a boleto attempt' })
  boleto?: CheckoutBoletoDto;
}

export class QuoteResultDto {
  @ApiProperty({ example: 50.0 })
  amount: number;
  @ApiProperty({ type: [FeeOptionDto] })
  options: FeeOptionDto[];
}
