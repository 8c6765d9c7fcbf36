import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ACQUIRING_EVENT_TYPES } from '../event-types';

export class RegisterAcquiringWebhookDto {
  @ApiProperty({
    description: 'Receiver URL. `https://` in production; `http://localhost` and private addresses are accepted outside production.',
    example: 'https://merchant.example.com/webhooks/payments',
    maxLength: 2048,
  })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({
    description: 'Event types to receive; absent or null = all of them.',
    enum: ACQUIRING_EVENT_TYPES,
    isArray: true,
    example: ['acquiring.financial_transaction', 'acquiring.payout'],
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @ArrayMaxSize(ACQUIRING_EVENT_TYPES.length)
  @IsIn(ACQUIRING_EVENT_TYPES, { each: true })
  events?: string[] | null;
}

export class RegisterPixAutomaticWebhookDto {
  @ApiProperty({
    description: 'Receiver URL. `https://` in production; `http://localhost` and private addresses are accepted outside production.',
    example: 'https://merchant.example.com/webhooks/pix-automatic',
    maxLength: 2048,
  })
  @IsString()
  @MaxLength(2048)
  url: string;
}

class EndpointBaseDto {
  @ApiProperty({ example: 'https://merchant.example.com/webhooks/payments' })
  url: string;

  @ApiProperty({
    enum: ['ACTIVE', 'DISABLED'],
    example: 'ACTIVE',
    description: 'DISABLED after the receiver answered 410 Gone; PUT again to re-enable.',
  })
  status: 'ACTIVE' | 'DISABLED';

  @ApiProperty({ nullable: true, type: String, example: null, description: 'Why the endpoint is DISABLED (`endpoint_gone`).' })
  disabledReason: string | null;

  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  updatedAt: string;
}

export class AcquiringWebhookDto extends EndpointBaseDto {
  @ApiProperty({
    nullable: true,
    enum: ACQUIRING_EVENT_TYPES,
    isArray: true,
    example: null,
    description: 'null = every acquiring event type',
  })
  events: string[] | null;

  @ApiProperty({
    nullable: true,
    type: String,
    example: '2026-11-21T12:00:00.000Z',
    description:
      'Until when deliveries also carry `X-Service-Signature-Previous` (signed with the previous secret); null when no rotation is in its grace period.',
  })
  previousSecretExpiresAt: string | null;
}

export class AcquiringWebhookWithSecretDto extends AcquiringWebhookDto {
  @ApiProperty({
    example: 'whsec_Jx3vVn0m0rQ0i7Gq2uJb1V7wz2o5Kf3sY0T8bq6N9aE',
    description: "HMAC-SHA256 signing secret (the key is this string's UTF-8 bytes). Shown only in this answer; a new PUT rotates it.",
  })
  secret: string;
}

export class PixAutomaticWebhookDto extends EndpointBaseDto {
  @ApiProperty({ example: 'key_6f1c2a0e5c1f4f63', description: 'Id of the key that seals bodies now (`keyId` of each sealed body).' })
  keyId: string;

  @ApiProperty({
    nullable: true,
    type: String,
    example: null,
    description:
      "During a rotation's grace period: the previous key id. Bodies stay sealed with the PREVIOUS key until previousKeyExpiresAt, then with keyId.",
  })
  previousKeyId: string | null;

  @ApiProperty({ nullable: true, type: String, example: null })
  previousKeyExpiresAt: string | null;

  @ApiProperty({ example: 'key_6f1c2a0e5c1f4f63', description: 'The key id bodies are sealed with right now.' })
  sealingKeyId: string;
}

export class PixAutomaticWebhookWithKeyDto extends PixAutomaticWebhookDto {
  @ApiProperty({
    example: 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8s=',
    description: 'AES-256-GCM key, base64 of 32 bytes, for `keyId`. Shown only in this answer.',
  })
  encryptionKey: string;
}
