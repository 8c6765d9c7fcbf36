import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_SECTIONS } from '../../src/config.sections';
import { ConfigValidationError, loadConfig } from '../../kernel/platform/config/config';

/** What the boot would refuse in `env` (every problem, one line each); [] when it would start. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(CONFIG_SECTIONS, env);
    return [];
  } catch (e) {
    if (e instanceof ConfigValidationError) return e.problems;
    throw e;
  }
}

/** {@link configProblems} for a development boot with a fresh data directory, plus `env`. */
export function devConfigProblems(env: Record<string, string>): string[] {
  return configProblems({ NODE_ENV: 'development', DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')), ...env });
}
