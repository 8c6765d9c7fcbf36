import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vm from 'node:vm';

export const GUIDE_PATH = join(__dirname, '..', '..', 'docs', 'guide', 'webhooks.md');

/** The ```js blocks of docs/guide/webhooks.md, in order. */
export function guideJsBlocks(): string[] {
  const text = readFileSync(GUIDE_PATH, 'utf8');
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}

function load<T>(code: string, name: string): T {
  const context = vm.createContext({ require, Buffer });
  vm.runInContext(code, context, { filename: `${name}.js` });
  return context[name] as T;
}

/** The receiver code exactly as the guide prints it. */
export function guideVerifier(): (rawBody: string | Buffer, header: string | undefined, secret: string) => boolean {
  const block = guideJsBlocks().find((b) => b.includes('function verifyServiceSignature'));
  if (!block) throw new Error('the guide has no verifyServiceSignature block');
  return load(block, 'verifyServiceSignature');
}

export function guideOpener(): (body: unknown, base64Key: string) => any {
  const block = guideJsBlocks().find((b) => b.includes('function openSealedBody'));
  if (!block) throw new Error('the guide has no openSealedBody block');
  return load(block, 'openSealedBody');
}
