import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { AdminKeyGuard } from '../../tenants/admin-key.guard';
import { RewrapWebhookSecrets, SecretsRewrapReport } from './rewrap-webhook-secrets';

export class SecretsRewrapReportDto implements SecretsRewrapReport {
  @ApiProperty({ description: 'Key id of WEBHOOK_SECRETS_KEY (a fingerprint, not the key)', example: '3f9a0c12be47' })
  activeKeyId: string;
  @ApiProperty({ description: 'Registrations whose stored secrets were re-encrypted under the active key by this call', example: 42 })
  rewrapped: number;
  @ApiProperty({
    description: 'Registrations whose stored secret no key of the ring opens (left unchanged; the tenant must register the webhook again)',
    example: 0,
  })
  unreadable: number;
  @ApiProperty({
    description:
      'Stored secrets (current and, during a rotation grace, previous) per key id after the call; `v1` counts secrets stored before key ids existed',
    example: { '3f9a0c12be47': 44 },
  })
  byKey: Record<string, number>;
}

@ApiTags('admin')
@ApiSecurity('adminKey')
@ApiErrors([401, 'admin_unauthorized', 'Missing or wrong X-Admin-Key'])
@UseGuards(AdminKeyGuard)
@Controller('admin/webhooks/secrets')
export class AdminWebhookSecretsController {
  constructor(private readonly rewrap: RewrapWebhookSecrets) {}

  @Post('rewrap')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminRewrapWebhookSecrets',
    summary:
      'Re-encrypt every stored webhook secret under WEBHOOK_SECRETS_KEY (after a key rotation; the old key can go when byKey shows only activeKeyId)',
  })
  @ApiOkResponse({ type: SecretsRewrapReportDto })
  run(): Promise<SecretsRewrapReport> {
    return this.rewrap.run();
  }
}
