import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vm from 'node:vm';
import { OPEN_SEALED_BODY_SNIPPET, VERIFY_SIGNATURE_SNIPPET } from './receiver-examples';
import { seal } from './sealing';
import { signatureHeaders, signV1 } from './signing';

/** Runs a snippet exactly as written in a fresh context that has only what Node gives a CommonJS file. */
function load<T extends (...args: any[]) => unknown>(snippet: string, name: string): T {
  const context = vm.createContext({ require, Buffer });
  vm.runInContext(snippet, context, { filename: `${name}.js` });
  const fn = context[name];
  expect(typeof fn).toBe('function');
  return fn as T;
}

const SECRET = 'whsec_receiver_test_secret';
const BODY = '{"event":"acquiring.payout","data":{"txid":"abc","amount":120,"payer":"João"}}';

describe('VERIFY_SIGNATURE_SNIPPET', () => {
  const verify = load<(rawBody: string | Buffer, header: string | undefined, secret: string) => boolean>(
    VERIFY_SIGNATURE_SNIPPET,
    'verifyServiceSignature',
  );

  it('accepts a body signed by signing.ts, given as string or Buffer', () => {
    const header = signV1(SECRET, BODY);
    expect(verify(BODY, header, SECRET)).toBe(true);
    expect(verify(Buffer.from(BODY), header, SECRET)).toBe(true);
  });

  it('rejects a tampered body, a wrong secret and malformed or missing headers', () => {
    const header = signV1(SECRET, BODY);
    expect(verify(BODY.replace('120', '121'), header, SECRET)).toBe(false);
    expect(verify(BODY, header, 'other-secret')).toBe(false);
    expect(verify(BODY, header.slice(0, -1), SECRET)).toBe(false);
    expect(verify(BODY, `sha256=${'0'.repeat(64)}`, SECRET)).toBe(false);
    expect(verify(BODY, undefined, SECRET)).toBe(false);
  });

  it('verifies the previous-secret header during a rotation', () => {
    const headers = signatureHeaders({ current: SECRET, previous: 'old-secret' }, { id: 'evt_1', timestamp: 1_700_000_000, rawBody: BODY });
    expect(verify(BODY, headers['X-Service-Signature'], SECRET)).toBe(true);
    expect(verify(BODY, headers['X-Service-Signature'], 'old-secret')).toBe(false);
    expect(verify(BODY, headers['X-Service-Signature-Previous'], 'old-secret')).toBe(true);
  });
});

describe('OPEN_SEALED_BODY_SNIPPET', () => {
  const openSealed = load<(body: unknown, base64Key: string) => unknown>(OPEN_SEALED_BODY_SNIPPET, 'openSealedBody');
  const key = randomBytes(32);
  const event = {
    id: 'evt_9',
    event_type: 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED',
    idTx: 'RR123',
    occurredAt: '2025-02-03T10:00:00Z',
    data: {},
  };

  it('opens a body sealed by sealing.ts, as an object or as raw JSON text', () => {
    const body = seal(key, 'k1', event);
    expect(openSealed(body, key.toString('base64'))).toEqual(event);
    expect(openSealed(JSON.stringify(body), key.toString('base64'))).toEqual(event);
    expect(openSealed(Buffer.from(JSON.stringify(body)), key.toString('base64'))).toEqual(event);
  });

  it('throws for a wrong key or an altered tag, ciphertext or IV', () => {
    const body = seal(key, 'k1', event);
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] ^= 1;
      return bytes.toString('base64');
    };
    expect(() => openSealed(body, randomBytes(32).toString('base64'))).toThrow();
    expect(() => openSealed({ ...body, tag: flip(body.tag) }, key.toString('base64'))).toThrow();
    expect(() => openSealed({ ...body, ciphertext: flip(body.ciphertext) }, key.toString('base64'))).toThrow();
    expect(() => openSealed({ ...body, iv: flip(body.iv) }, key.toString('base64'))).toThrow();
    // a truncated tag is refused rather than accepted with fewer bits
    expect(() =>
      openSealed({ ...body, tag: Buffer.from(body.tag, 'base64').subarray(0, 8).toString('base64') }, key.toString('base64')),
    ).toThrow();
  });
});

describe('snippets as standalone files', () => {
  it.each([
    ['node:crypto only, no template syntax', VERIFY_SIGNATURE_SNIPPET],
    ['node:crypto only, no template syntax', OPEN_SEALED_BODY_SNIPPET],
  ])('%s', (_label, snippet) => {
    expect(snippet).not.toMatch(/`|\$\{/);
    expect(snippet.match(/require\(([^)]*)\)/g)).toEqual(["require('node:crypto')"]);
  });

  it('run unchanged under plain node', () => {
    const dir = mkdtempSync(join(tmpdir(), 'receiver-snippets-'));
    try {
      const key = randomBytes(32);
      const sealed = seal(key, 'k1', { id: 'evt_2', event_type: 'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE', idTx: 'x' });
      const signature = signV1(SECRET, BODY);

      const verifyFile = join(dir, 'verify.js');
      writeFileSync(
        verifyFile,
        `${VERIFY_SIGNATURE_SNIPPET}\nconst input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n` +
          `process.stdout.write(JSON.stringify([verifyServiceSignature(input.body, input.header, input.secret), ` +
          `verifyServiceSignature(input.body + ' ', input.header, input.secret)]));\n`,
      );
      const verifyOut = execFileSync(process.execPath, [verifyFile], {
        input: JSON.stringify({ body: BODY, header: signature, secret: SECRET }),
      });
      expect(JSON.parse(verifyOut.toString())).toEqual([true, false]);

      const openFile = join(dir, 'open.js');
      writeFileSync(
        openFile,
        `${OPEN_SEALED_BODY_SNIPPET}\nconst input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n` +
          `process.stdout.write(JSON.stringify(openSealedBody(input.body, input.key)));\n`,
      );
      const openOut = execFileSync(process.execPath, [openFile], { input: JSON.stringify({ body: sealed, key: key.toString('base64') }) });
      expect(JSON.parse(openOut.toString())).toEqual({ id: 'evt_2', event_type: 'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE', idTx: 'x' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
