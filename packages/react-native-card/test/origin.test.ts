import { httpsOriginOf, isAllowedHttpsUrl, normaliseAllowedOrigin } from '../src/origin';

describe('httpsOriginOf', () => {
  it.each([
    ['https://cards.example.com', 'https://cards.example.com'],
    ['https://cards.example.com/', 'https://cards.example.com'],
    ['https://Cards.Example.com/a/b?c=d#e', 'https://cards.example.com'],
    ['https://cards.example.com:443/x', 'https://cards.example.com'],
    ['https://cards.example.com:8443/x', 'https://cards.example.com:8443'],
    ['https://cards.example.com.:8443', 'https://cards.example.com:8443'],
    ['https://cards.example.com?x=1', 'https://cards.example.com'],
    ['https://127.0.0.1:9443/x', 'https://127.0.0.1:9443'],
    ['https://[::1]:9443/x', 'https://[::1]:9443'],
    ['HTTPS://xn--bcher-kva.example/', 'https://xn--bcher-kva.example'],
  ])('%s -> %s', (url, origin) => {
    expect(httpsOriginOf(url)).toBe(origin);
  });

  it.each([
    'http://cards.example.com',
    'https:/cards.example.com',
    'https://',
    'https://user@cards.example.com',
    'https://a\\b.example.com',
    'https://cards.example.com:0',
    'https://cards.example.com:65536',
    'https://cards.example.com:12a',
    'https://-bad.example.com',
    'https://bad_.example.com',
    'https://[zz::1]/',
    ' https://cards.example.com',
    'https://cards.example.com/\n',
    'wss://cards.example.com',
    '//cards.example.com',
  ])('rejects %p', (url) => {
    expect(httpsOriginOf(url)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(httpsOriginOf(undefined)).toBeNull();
    expect(httpsOriginOf(null)).toBeNull();
    expect(httpsOriginOf({ href: 'https://cards.example.com' })).toBeNull();
  });
});

describe('normaliseAllowedOrigin', () => {
  it('accepts bare https origins', () => {
    expect(normaliseAllowedOrigin('https://cards.example.com')).toBe('https://cards.example.com');
    expect(normaliseAllowedOrigin('https://cards.example.com/')).toBe('https://cards.example.com');
    expect(normaliseAllowedOrigin('https://ACS.bank.example:8443')).toBe('https://acs.bank.example:8443');
  });

  it.each([
    'http://cards.example.com',
    'https://*.example.com',
    'https://cards.example.com/path',
    'https://cards.example.com?x=1',
    'https://cards.example.com#f',
    'https://cards.example.com//',
    'cards.example.com',
    '*',
    '',
  ])('rejects %p', (entry) => {
    expect(normaliseAllowedOrigin(entry)).toBeNull();
  });
});

describe('isAllowedHttpsUrl', () => {
  const allowed = ['https://cards.example.com', 'https://acs.bank.example:8443'];
  it('matches origins exactly', () => {
    expect(isAllowedHttpsUrl('https://cards.example.com/x', allowed)).toBe(true);
    expect(isAllowedHttpsUrl('https://acs.bank.example:8443/c', allowed)).toBe(true);
    expect(isAllowedHttpsUrl('https://acs.bank.example/c', allowed)).toBe(false);
    expect(isAllowedHttpsUrl('https://cards.example.com.evil.net/x', allowed)).toBe(false);
    expect(isAllowedHttpsUrl('http://cards.example.com/x', allowed)).toBe(false);
  });
});
