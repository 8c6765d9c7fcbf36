import { DatabaseLayout } from '../../kernel/platform/database/data-source.factory';

/** The sandbox's tables: its own schema and migrations, beside the service's or in a database of their own. */
export const SANDBOX_DATABASE: DatabaseLayout = { migrationsDir: 'sandbox/migrations', schema: 'sandbox' };
