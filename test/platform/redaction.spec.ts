import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import pino from 'pino';
import { pinoOptions } from '../../kernel/platform/logging/logger.options';
import { REDACTED, redactDeep } from '../../kernel/platform/logging/redact';

const PEM = execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024']).toString();
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGllbnQtMSJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';

function capture(): { logger: pino.Logger; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(c, _e, cb) {
      out += c;
      cb();
    },
  });
  return { logger: pino(pinoOptions('info', 'payments-platform') as pino.LoggerOptions, stream), text: () => out };
}

describe('log redaction', () => {
  it('removes secrets by key at any depth and by shape in any string', () => {
    const { logger, text } = capture();
    logger.info(
      {
        headers: { authorization: `Bearer ${JWT}`, 'x-request-id': 'keep-me' },
        deep: [{ nested: { client_secret: 's3cr3t-value', clientSecret: 's3cr3t-value-2', access_token: JWT } }],
        card: { cardNumber: '4111111111111111', cvv: '123', last4: '1111' },
        note: `payer typed 4111 1111 1111 1111 and key ${PEM}`,
        err: new Error(`failed with token ${JWT}`),
        orderId: '1234567890123',
        migration: 'PixAutomatic1763600300000',
      },
      `message with ${JWT} and 5555555555554444`,
    );
    const line = text();
    for (const secret of ['s3cr3t-value', JWT, '4111111111111111', '4111 1111 1111 1111', '5555555555554444', 'PRIVATE KEY', '"123"']) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('keep-me');
    expect(line).toContain('"last4":"1111"');
    // a 13-digit order number that fails the Luhn check is not a card number
    expect(line).toContain('1234567890123');
    // nor is a number glued to a name (migration class names)
    expect(line).toContain('PixAutomatic1763600300000');
  });

  it('leaves ordinary values alone and handles cycles', () => {
    const o: any = { a: 1, b: 'plain text', c: [1, 2] };
    o.self = o;
    expect(redactDeep(o)).toEqual({ a: 1, b: 'plain text', c: [1, 2], self: '[Circular]' });
    expect(redactDeep({ password: 'x', token: '' })).toEqual({ password: REDACTED, token: '' });
  });
});
