import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SetupGuard } from '../../gateway/setup.guard';
import { IdempotentPosts } from '../../../kernel/platform/idempotency/idempotent-posts.decorator';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { CredentialsService } from '../credentials/credentials.service';
import { ChallengeDto, CredentialsDto, KeyCreatedDto, UploadKeyDto, VerifiedDto, VerifyKeyDto } from '../dto/keys.dto';
import { KeysService } from './keys.service';

/** Setup, once per tenant (steps 2-4). No token; the tenant's allow-list and a tighter rate limit apply. */
@ApiTags('credentials')
@UseGuards(SetupGuard)
@IdempotentPosts()
@ApiErrors(
  [403, 'ip_not_allowed', 'The caller IP is not on the tenant allow-list (body carries `ip`); `tenant_suspended`'],
  [404, 'tenant_not_found', 'No such tenant (`tenant_not_found`) or key (`key_not_found`)'],
  [422, 'idempotency_key_reused', 'The Idempotency-Key was used with another request'],
  [429, 'rate_limited', 'Over the setup rate limit (SETUP_RATE_LIMIT_PER_MINUTE per tenant); see Retry-After'],
)
@Controller('v1/tenants/:tenantId/keys')
export class SetupController {
  constructor(
    private readonly keys: KeysService,
    private readonly credentials: CredentialsService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'uploadKey', summary: 'Upload an RSA-2048 public key; answers keyId and a challenge to sign', security: [] })
  @ApiOkResponse({ type: KeyCreatedDto })
  @ApiErrors([
    400,
    'key_size_invalid',
    'Not a 2048-bit RSA public key: `key_malformed`, `key_not_rsa`, `key_size_invalid`, `key_is_private`, `validation_error`',
  ])
  upload(@Param('tenantId') tenantId: string, @Body() dto: UploadKeyDto): Promise<KeyCreatedDto> {
    return this.keys.upload(tenantId, dto.publicKey);
  }

  @Post(':keyId/challenge')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'reissueChallenge',
    summary: 'Issue a fresh challenge for a key (the previous one stops verifying)',
    security: [],
  })
  @ApiOkResponse({ type: ChallengeDto })
  @ApiErrors([409, 'key_revoked', 'The key is revoked'])
  challenge(@Param('tenantId') tenantId: string, @Param('keyId') keyId: string): Promise<ChallengeDto> {
    return this.keys.reissueChallenge(tenantId, keyId);
  }

  @Post(':keyId/verify')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'verifyKey',
    summary: 'Prove possession of the private key: RSA-PSS SHA-256 signature of the challenge, base64',
    security: [],
  })
  @ApiOkResponse({ type: VerifiedDto })
  @ApiErrors(
    [
      400,
      'signature_invalid',
      'The key stays unverified: `signature_invalid` (wrong algorithm, key or message), `signature_malformed`, `challenge_mismatch`, `challenge_expired`, `challenge_used`, `validation_error`',
    ],
    [409, 'key_revoked', 'The key is revoked'],
  )
  verify(@Param('tenantId') tenantId: string, @Param('keyId') keyId: string, @Body() dto: VerifyKeyDto): Promise<VerifiedDto> {
    return this.keys.verify(tenantId, keyId, dto);
  }

  @Post(':keyId/credentials')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'issueCredentials',
    summary: 'Issue client_id and a new client_secret, RSA-OAEP SHA-256 encrypted with the key; the previous secret stops working',
    security: [],
  })
  @ApiOkResponse({ type: CredentialsDto })
  @ApiErrors([409, 'key_not_verified', 'The key is not verified yet (`key_not_verified`) or revoked (`key_revoked`)'])
  issue(@Param('tenantId') tenantId: string, @Param('keyId') keyId: string): Promise<CredentialsDto> {
    return this.credentials.issue(tenantId, keyId);
  }
}
