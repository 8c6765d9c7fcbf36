/**
 * Which destination addresses a delivery may connect to. Only public unicast addresses, unless
 * private targets are allowed (development, tests, or WEBHOOK_ALLOW_PRIVATE_TARGETS=true).
 * Refused: loopback, private (RFC 1918), unique-local (fc00::/7), link-local (169.254/16,
 * fe80::/10, cloud metadata included), carrier-grade NAT, unspecified, multicast, broadcast,
 * reserved and the IPv6 transition ranges that embed an address (6to4, Teredo, NAT64).
 * IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it maps.
 */
import * as ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

export function judgeAddress(address: string, allowPrivate: boolean): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(stripBrackets(address));
  } catch {
    return { allowed: false, range: 'invalid' };
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast' || allowPrivate) return { allowed: true };
  return { allowed: false, range };
}

export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(stripBrackets(host)) && /^[0-9a-fA-F:.[\]]+$/.test(host);
}

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
