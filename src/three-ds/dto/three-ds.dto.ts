import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsMoney } from '../../../kernel/common/dto/amount';
import { IsTaxId } from '../../../kernel/common/tax-id';

/** EMV 3DS transType by name. */
export const TRANSACTION_TYPES = {
  PURCHASE: '01',
  CHECK_ACCEPTANCE: '03',
  ACCOUNT_FUNDING: '10',
  QUASI_CASH: '11',
  PREPAID_ACTIVATION: '28',
} as const;
/** EMV 3DS deviceChannel by name. */
export const DEVICE_CHANNELS = { SDK: '01', BROWSER: '02', '3RI': '03' } as const;

export class InitializePaymentDto {
  @ApiProperty({
    description: 'Amount in BRL (currency units, at most 2 decimals) to authenticate; the payment must use the same amount',
    example: 150.75,
  })
  @IsMoney()
  @Min(0.01)
  @Max(10_000_000)
  amount: number;

  @ApiPropertyOptional({ enum: ['BRL'], default: 'BRL' })
  @IsOptional()
  @IsIn(['BRL'])
  currency?: 'BRL';

  @ApiProperty({ description: 'Merchant CPF or CNPJ, digits only', example: '11222333000181' })
  @IsTaxId()
  documentId: string;
}

export class InitializePaymentResultDto {
  @ApiProperty({
    description: 'Token for the 3DS setup, authenticate and challenge-result calls',
    example: 'b3J0aGFuay15b3Utd2lsbC1uZXZlci1ndWVzcy10aGlz',
  })
  token: string;
  @ApiProperty({ example: '2026-11-20T12:30:00Z' })
  expiresAt: string;
}

export class CardReferenceFields {
  @ApiPropertyOptional({
    description: 'Full card number (one of cardNumber, storedCardSlug, transactionTokenSlug)',
    example: '4000000000002701',
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  cardNumber?: string;

  @ApiPropertyOptional({ description: 'slugStoredCard from tokenization', example: 'sc_x4Q0yTj9V4s1H2b8w3nKzA' })
  @IsOptional()
  @IsString()
  @MaxLength(80)
  storedCardSlug?: string;

  @ApiPropertyOptional({ description: 'slugToken from tokenization (not consumed by 3DS)', example: 'tk_pZ3n1K0bq9d2mY7rV5cXwg' })
  @IsOptional()
  @IsString()
  @MaxLength(80)
  transactionTokenSlug?: string;
}

export class ThreeDsSetupDto extends CardReferenceFields {
  @ApiProperty({ description: 'Token from POST /v1/acquiring/payments/initialize' })
  @IsString()
  @MaxLength(200)
  token: string;
}

export class ThreeDsSetupResultDto {
  @ApiProperty({
    description: 'Reference of this 3DS transaction; pass it to authenticate',
    example: '0f0e8c1e-2b1a-4c55-9d1e-9a8f6b1d2c3e',
  })
  referenceId: string;
  @ApiProperty({
    description:
      'Load it in a hidden iframe (POST form field JWT=accessToken, or GET) before authenticate; it posts `{"messageType":"profile.completed"}` to its parent when done',
    example: 'https://api.example.com/sandbox/three-ds/ddc?referenceId=0f0e8c1e-2b1a-4c55-9d1e-9a8f6b1d2c3e',
  })
  deviceDataCollectionUrl: string;
  @ApiProperty({
    description: 'JWT for the device data collection form',
    example: 'eyJhbGciOiJIUzI1NiJ9.eyJyZWZlcmVuY2VJZCI6Ii4uLiJ9.c2lnbmF0dXJl',
  })
  accessToken: string;
}

export class AmountDetailsDto {
  @ApiProperty({
    description: 'Decimal amount, equal to the initialized amount',
    example: '150.75',
    oneOf: [{ type: 'string' }, { type: 'number' }],
  })
  @IsDefined()
  totalAmount: string | number;

  @ApiProperty({ enum: ['BRL'], example: 'BRL' })
  @IsIn(['BRL'])
  currency: string;
}

export class OrderInformationDto {
  @ApiProperty({ type: AmountDetailsDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => AmountDetailsDto)
  amountDetails: AmountDetailsDto;

  @ApiPropertyOptional({
    description: 'Billing address (free form, as CyberSource billTo)',
    example: { country: 'BR', locality: 'São Paulo' },
  })
  @IsOptional()
  @IsObject()
  billTo?: Record<string, unknown>;
}

export class BuyerInformationDto {
  @ApiPropertyOptional({ example: 'ana@example.com' })
  @IsOptional()
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({ example: '5511999990000' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  mobilePhone?: string;

  @ApiPropertyOptional({ example: 'customer-42' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  merchantCustomerId?: string;
}

export class DeviceInformationDto {
  @ApiPropertyOptional({ example: '198.51.100.7' })
  @IsOptional()
  @IsString()
  @MaxLength(45)
  ipAddress?: string;

  @ApiPropertyOptional({ description: 'Required for the BROWSER channel', example: 'Mozilla/5.0 (X11; Linux x86_64)' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  userAgentBrowserValue?: string;

  @ApiPropertyOptional({ example: 'text/html,application/xhtml+xml' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  httpAcceptBrowserValue?: string;

  @ApiPropertyOptional({ example: 'pt-BR' })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  httpBrowserLanguage?: string;

  @ApiPropertyOptional({ example: false })
  @IsOptional()
  @IsBoolean()
  httpBrowserJavaEnabled?: boolean;

  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  httpBrowserJavaScriptEnabled?: boolean;

  @ApiPropertyOptional({ example: 24 })
  @IsOptional()
  @IsInt()
  httpBrowserColorDepth?: number;

  @ApiPropertyOptional({ example: 900 })
  @IsOptional()
  @IsInt()
  httpBrowserScreenHeight?: number;

  @ApiPropertyOptional({ example: 1440 })
  @IsOptional()
  @IsInt()
  httpBrowserScreenWidth?: number;

  @ApiPropertyOptional({ description: 'Minutes between UTC and the browser time', example: 180 })
  @IsOptional()
  @IsInt()
  httpBrowserTimeDifference?: number;
}

export class ThreeDsAuthenticateDto extends CardReferenceFields {
  @ApiProperty({ description: 'Token from POST /v1/acquiring/payments/initialize' })
  @IsString()
  @MaxLength(200)
  token: string;

  @ApiProperty({ description: 'Merchant CPF or CNPJ, digits only (the one given to initialize)', example: '11222333000181' })
  @IsTaxId()
  documentId: string;

  @ApiPropertyOptional({ description: 'Card expiry month (with cardNumber)', example: '12' })
  @IsOptional()
  @IsString()
  @Matches(/^(0?[1-9]|1[0-2])$/)
  expirationMonth?: string;

  @ApiPropertyOptional({ description: 'Card expiry year (with cardNumber)', example: '2030' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{4}$/)
  expirationYear?: string;

  @ApiPropertyOptional({ description: 'Cardholder name as on the card', example: 'ANA SOUZA' })
  @IsOptional()
  @IsString()
  @MaxLength(45)
  cardHolderName?: string;

  @ApiProperty({
    description: 'Unique id of this 3DS request, made by the client; repeating it replays the answer',
    example: 'order-1234-3ds-1',
  })
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/)
  requestId: string;

  @ApiProperty({ description: 'referenceId answered by the 3DS setup', example: '0f0e8c1e-2b1a-4c55-9d1e-9a8f6b1d2c3e' })
  @IsString()
  @MaxLength(64)
  referenceId: string;

  @ApiProperty({ enum: Object.keys(TRANSACTION_TYPES), description: 'EMV 3DS transaction type (01, 03, 10, 11, 28)', example: 'PURCHASE' })
  @IsIn(Object.keys(TRANSACTION_TYPES))
  transactionType: keyof typeof TRANSACTION_TYPES;

  @ApiProperty({ enum: Object.keys(DEVICE_CHANNELS), example: 'BROWSER' })
  @IsIn(Object.keys(DEVICE_CHANNELS))
  deviceChannel: keyof typeof DEVICE_CHANNELS;

  @ApiProperty({
    description:
      "Your page after the challenge: the challenge-result page posts its message to this URL's origin when framed, or navigates here when not (https; http only for localhost)",
    example: 'https://shop.example.com/checkout/3ds-done',
  })
  @IsString()
  @MaxLength(2048)
  returnUrl: string;

  @ApiPropertyOptional({ example: 'https://shop.example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  merchantUrl?: string;

  @ApiPropertyOptional({
    description: 'CyberSource transaction mode: S e-commerce, M MOTO, R retail, P mobile, T tablet',
    enum: ['S', 'M', 'R', 'P', 'T'],
    example: 'S',
  })
  @IsOptional()
  @IsIn(['S', 'M', 'R', 'P', 'T'])
  transactionMode?: string;

  @ApiPropertyOptional({
    description: 'Challenge window: 01 250x400, 02 390x400, 03 500x600, 04 600x400, 05 full page',
    enum: ['01', '02', '03', '04', '05'],
    example: '02',
  })
  @IsOptional()
  @IsIn(['01', '02', '03', '04', '05'])
  acsWindowSize?: string;

  @ApiProperty({ type: OrderInformationDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => OrderInformationDto)
  orderInformation: OrderInformationDto;

  @ApiPropertyOptional({ type: BuyerInformationDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => BuyerInformationDto)
  buyerInformation?: BuyerInformationDto;

  @ApiProperty({ type: DeviceInformationDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => DeviceInformationDto)
  deviceInformation: DeviceInformationDto;
}

export class ThreeDsResultDto {
  @ApiProperty({
    enum: ['FRICTIONLESS', 'CHALLENGE', 'AUTHENTICATED', 'REJECTED', 'CHALLENGE_FAILED', 'UNAVAILABLE'],
    description:
      'FRICTIONLESS: authenticated without challenge (put cavv, eci, dsTransactionId in threeDsData). CHALLENGE: show challengeUrl, then call challenge-result. ' +
      'AUTHENTICATED: challenge passed. REJECTED / CHALLENGE_FAILED: not authenticated. UNAVAILABLE: authentication not available (may proceed without liability shift).',
    example: 'FRICTIONLESS',
  })
  status: string;
  @ApiProperty({ enum: ['Y', 'N', 'U', 'C'], example: 'Y' })
  transStatus: string;
  @ApiPropertyOptional({ example: '05' })
  eci?: string;
  @ApiPropertyOptional({ example: 'AAABBZEEBgAAAAAAAAQGAAAAAAA=' })
  cavv?: string;
  @ApiProperty({ example: '3b2a6a4e-7a3b-4d8e-9f11-0c2d6a1b9e77' })
  dsTransactionId: string;
  @ApiPropertyOptional({
    description: 'Frame it (size per acsWindowSize) when status is CHALLENGE',
    example: 'https://api.example.com/sandbox/three-ds/challenge/acs_x',
  })
  challengeUrl?: string;
  @ApiProperty({ example: true })
  liabilityShift: boolean;
  @ApiProperty({ example: '0f0e8c1e-2b1a-4c55-9d1e-9a8f6b1d2c3e' })
  referenceId: string;
  @ApiProperty({ example: 'order-1234-3ds-1' })
  requestId: string;
}

export class ChallengeResultDto {
  @ApiPropertyOptional({ description: 'JSON call: token from initialize' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;

  @ApiPropertyOptional({ description: 'JSON call: referenceId of the authentication' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  referenceId?: string;

  @ApiPropertyOptional({ description: 'Form post from the ACS (browser): the challenge response (base64url JSON)' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  cres?: string;

  @ApiPropertyOptional({ description: 'Form post from the ACS: echoed session data' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  threeDSSessionData?: string;
}
