import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The development PKI of the sandbox PSP's mutual TLS: one CA, a server and a client certificate. */
export interface DevCertificates {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

const FILES = ['ca.crt', 'server.crt', 'server.key', 'client.crt', 'client.key'] as const;

function openssl(cwd: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e: any) {
    if (e?.code === 'ENOENT')
      throw new Error(
        'The sandbox PSP needs the openssl command to make its development certificates (apt-get install openssl), or set SANDBOX_ENABLED=false',
      );
    throw new Error(`openssl ${args[0]} failed: ${String(e?.stderr ?? e?.message ?? e).trim()}`);
  }
}

function read(dir: string): DevCertificates {
  const f = (n: string) => readFileSync(join(dir, n), 'utf8');
  return {
    dir,
    ca: f('ca.crt'),
    serverCert: f('server.crt'),
    serverKey: f('server.key'),
    clientCert: f('client.crt'),
    clientKey: f('client.key'),
  };
}

/** The names the server certificate must cover: localhost and 127.0.0.1, and `hosts` (DNS names or IPs). */
function subjectAltName(hosts: string[]): string {
  const all = [...new Set(['localhost', '127.0.0.1', ...hosts])];
  return all.map((h) => (isIP(h) ? `IP:${h}` : `DNS:${h}`)).join(',');
}

/** Every host in `hosts` is a name or address the server certificate was made for. */
function covers(serverCert: string, hosts: string[]): boolean {
  const cert = new X509Certificate(serverCert);
  return hosts.every((h) => (isIP(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h) !== undefined));
}

/**
 * The certificates under `dir` (DATA_DIR/psp-certs), made once with the openssl command like the
 * development secrets: P-256 keys, a CA valid 10 years, a server certificate for localhost,
 * 127.0.0.1 and `serverHosts` (serverAuth: the names clients reach the sandbox PSP by, e.g.
 * `sandbox` on a compose network, SANDBOX_PSP_CERT_HOSTS) and a client certificate (clientAuth),
 * both signed by the CA. A kept set whose server certificate lacks one of `serverHosts` is made
 * anew. Made in a scratch directory and renamed into place, so two processes starting at once
 * never read half.
 */
export function ensureDevCertificates(dir: string, serverHosts: string[] = []): DevCertificates {
  const target = resolve(dir);
  if (FILES.every((f) => existsSync(join(target, f)))) {
    const kept = read(target);
    if (covers(kept.serverCert, serverHosts)) return kept;
    rmSync(target, { recursive: true, force: true });
  }
  const parent = resolve(target, '..');
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(join(parent, '.psp-certs-'));
  try {
    const key = (name: string) => openssl(tmp, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', name]);
    key('ca.key');
    openssl(tmp, [
      'req',
      '-x509',
      '-new',
      '-key',
      'ca.key',
      '-sha256',
      '-days',
      '3650',
      '-subj',
      '/O=payments-platform sandbox/CN=Sandbox PSP development CA',
      '-out',
      'ca.crt',
    ]);
    const leaf = (name: string, cn: string, ext: string) => {
      key(`${name}.key`);
      writeFileSync(join(tmp, `${name}.ext`), ext);
      openssl(tmp, ['req', '-new', '-key', `${name}.key`, '-subj', `/O=payments-platform sandbox/CN=${cn}`, '-out', `${name}.csr`]);
      openssl(tmp, [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-set_serial',
        `0x${Date.now().toString(16)}${name.length}`,
        '-days',
        '825',
        '-sha256',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.crt`,
      ]);
    };
    leaf('server', 'localhost', `subjectAltName=${subjectAltName(serverHosts)}\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature\n`);
    leaf('client', 'sandbox-psp-client', 'extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature\n');
    // the CA key is not kept: nothing else is ever signed with it
    for (const f of readdirSync(tmp)) if (!(FILES as readonly string[]).includes(f)) rmSync(join(tmp, f));
    chmodSync(tmp, 0o700);
    // One rename of the whole folder: the service and the sandbox app may both make a PKI at
    // once on a new DATA_DIR; the first rename wins and the other reads the winner's files.
    try {
      renameSync(tmp, target);
    } catch (e) {
      if (!FILES.every((f) => existsSync(join(target, f)))) throw e;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return read(target);
}
