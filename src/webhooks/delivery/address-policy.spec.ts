import { isIpLiteral, judgeAddress } from './address-policy';

describe('judgeAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['2002:7f00:1::1', '6to4'],
    ['64:ff9b::a00:1', 'rfc6052'],
  ])('refuses %s (%s) unless private targets are allowed', (address, range) => {
    expect(judgeAddress(address, false)).toEqual({ allowed: false, range });
    expect(judgeAddress(address, true)).toEqual({ allowed: true });
  });

  it.each(['8.8.8.8', '203.0.114.1', '2606:4700::1111', '::ffff:8.8.4.4'])('accepts the public address %s', (address) => {
    expect(judgeAddress(address, false)).toEqual({ allowed: true });
  });

  it('refuses what is not an address', () => {
    expect(judgeAddress('example.com', true)).toEqual({ allowed: false, range: 'invalid' });
  });

  it('tells literal addresses from names', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('localhost')).toBe(false);
    expect(isIpLiteral('merchant.example.com')).toBe(false);
    expect(isIpLiteral('0x7f.1')).toBe(false);
  });
});
