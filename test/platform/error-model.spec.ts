import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import '../../src/app.module';
import { CodedError } from '../../kernel/common/formats/coded-error';
import {
  AppError,
  errorCodesWithStatus,
  isRegisteredDomainError,
  PlatformErrors,
  statusOfDomainError,
} from '../../kernel/platform/errors/app-error';
import { resolveError } from '../../kernel/platform/errors/error-envelope';
import { MoneyError } from '../../kernel/common/formats/money';
import { VaultDecryptionError } from '../../src/cards/domain/errors';
import { FeeError } from '../../src/links/domain/fees';

const SRC = join(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.spec.ts') ? [p] : [];
  });
}

/** Every class of src that descends from CodedError, read from the source: [file, class name]. */
function codedErrorClasses(): [string, string][] {
  const parent = new Map<string, [string, string]>();
  for (const file of sources(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/export (?:abstract )?class (\w+)(?:<[^>]*>)? extends (\w+)/g))
      parent.set(m[1], [m[2], file]);
  }
  const descends = (name: string, seen = 0): boolean =>
    name === 'CodedError' || (seen < 10 && parent.has(name) && descends(parent.get(name)![0], seen + 1));
  return [...parent]
    .filter(([name]) => name !== 'AppError' && name !== 'CodedError' && descends(name))
    .map(([name, [, file]]) => [file, name]);
}

describe('one error model', () => {
  it('every error class in src descends from the one base, CodedError (no other Error subclass for a rule)', () => {
    const others: string[] = [];
    for (const file of sources(SRC)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/export (?:abstract )?class (\w+)(?:<[^>]*>)? extends Error\b/g))
        others.push(`${relative(SRC, file)}: ${m[1]}`);
    }
    // besides the base, only failures that are no answer to a request: configuration, start-up, a bad table definition
    const allowed = [
      'common/formats/coded-error.ts: CodedError',
      'platform/config/config.ts: ConfigValidationError',
      'platform/database/embedded-postgres.ts: DataDirInUseError',
      'platform/database/embedded-postgres.ts: EmbeddedPostgresMissingError',
    ];
    expect(others.filter((x) => !allowed.includes(x) && !/StateMachineDefinitionError|StateMachineError/.test(x))).toEqual([]);
  });

  it('every CodedError class is registered with the exception filter (its codes have statuses)', () => {
    const classes = codedErrorClasses();
    expect(classes.length).toBeGreaterThan(15);
    const missing = classes.filter(([file, name]) => {
      const type = require(file)[name];
      return !(type.prototype instanceof AppError) && !isRegisteredDomainError(type);
    });
    expect(missing.map(([f, n]) => `${relative(SRC, f)}: ${n}`)).toEqual([]);
  });

  it('the filter answers a domain error from its table, with no catch-and-rethrow: a 400 says why, a 500 hides its message', () => {
    const money = resolveError(new MoneyError('amount_too_large', 'Amount is too large'));
    expect(money).toMatchObject({ status: 400, body: { error: 'amount_too_large', message: 'Amount is too large' }, unexpected: false });
    const fee = resolveError(new FeeError('fee_exceeds_amount', 'The fee is larger than the amount'));
    expect(fee).toMatchObject({ status: 400, body: { error: 'fee_exceeds_amount' } });
    const vault = resolveError(new VaultDecryptionError('pan'));
    expect(vault).toMatchObject({
      status: 500,
      body: { error: 'vault_decryption_failed', message: 'Internal server error' },
      unexpected: true,
    });
    class Unregistered extends CodedError<'x'> {
      constructor() {
        super('x', 'secret detail');
      }
    }
    expect(resolveError(new Unregistered())).toMatchObject({
      status: 500,
      body: { error: 'internal_error', message: 'Internal server error' },
      unexpected: true,
    });
    expect(statusOfDomainError(new Unregistered())).toBeUndefined();
  });

  it('every error code the OpenAPI document shows is one a table gives that status (the docs cannot drift)', () => {
    const doc = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8'));
    const wrong: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
          const code = res.content?.['application/json']?.example?.error;
          if (Number(status) >= 400 && code && !errorCodesWithStatus(Number(status)).includes(code))
            wrong.push(`${method.toUpperCase()} ${path} ${status} ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(PlatformErrors.table.validation_error).toBe(400);
  });
});
