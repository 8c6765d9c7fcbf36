import { checkReceiverUrl } from './url-policy';

const PROD = { requireHttps: true, allowPrivateTargets: false };
const DEV = { requireHttps: false, allowPrivateTargets: true };

describe('checkReceiverUrl', () => {
  it('accepts public https URLs everywhere and normalises them', () => {
    expect(checkReceiverUrl(' https://Merchant.example.com/hooks?x=1 ', PROD)).toEqual({
      ok: true,
      url: 'https://merchant.example.com/hooks?x=1',
    });
    expect(checkReceiverUrl('https://93.184.216.34:8443/h', PROD)).toEqual({ ok: true, url: 'https://93.184.216.34:8443/h' });
  });

  it('demands https in production only', () => {
    expect(checkReceiverUrl('http://merchant.example.com/h', PROD)).toEqual({ ok: false, reason: 'url must use https' });
    expect(checkReceiverUrl('http://merchant.example.com/h', DEV).ok).toBe(true);
  });

  it('refuses localhost and private literal addresses unless private targets are allowed', () => {
    for (const url of [
      'https://localhost/h',
      'https://api.localhost/h',
      'https://127.0.0.1/h',
      'https://10.1.2.3/h',
      'https://169.254.169.254/latest',
      'https://[::1]/h',
      'https://[fd00::1]/h',
      'https://[::ffff:192.168.0.1]/h',
    ]) {
      expect(checkReceiverUrl(url, PROD).ok).toBe(false);
    }
    expect(checkReceiverUrl('http://localhost:4000/h', DEV).ok).toBe(true);
    expect(checkReceiverUrl('http://10.0.0.5/h', DEV).ok).toBe(true);
    expect(checkReceiverUrl('https://10.0.0.5/h', { requireHttps: true, allowPrivateTargets: true }).ok).toBe(true);
  });

  it.each([
    ['', 'url is empty'],
    ['not a url', 'url is not an absolute URL'],
    ['ftp://merchant.example.com/h', 'url must use https (or http outside production)'],
    ['https://user:pass@merchant.example.com/h', 'url must not carry a user name or password'],
    ['https://merchant.example.com/h#frag', 'url must not carry a #fragment'],
    [`https://merchant.example.com/${'a'.repeat(2048)}`, 'url is longer than 2048 characters'],
  ])('refuses %j', (url, reason) => {
    expect(checkReceiverUrl(url, DEV)).toEqual({ ok: false, reason });
  });
});
