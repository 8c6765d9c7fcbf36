import { DynamicModule, Module } from '@nestjs/common';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const entities = new Set<Function>();

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function registeredEntities(): Function[] {
  return [...entities];
}

/**
 * Feature modules declare their entities with `DatabaseModule.forFeature`-style registration;
 * the data source is built from the registry once all modules are imported.
 */
@Module({})
export class EntitiesModule {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  static register(list: Function[]): DynamicModule {
    for (const e of list) entities.add(e);
    return { module: EntitiesModule };
  }
}
