import { ValidationPipe } from '@nestjs/common';
import { AcceptingValidationPipe } from './validation-acceptance';
import { FAST_PATH_PROVEN_AGAINST, fastPathMatches, installedClassValidator, installValidationFastPath } from './validation-fast-path';

describe('the validation fast path is pinned to the class-validator it was proven against', () => {
  // first: the tests below install it, and the storage is global
  it('is not installed by importing the app factory', () => {
    jest.isolateModules(() => {
      const storage = require('class-validator').getMetadataStorage();
      const before = storage.getTargetValidationMetadatas;
      expect(storage[Symbol.for('payments-platform.validation-metadata-memo')]).toBeUndefined();
      require('../../../src/app.factory');
      expect(storage.getTargetValidationMetadatas).toBe(before);
    });
    expect(new ValidationPipe()).toBeInstanceOf(ValidationPipe);
  });
  it('the installed class-validator is that version, its executor and metadata storage byte for byte', () => {
    // When this fails, class-validator changed: re-run validation-acceptance.spec.ts against the
    // new version, read its executor's diff for order changes, then update FAST_PATH_PROVEN_AGAINST
    // and the exact version in package.json together.
    expect(installedClassValidator()).toEqual(FAST_PATH_PROVEN_AGAINST);
    expect(require('../../../package.json').dependencies['class-validator']).toBe(FAST_PATH_PROVEN_AGAINST.version);
  });

  it('installs the fast path only for that version; any other gets class-validator alone, said once', () => {
    const warned: string[] = [];
    expect(installValidationFastPath({}, (m) => warned.push(m))).toBeInstanceOf(AcceptingValidationPipe);
    expect(warned).toEqual([]);
    expect(fastPathMatches({ ...installedClassValidator(), executor: '0'.repeat(64) })).toBe(false);
    expect(fastPathMatches({ ...installedClassValidator(), version: '0.15.2' })).toBe(false);
  });
});
