import { Global, Module } from '@nestjs/common';
import { BearerVerifier } from '../gateway/bearer-verifier.port';
import { TenantsModule } from '../tenants/tenants.module';
import { AdminKeysController } from './admin/admin-keys.controller';
import { AdminKeysService } from './admin/admin-keys.service';
import { CredentialsService } from './credentials/credentials.service';
import { AuthKeysRepository, SqlAuthKeysRepository } from './keys/auth-keys.repository';
import { KeysService } from './keys/keys.service';
import { SetupController } from './keys/setup.controller';
import { AccessTokenCodec } from './token/access-token.codec';
import { JwtBearerVerifier } from './token/jwt-bearer.verifier';
import { KeyRevocationCache } from './token/key-revocation.cache';
import { TokenController } from './token/token.controller';
import { TokenService } from './token/token.service';

/**
 * Keys, challenges, credentials and tokens. Global only for the BearerVerifier binding the
 * gateway guard needs wherever `@TenantRoute()` is used.
 */
@Global()
@Module({
  imports: [TenantsModule],
  controllers: [SetupController, TokenController, AdminKeysController],
  providers: [
    { provide: AuthKeysRepository, useClass: SqlAuthKeysRepository },
    KeysService,
    CredentialsService,
    AccessTokenCodec,
    KeyRevocationCache,
    TokenService,
    AdminKeysService,
    JwtBearerVerifier,
    { provide: BearerVerifier, useExisting: JwtBearerVerifier },
  ],
  exports: [BearerVerifier],
})
export class AuthModule {}
