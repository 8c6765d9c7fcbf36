import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { ensureDevCertificates } from '../../kernel/platform/tls/dev-certificates';

/** A mutual-TLS handshake with the sandbox PSP's certificates, the client naming the server `servername`. */
async function handshake(dir: string, servername: string): Promise<string> {
  const pki = ensureDevCertificates(dir);
  const server = createServer(
    { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
    (_q, r) => r.end('ok'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await new Promise<string>((resolve) => {
      const s = connect(
        {
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          servername,
          ca: pki.ca,
          cert: pki.clientCert,
          key: pki.clientKey,
        },
        () => {
          s.end();
          resolve('trusted');
        },
      );
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
  } finally {
    server.close();
  }
}

describe('the sandbox PSP certificate covers the name the service calls it by (SANDBOX_PSP_CERT_HOSTS)', () => {
  it('a client reaching it as "sandbox" (the compose network) is refused without the name and trusted with it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'psp-pki-')), 'psp-certs');
    ensureDevCertificates(dir);
    expect(await handshake(dir, 'localhost')).toBe('trusted');
    expect(await handshake(dir, 'sandbox')).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    const before = readFileSync(join(dir, 'server.crt'), 'utf8');
    // a kept PKI that lacks a wanted name is made anew; one that has it is kept
    ensureDevCertificates(dir, ['sandbox', '10.1.2.3']);
    const after = readFileSync(join(dir, 'server.crt'), 'utf8');
    expect(after).not.toBe(before);
    expect(await handshake(dir, 'sandbox')).toBe('trusted');
    expect(await handshake(dir, 'localhost')).toBe('trusted');
    ensureDevCertificates(dir, ['sandbox']);
    expect(readFileSync(join(dir, 'server.crt'), 'utf8')).toBe(after);
  });
});
