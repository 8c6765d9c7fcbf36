import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageOf } from '../../../kernel/platform/pagination/pagination';

export class StoredCardDto {
  @ApiProperty({ example: 'sc_x4Q0yTj9V4s1H2b8w3nKzA' })
  slugStoredCard: string;
  @ApiProperty({ enum: ['VISA', 'MASTERCARD', 'AMEX', 'UNKNOWN'], example: 'VISA' })
  brand: string;
  @ApiProperty({ example: '4111' })
  first4: string;
  @ApiProperty({ example: '1111' })
  last4: string;
  @ApiProperty({ example: '12' })
  expirationMonth: string;
  @ApiProperty({ example: '2030' })
  expirationYear: string;
  @ApiPropertyOptional({ example: 'Work card' })
  nickname?: string;
  @ApiProperty({ example: '2026-11-20T12:00:00Z' })
  createdAt: string;
  @ApiProperty({ description: 'Last tokenization of this card (expiry or nickname refreshed)', example: '2026-11-20T12:00:00Z' })
  updatedAt: string;
}

export class StoredCardPageDto extends PageOf(StoredCardDto) {}
