import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageOf, PageQueryDto } from '../../../kernel/platform/pagination/pagination';
import { ACQUIRING_EVENT_TYPES, DELIVERY_STATUSES, DeliveryStatus } from '../event-types';

export class DeliveryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, example: 'DEAD' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({
    example: 'acquiring.payout',
    description: 'An event type, e.g. `acquiring.payout` or `PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED`',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.]{1,100}$/, { message: 'eventType must be an event type name' })
  eventType?: string;
}

export class DeliveryDto {
  @ApiProperty({ example: '0b7e4a3c-1f2d-4e5f-8a9b-0c1d2e3f4a5b' })
  id: string;

  @ApiProperty({
    example: 'evt_5f0c6a1e2b3c4d5e6f708192',
    description: 'The event id: `id` of the body and `X-Service-Webhook-Id`; the same on every attempt and replay',
  })
  eventId: string;

  @ApiProperty({ enum: ['acquiring', 'pix-automatic'], example: 'acquiring' })
  domain: string;

  @ApiProperty({
    example: 'acquiring.payout',
    description: 'An acquiring event type, or one of the Pix Automático receiver events (`PIX_AUTOMATIC_RECEIVER_*`)',
    oneOf: [
      { type: 'string', enum: [...ACQUIRING_EVENT_TYPES] },
      { type: 'string', pattern: '^PIX_AUTOMATIC_RECEIVER_[A-Z_]+$' },
    ],
  })
  eventType: string;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    example: 'DELIVERED',
    description:
      'PENDING: waiting for its next attempt; DELIVERED: a 2xx answer; DEAD: 8 attempts failed; CANCELLED: the endpoint answered 410 or was deleted; NO_ENDPOINT: no active registration when the event happened (replay once one exists)',
  })
  status: DeliveryStatus;

  @ApiProperty({ example: 1, description: 'Attempts made so far (at most 8)' })
  attempts: number;

  @ApiProperty({ nullable: true, type: String, example: null, description: 'When the next attempt is due (PENDING only)' })
  nextAttemptAt: string | null;

  @ApiProperty({ nullable: true, type: String, example: '2026-11-20T12:00:01.000Z' })
  lastAttemptAt: string | null;

  @ApiProperty({ nullable: true, type: Number, example: 200 })
  lastStatusCode: number | null;

  @ApiProperty({
    nullable: true,
    type: String,
    example: null,
    description: 'e.g. `http_503`, `timeout after 10000 ms`, `ECONNREFUSED: …`, `target_not_allowed: …`, `endpoint_gone`',
  })
  lastError: string | null;

  @ApiProperty({ nullable: true, type: String, example: '2026-11-20T12:00:01.000Z' })
  deliveredAt: string | null;

  @ApiProperty({ nullable: true, type: String, example: null, description: 'The delivery this one replays' })
  replayOf: string | null;

  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  createdAt: string;
}

export class DeliveryAttemptDto {
  @ApiProperty({ example: 1 })
  attempt: number;

  @ApiProperty({ example: 'https://merchant.example.com/webhooks/payments' })
  url: string;

  @ApiProperty({ enum: ['delivered', 'failed', 'gone', 'refused'], example: 'delivered' })
  outcome: string;

  @ApiProperty({ nullable: true, type: Number, example: 200 })
  statusCode: number | null;

  @ApiProperty({ example: 42 })
  latencyMs: number;

  @ApiProperty({ nullable: true, type: String, example: null })
  error: string | null;

  @ApiProperty({ nullable: true, type: String, example: '{"received":true}', description: 'The first 1 KiB of the answer' })
  responseSnippet: string | null;

  @ApiProperty({ example: '2026-11-20T12:00:01.000Z' })
  at: string;
}

export class DeliveryDetailDto extends DeliveryDto {
  @ApiProperty({ type: [DeliveryAttemptDto] })
  attemptLog: DeliveryAttemptDto[];
}

export class DeliveryPageDto extends PageOf(DeliveryDto) {}

export class RetryPendingDto {
  @ApiProperty({ enum: ['acquiring', 'pix-automatic'], example: 'acquiring' })
  domain: string;

  @ApiProperty({ example: 2, description: 'How many waiting deliveries were made due now (0 when none was waiting)' })
  scheduled: number;

  @ApiProperty({
    type: [String],
    example: ['0b7e4a3c-1f2d-4e5f-8a9b-0c1d2e3f4a5b', '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'],
    description: 'The deliveries made due now; follow each in the delivery log',
  })
  deliveryIds: string[];

  @ApiProperty({
    example: '2026-11-20T12:05:00.000Z',
    description: 'The time they were made due; the worker sends them within a poll interval',
  })
  dueAt: string;
}
