import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsTaxId } from '../../../kernel/common/tax-id';

export class CreateCardSessionDto {
  @ApiProperty({
    description:
      "CPF (11 digits) or CNPJ (14 digits) of the merchant that owns the session (not the cardholder's); digits only, check digits verified",
    example: '11222333000181',
  })
  @IsTaxId()
  documentId: string;

  @ApiPropertyOptional({
    description:
      'Beyond the spec, optional: origin of the web page that frames the hosted page and receives its messages. Must be one of the ' +
      "tenant's frameAncestors (PUT /v1/acquiring/card-settings). Default: the only frame ancestor when exactly one is configured. " +
      'Not needed for the React Native component.',
    example: 'https://shop.example.com',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  parentOrigin?: string;
}

export class CardSessionDto {
  @ApiProperty({ example: 'hcs_Vb1m8cQ2nZ0yXk4Ww7tLpA' })
  hostedCardSessionId: string;
  @ApiProperty({
    description: 'Hosted card page; short-lived, single use, one per attempt',
    example: 'https://cards.example.com/hosted-card/hcs_Vb1m8cQ2nZ0yXk4Ww7tLpA?key=Jk2…',
  })
  hostedCardUrl: string;
  @ApiProperty({ description: 'Creation time plus 15 minutes, RFC 3339 UTC', example: '2026-11-20T12:15:00Z' })
  expiresAt: string;
}
