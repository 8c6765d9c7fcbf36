import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { AcceptingValidationPipe } from './validation-acceptance';
import { memoizeValidationMetadata } from './validation-metadata';

/**
 * What the validation fast path (`validation-acceptance.ts`, `validation-metadata.ts`) was
 * checked against: it follows class-validator's private executor order and patches its metadata
 * storage, so another version may differ in ways no type shows. `package.json` pins this exact
 * version; `validation-fast-path.spec.ts` fails when the installed files differ from these.
 */
export const FAST_PATH_PROVEN_AGAINST = {
  version: '0.15.1',
  /** sha256 of `class-validator/cjs/validation/ValidationExecutor.js` */
  executor: '8787073e5512449e187b2f3deb4ec2fdf7df89505c50909baf392abea41beee1',
  /** sha256 of `class-validator/cjs/metadata/MetadataStorage.js` */
  storage: '8428df66b6bf3021e346b29f58389f3dbcf5a44feb7c6a4cd5c0c896d408ee9f',
} as const;

function sha256Of(moduleFile: string): string {
  return createHash('sha256')
    .update(readFileSync(require.resolve(moduleFile)))
    .digest('hex');
}

/** The installed class-validator's version and the fingerprints of the two files the fast path relies on. */
export function installedClassValidator(): { version: string; executor: string; storage: string } {
  return {
    version: (require('class-validator/package.json') as { version: string }).version,
    executor: sha256Of('class-validator/cjs/validation/ValidationExecutor.js'),
    storage: sha256Of('class-validator/cjs/metadata/MetadataStorage.js'),
  };
}

export function fastPathMatches(installed = installedClassValidator()): boolean {
  const p = FAST_PATH_PROVEN_AGAINST;
  return installed.version === p.version && installed.executor === p.executor && installed.storage === p.storage;
}

/**
 * Called once at bootstrap (`createApp`), never by an import: patches class-validator's metadata
 * storage and answers the app's validation pipe with the fast path, when the installed
 * class-validator is the one the fast path was proven against; otherwise Nest's own pipe with the
 * same options, and `warn` says why (slower, never wrong).
 */
export function installValidationFastPath(options: ValidationPipeOptions, warn: (msg: string) => void): ValidationPipe {
  const installed = installedClassValidator();
  if (!fastPathMatches(installed)) {
    warn(
      `class-validator ${installed.version} is not the version the validation fast path was checked against (${FAST_PATH_PROVEN_AGAINST.version}); validating with class-validator alone`,
    );
    return new ValidationPipe(options);
  }
  memoizeValidationMetadata();
  return new AcceptingValidationPipe(options);
}
