import { Module } from '@nestjs/common';
import { PixApiClient } from './pix-api-client';

/** API Pix, the Central Bank's standard, as the bank edge's protocol (BANK_PROVIDER=pix-api). */
@Module({
  providers: [PixApiClient],
  exports: [PixApiClient],
})
export class PixApiModule {}
