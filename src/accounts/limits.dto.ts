import { ApiProperty } from '@nestjs/swagger';

export class RateLimitFiguresDto {
  @ApiProperty({ description: 'Requests allowed per window for this tenant', example: 100 })
  limit: number;
  @ApiProperty({ description: 'Requests left in the current window (after this one)', example: 99 })
  remaining: number;
  @ApiProperty({ description: 'Seconds until the window resets', example: 42 })
  resetSeconds: number;
  @ApiProperty({ description: 'Window length in seconds', example: 60 })
  windowSeconds: number;
}

export class PixLimitsDto {
  @ApiProperty({ description: 'Largest single Pix payment, in cents', example: 1000000 })
  perTransaction: number;
  @ApiProperty({ description: 'Pix total allowed between 06:00 and 20:00, in cents', example: 5000000 })
  daytime: number;
  @ApiProperty({ description: 'Pix total allowed between 20:00 and 06:00, in cents', example: 100000 })
  nighttime: number;
}

export class AccountLimitsDto {
  @ApiProperty({ example: '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10' })
  accountId: string;
  @ApiProperty({ example: '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10' })
  tenantId: string;
  @ApiProperty({ type: RateLimitFiguresDto })
  rateLimit: RateLimitFiguresDto;
  @ApiProperty({ type: PixLimitsDto })
  pix: PixLimitsDto;
}
