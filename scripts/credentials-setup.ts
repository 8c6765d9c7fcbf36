// `npm run credentials:setup -- --tenant <tenantId> --url https://api.example.com [--out file] [--force]`
// The caller's side of the one-time setup (steps 1-4): makes an RSA-2048 key pair here, uploads
// the public key, signs the challenge (RSA-PSS SHA-256), verifies, fetches the credentials and
// decrypts them (RSA-OAEP SHA-256). Writes the key pair and client_id/client_secret to a JSON
// file only its owner can read (mode 0600). The private key never leaves this machine; nothing
// secret is printed.
import { closeSync, constants as fsc, openSync, writeSync, fchmodSync } from 'node:fs';
import { constants, generateKeyPairSync, privateDecrypt, sign } from 'node:crypto';
import { resolve } from 'node:path';

interface Args {
  tenant: string;
  url: string;
  out: string;
  force: boolean;
}

function usage(msg: string): never {
  process.stderr.write(
    `${msg}\nusage: npm run credentials:setup -- --tenant <tenantId> --url <service base URL> [--out <file>] [--force]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const a: Partial<Args> = { force: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? usage(`${flag} needs a value`);
    if (flag === '--tenant') a.tenant = value();
    else if (flag === '--url') a.url = value().replace(/\/+$/, '');
    else if (flag === '--out') a.out = value();
    else if (flag === '--force') a.force = true;
    else usage(`unknown argument ${argv[i]}`);
  }
  if (!a.tenant) usage('--tenant is required');
  if (!a.url || !/^https?:\/\//.test(a.url)) usage('--url is required (http:// or https://)');
  return { tenant: a.tenant!, url: a.url!, out: resolve(a.out ?? `credentials-${a.tenant}.json`), force: a.force! };
}

async function post(url: string, body?: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = { message: text };
  }
  if (!res.ok) {
    const why = `${json.error ?? res.status}: ${json.message ?? ''}${json.ip ? ` (the service sees your IP as ${json.ip})` : ''}`;
    throw new Error(`POST ${new URL(url).pathname} answered ${res.status} ${why}`);
  }
  return json;
}

const oaep = (privateKey: string, b64: string) =>
  privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(b64, 'base64')).toString(
    'utf8',
  );

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  // Refuse to overwrite before any work is done (and hold the file: O_EXCL, mode 0600).
  let fd: number;
  try {
    fd = openSync(args.out, fsc.O_WRONLY | fsc.O_CREAT | (args.force ? fsc.O_TRUNC : fsc.O_EXCL), 0o600);
    fchmodSync(fd, 0o600);
  } catch (e: any) {
    usage(
      e.code === 'EEXIST'
        ? `${args.out} exists; pass --force to replace it or --out for another file`
        : `cannot write ${args.out}: ${e.message}`,
    );
  }
  try {
    const base = `${args.url}/v1/tenants/${encodeURIComponent(args.tenant)}/keys`;
    process.stderr.write('1/4 generating an RSA-2048 key pair\n');
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    process.stderr.write('2/4 uploading the public key\n');
    const key = await post(base, { publicKey });
    process.stderr.write(`3/4 signing the challenge of key ${key.keyId} (RSA-PSS SHA-256) and verifying\n`);
    const signature = sign('sha256', Buffer.from(key.challenge, 'utf8'), {
      key: privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 32,
    }).toString('base64');
    await post(`${base}/${key.keyId}/verify`, { challenge: key.challenge, signature });
    process.stderr.write('4/4 fetching and decrypting the credentials (RSA-OAEP SHA-256)\n');
    const c = await post(`${base}/${key.keyId}/credentials`);
    const record = {
      tenantId: args.tenant,
      keyId: key.keyId,
      clientId: oaep(privateKey, c.encryptedClientId),
      clientSecret: oaep(privateKey, c.encryptedClientSecret),
      tokenUrl: `${args.url}/v1/oauth/token`,
      privateKeyPem: privateKey,
      publicKeyPem: publicKey,
      createdAt: new Date().toISOString(),
    };
    writeSync(fd, `${JSON.stringify(record, null, 2)}\n`);
    process.stderr.write(`done: key ${key.keyId}, client id and secret written to ${args.out} (mode 0600)\n`);
  } catch (e: any) {
    closeSync(fd!);
    require('node:fs').rmSync(args.out, { force: true });
    process.stderr.write(`credentials:setup failed: ${e?.message ?? e}\n`);
    process.exit(1);
  }
  closeSync(fd!);
}

void main();
