import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoadedConfig } from './config';

/** Every validated config section, injectable by its class. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: LoadedConfig): DynamicModule {
    const providers = [...config.sections.entries()].map(([token, value]) => ({ provide: token, useValue: value }));
    return { module: ConfigModule, providers, exports: providers.map((p) => p.provide) };
  }
}
