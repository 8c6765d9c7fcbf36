import { DynamicModule, Module } from '@nestjs/common';
import { LoadedConfig } from '../../kernel/platform/config/config';
import { ConfigModule } from '../../kernel/platform/config/config.module';
import { PlatformModule, PlatformOptions } from '../../kernel/platform/platform.module';
import { SandboxAcquirerModule } from './acquirer/sandbox-acquirer.module';
import { SandboxModule } from './sandbox.module';
import { SANDBOX_DATABASE } from './sandbox-database';
import { SandboxThreeDsModule } from './three-ds/sandbox-three-ds.module';

/** The sandbox app's name in its log lines and boot messages. */
export const SANDBOX_APP_NAME = 'payments-sandbox';

/** The sandbox app's composition root: the platform kernel and the simulated parties. */
@Module({})
export class SandboxAppModule {
  static forRoot(config: LoadedConfig, opts: PlatformOptions = {}): DynamicModule {
    return {
      module: SandboxAppModule,
      imports: [
        ConfigModule.forRoot(config),
        PlatformModule.forRoot(SANDBOX_APP_NAME, { ...opts, database: SANDBOX_DATABASE }),
        SandboxModule,
        SandboxAcquirerModule,
        SandboxThreeDsModule,
      ],
    };
  }
}
