import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { isUuid } from '../../tenants/tenants.repository';
import { AuthErrors } from '../auth.errors';
import { KeyDto } from '../dto/keys.dto';
import { AuthKeysRepository } from '../keys/auth-keys.repository';
import { toKeyDto } from '../keys/keys.service';
import { KeyRevocationCache } from '../token/key-revocation.cache';

@Injectable()
export class AdminKeysService {
  private readonly logger = new Logger('AdminKeys');

  constructor(
    private readonly keys: AuthKeysRepository,
    private readonly revocations: KeyRevocationCache,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string): Promise<KeyDto[]> {
    if (!isUuid(tenantId)) return [];
    return (await this.keys.listByTenant(tenantId)).map(toKeyDto);
  }

  /** Idempotent: revoking a revoked key answers it as it is. */
  async revoke(tenantId: string, keyId: string): Promise<KeyDto> {
    const k = isUuid(tenantId) ? await this.keys.revoke(tenantId, keyId, this.clock.now()) : null;
    if (!k) throw AuthErrors.error('key_not_found', `Key ${keyId} does not exist for tenant ${tenantId}`);
    this.revocations.markRevoked(keyId);
    this.logger.log({ tenantId, keyId }, 'key revoked');
    return toKeyDto(k);
  }
}
