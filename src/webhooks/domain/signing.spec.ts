import { createHmac } from 'node:crypto';
import { SigningInputError } from './errors';
import { DEFAULT_TOLERANCE_SECONDS, parseV2Header, signatureHeaders, signV1, signV2, verifyV1, verifyV2 } from './signing';

const SECRET = 'whsec_current_0123456789';
const OLD_SECRET = 'whsec_previous_9876543210';
const BODY = '{"event":"acquiring.financial_transaction","data":{"amount":10.5,"status":"ACCEPTED","name":"José"}}';
const ID = 'evt_01HZX3';
const TS = 1_750_000_000;
const NOW = new Date(TS * 1000);

describe('signV1 / verifyV1', () => {
  it('matches the RFC 4231 HMAC-SHA256 known answer (test case 2)', () => {
    expect(signV1('Jefe', 'what do ya want for nothing?')).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('is sha256=<hex HMAC of the raw body bytes>, the same for a string and its UTF-8 bytes', () => {
    const expected = createHmac('sha256', SECRET).update(Buffer.from(BODY, 'utf8')).digest('hex');
    expect(signV1(SECRET, BODY)).toBe(`sha256=${expected}`);
    expect(signV1(SECRET, Buffer.from(BODY))).toBe(`sha256=${expected}`);
    expect(signV1(SECRET, new Uint8Array(Buffer.from(BODY)))).toBe(`sha256=${expected}`);
  });

  it('verifies a valid signature (hex case-insensitive, surrounding spaces ignored)', () => {
    const header = signV1(SECRET, BODY);
    expect(verifyV1(SECRET, BODY, header)).toEqual({ valid: true });
    expect(verifyV1(SECRET, Buffer.from(BODY), ` sha256=${header.slice(7).toUpperCase()} `)).toEqual({ valid: true });
  });

  it('fails for a tampered body', () => {
    const header = signV1(SECRET, BODY);
    expect(verifyV1(SECRET, BODY.replace('10.5', '10.6'), header)).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyV1(SECRET, `${BODY} `, header)).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it('fails for a wrong secret', () => {
    expect(verifyV1('another', BODY, signV1(SECRET, BODY))).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it.each([
    [undefined, 'header_missing'],
    [null, 'header_missing'],
    ['', 'header_missing'],
    ['sha1=abc', 'header_malformed'],
    [`sha256=${'a'.repeat(63)}`, 'header_malformed'],
    [`sha256=${'g'.repeat(64)}`, 'header_malformed'],
    [`sha256=${'a'.repeat(64)},sha256=${'b'.repeat(64)}`, 'header_malformed'],
  ])('rejects header %p as %s', (header, reason) => {
    expect(verifyV1(SECRET, BODY, header)).toEqual({ valid: false, reason });
  });

  it('refuses an empty secret with a typed error', () => {
    expect(() => signV1('', BODY)).toThrow(SigningInputError);
    expect(() => verifyV1('', BODY, signV1(SECRET, BODY))).toThrow(expect.objectContaining({ code: 'signing_secret_invalid' }));
  });
});

describe('signV2 / verifyV2', () => {
  it('is t=<ts>,v1=<hex HMAC of "<id>.<ts>.<body>">', () => {
    const mac = createHmac('sha256', SECRET).update(`${ID}.${TS}.${BODY}`).digest('hex');
    expect(signV2(SECRET, ID, TS, BODY)).toBe(`t=${TS},v1=${mac}`);
  });

  it('verifies within the tolerance, both directions', () => {
    const header = signV2(SECRET, ID, TS, BODY);
    expect(verifyV2(SECRET, BODY, header, { webhookId: ID, now: NOW })).toEqual({ valid: true });
    expect(verifyV2(SECRET, BODY, header, { webhookId: ID, now: new Date((TS + DEFAULT_TOLERANCE_SECONDS) * 1000) })).toEqual({
      valid: true,
    });
    expect(verifyV2(SECRET, BODY, header, { webhookId: ID, now: new Date((TS - 60) * 1000) })).toEqual({ valid: true });
  });

  it('fails outside the tolerance', () => {
    const header = signV2(SECRET, ID, TS, BODY);
    const late = new Date((TS + DEFAULT_TOLERANCE_SECONDS + 1) * 1000);
    expect(verifyV2(SECRET, BODY, header, { webhookId: ID, now: late })).toEqual({ valid: false, reason: 'timestamp_out_of_tolerance' });
    const early = new Date((TS - 31) * 1000);
    expect(verifyV2(SECRET, BODY, header, { webhookId: ID, now: early, toleranceSeconds: 30 })).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('fails for a tampered body, a wrong secret, another id or a moved timestamp', () => {
    const header = signV2(SECRET, ID, TS, BODY);
    const opts = { webhookId: ID, now: NOW };
    expect(verifyV2(SECRET, BODY.replace('José', 'Jose'), header, opts)).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyV2('wrong', BODY, header, opts)).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyV2(SECRET, BODY, header, { ...opts, webhookId: 'evt_other' })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyV2(SECRET, BODY, header.replace(`t=${TS}`, `t=${TS + 1}`), opts)).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it.each([
    ['v1 only', `v1=${'a'.repeat(64)}`],
    ['t only', `t=${TS}`],
    ['two t entries', `t=${TS},t=${TS},v1=${'a'.repeat(64)}`],
    ['non-numeric t', `t=abc,v1=${'a'.repeat(64)}`],
    ['short v1', `t=${TS},v1=abc`],
    ['an entry without =', `t=${TS},v1=${'a'.repeat(64)},junk`],
  ])('rejects a header with %s as malformed', (_label, header) => {
    expect(verifyV2(SECRET, BODY, header, { webhookId: ID, now: NOW })).toEqual({ valid: false, reason: 'header_malformed' });
  });

  it('treats a malformed webhook id as a malformed delivery and a missing header as missing', () => {
    const header = signV2(SECRET, ID, TS, BODY);
    expect(verifyV2(SECRET, BODY, header, { webhookId: 'a.b', now: NOW })).toEqual({ valid: false, reason: 'header_malformed' });
    expect(verifyV2(SECRET, BODY, undefined, { webhookId: ID, now: NOW })).toEqual({ valid: false, reason: 'header_missing' });
  });

  it('ignores unknown entries (future schemes)', () => {
    const header = `${signV2(SECRET, ID, TS, BODY)},v2=whatever`;
    expect(verifyV2(SECRET, BODY, header, { webhookId: ID, now: NOW })).toEqual({ valid: true });
  });

  it('refuses bad signing input with typed errors', () => {
    expect(() => signV2(SECRET, 'id.with.dots', TS, BODY)).toThrow(expect.objectContaining({ code: 'webhook_id_invalid' }));
    expect(() => signV2(SECRET, ID, 1.5, BODY)).toThrow(expect.objectContaining({ code: 'signing_timestamp_invalid' }));
    expect(() => signV2(SECRET, ID, -1, BODY)).toThrow(SigningInputError);
    expect(() => signV2({ current: '' }, ID, TS, BODY)).toThrow(expect.objectContaining({ code: 'signing_secret_invalid' }));
    expect(() => verifyV2(SECRET, BODY, 't=1,v1=a', { webhookId: ID, toleranceSeconds: -1 })).toThrow(SigningInputError);
  });
});

describe('rotation (two secrets)', () => {
  const secrets = { current: SECRET, previous: OLD_SECRET };
  const headers = signatureHeaders(secrets, { id: ID, timestamp: TS, rawBody: BODY });

  it('emits every header, X-Service-Signature single-valued with the newest secret', () => {
    expect(Object.keys(headers).sort()).toEqual([
      'X-Service-Signature',
      'X-Service-Signature-Previous',
      'X-Service-Signature-V2',
      'X-Service-Timestamp',
      'X-Service-Webhook-Id',
    ]);
    expect(headers['X-Service-Webhook-Id']).toBe(ID);
    expect(headers['X-Service-Timestamp']).toBe(String(TS));
    expect(headers['X-Service-Signature']).toBe(signV1(SECRET, BODY));
    expect(headers['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers['X-Service-Signature-Previous']).toBe(signV1(OLD_SECRET, BODY));
  });

  it('V2 carries t, then v1 for the new secret, then v1 for the old one', () => {
    const parsed = parseV2Header(headers['X-Service-Signature-V2']);
    expect(parsed?.timestamp).toBe(TS);
    expect(parsed?.signatures).toHaveLength(2);
    expect(headers['X-Service-Signature-V2']).toBe(`${signV2(SECRET, ID, TS, BODY)},${signV2(OLD_SECRET, ID, TS, BODY).split(',')[1]}`);
  });

  it('a receiver still on the old secret verifies via the previous header and V2', () => {
    expect(verifyV1(OLD_SECRET, BODY, headers['X-Service-Signature'])).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyV1(OLD_SECRET, BODY, headers['X-Service-Signature-Previous'])).toEqual({ valid: true });
    expect(verifyV2(OLD_SECRET, BODY, headers['X-Service-Signature-V2'], { webhookId: ID, now: NOW })).toEqual({ valid: true });
  });

  it('a receiver on the new secret verifies the main header and V2', () => {
    expect(verifyV1(SECRET, BODY, headers['X-Service-Signature'])).toEqual({ valid: true });
    expect(verifyV2(SECRET, BODY, headers['X-Service-Signature-V2'], { webhookId: ID, now: NOW })).toEqual({ valid: true });
  });

  it('a secret that is neither fails everywhere', () => {
    expect(verifyV1('third', BODY, headers['X-Service-Signature-Previous']).valid).toBe(false);
    expect(verifyV2('third', BODY, headers['X-Service-Signature-V2'], { webhookId: ID, now: NOW }).valid).toBe(false);
  });

  it('without a previous secret there is no previous header and one v1 entry', () => {
    const single = signatureHeaders({ current: SECRET }, { id: ID, timestamp: TS, rawBody: BODY });
    expect(single['X-Service-Signature-Previous']).toBeUndefined();
    expect(parseV2Header(single['X-Service-Signature-V2'])?.signatures).toHaveLength(1);
  });
});
