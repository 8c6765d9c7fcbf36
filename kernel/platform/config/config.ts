import { resolve } from 'node:path';
import { DevSecretStore, EnvReader, RuntimeEnv } from './env';

/**
 * A config section: a class used as the DI token and a reader that validates its variables.
 * Each module declares its own section beside its code; the boot loads them all and fails
 * with one message per bad variable.
 */
export interface ConfigSection<T extends object> {
  token: abstract new (...args: never[]) => T;
  read(env: EnvReader): T;
}

export function defineConfig<T extends object>(token: abstract new (...args: never[]) => T, read: (env: EnvReader) => T): ConfigSection<T> {
  return { token, read };
}

/** A problem naming a production secret that is missing (env.ts `secret()` and the sections that read their own). */
const MISSING_SECRET = /^[A-Z][A-Z0-9_]* is required in production\b/;

export const SECRETS_HINT =
  'Missing production secrets: `npm run secrets:generate` writes a fresh set to .env (docker compose reads it), or `npm run secrets:generate -- --stdout` prints one for your secret manager.';

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    const hint = problems.some((p) => MISSING_SECRET.test(p)) ? `\n${SECRETS_HINT}` : '';
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}${hint}`);
    this.name = 'ConfigValidationError';
  }
}

export interface LoadedConfig {
  runtime: RuntimeEnv;
  dataDir: string;
  sections: Map<ConfigSection<object>['token'], object>;
  get<T extends object>(token: abstract new (...args: never[]) => T): T;
}

export function runtimeOf(env: NodeJS.ProcessEnv): RuntimeEnv {
  const v = (env.NODE_ENV ?? 'development').trim();
  return v === 'production' || v === 'test' ? v : 'development';
}

export function loadConfig(sections: ConfigSection<object>[], env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const runtime = runtimeOf(env);
  const dataDir = resolve(env.DATA_DIR?.trim() || '.data');
  const devSecrets = runtime === 'production' ? null : new DevSecretStore(resolve(dataDir, 'secrets.json'));
  const reader = new EnvReader(env, runtime, devSecrets);
  if (env.NODE_ENV && !['development', 'test', 'production'].includes(env.NODE_ENV.trim())) {
    reader.problems.push(`NODE_ENV must be development, test or production, got "${env.NODE_ENV}"`);
  }
  const map = new Map<ConfigSection<object>['token'], object>();
  for (const s of sections) map.set(s.token, s.read(reader));
  if (reader.problems.length) throw new ConfigValidationError(reader.problems);
  return {
    runtime,
    dataDir,
    sections: map,
    get<T extends object>(token: abstract new (...args: never[]) => T): T {
      const v = map.get(token);
      if (!v) throw new ConfigValidationError([`config section ${token.name} was not loaded`]);
      return v as T;
    },
  };
}
