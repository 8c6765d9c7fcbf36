// `npm run secrets:generate [-- --out .env] [--force] [--stdout]`
// Writes every secret a production boot requires, with fresh random values in the format each
// one takes, as KEY=value lines (a `.env` for docker compose, or the data of a Kubernetes
// Secret). Which secrets are required is asked of the configuration itself (a production load
// with none set), so a secret added to any module's config is generated here without an edit.
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SANDBOX_CONFIG_SECTIONS } from '../sandbox/src/config.sections';
import { sandboxEnv } from '../sandbox/src/sandbox-env';
import { CONFIG_SECTIONS } from '../src/config.sections';
import { ConfigSection, ConfigValidationError, loadConfig } from '../kernel/platform/config/config';

const REQUIRED = /^([A-Z][A-Z0-9_]*) is required in production\b/;

/** The names of the secrets a production load of one app with `env` still misses. */
function missingOf(sections: ConfigSection<object>[], env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(sections, env);
    return [];
  } catch (e) {
    if (!(e instanceof ConfigValidationError)) throw e;
    return e.problems.map((p) => REQUIRED.exec(p)?.[1]).filter((n): n is string => !!n);
  }
}

/** The secrets still missing for the service and for the sandbox app (a staging compose runs both). */
function missingSecrets(env: Record<string, string>): string[] {
  const production = { NODE_ENV: 'production', ...env };
  return [...new Set([...missingOf(CONFIG_SECTIONS, production), ...missingOf(SANDBOX_CONFIG_SECTIONS, sandboxEnv(production))])];
}

/** A fresh value in the format the named secret takes. */
export function valueFor(name: string, today = new Date()): string {
  switch (name) {
    case 'JWT_SIGNING_KEYS': // kid:secret, the kid naming the day it was made (rotation puts a newer one first)
      return `k${today.toISOString().slice(0, 10).replace(/-/g, '')}:${randomBytes(48).toString('base64url')}`;
    case 'VAULT_MASTER_KEYS': // <keyId>:<base64 of 32 random bytes>
      return `v${today.toISOString().slice(0, 10).replace(/-/g, '')}:${randomBytes(32).toString('base64')}`;
    case 'VAULT_FINGERPRINT_KEY':
      return randomBytes(32).toString('base64');
    default: // shared secrets and API keys: 43 URL-safe characters (256 bits)
      return randomBytes(32).toString('base64url');
  }
}

/** Every required secret with a fresh value; verified by a production load that reports none missing. */
export function generateSecrets(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of missingSecrets({})) out[name] = valueFor(name);
  const still = missingSecrets(out);
  if (still.length) throw new Error(`secrets:generate does not know how to make ${still.join(', ')}`);
  return out;
}

function main(argv: string[]): void {
  const stdout = argv.includes('--stdout');
  const force = argv.includes('--force');
  const i = argv.indexOf('--out');
  const file = resolve(i >= 0 && argv[i + 1] ? argv[i + 1] : '.env');
  const secrets = generateSecrets();
  const text = `${Object.entries(secrets)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;
  if (stdout) {
    process.stdout.write(text);
    return;
  }
  if (existsSync(file) && !force) {
    process.stderr.write(`${file} exists: its secrets may be in use. Pass --force to replace it, or --stdout to print new ones.\n`);
    process.exit(2);
  }
  writeFileSync(file, text, { mode: 0o600 });
  process.stderr.write(`wrote ${Object.keys(secrets).length} secrets to ${file} (mode 0600)\n`);
}

if (require.main === module) main(process.argv.slice(2));
