import * as ipaddr from 'ipaddr.js';

export type ParsedCidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses `203.0.113.0/24`, `2001:db8::/32` or a bare address (a /32 or /128). */
export function parseCidr(s: string): ParsedCidr | null {
  try {
    if (s.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(s);
      return [addr, bits];
    }
    const a = ipaddr.parse(s);
    return [a, a.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/** Canonical text of a CIDR (network address, explicit prefix). */
export function normalizeCidr(s: string): string | null {
  const p = parseCidr(s.trim());
  if (!p) return null;
  const [addr, bits] = p;
  const net =
    addr.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${addr}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${addr}/${bits}`);
  return `${net.toString()}/${bits}`;
}

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is matched as the IPv4 address it carries. */
export function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const a = ipaddr.parse(ip);
    if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) return (a as ipaddr.IPv6).toIPv4Address();
    return a;
  } catch {
    return null;
  }
}

export function ipInCidrs(ip: string, cidrs: readonly ParsedCidr[]): boolean {
  const a = parseIp(ip);
  if (!a) return false;
  return cidrs.some(([net, bits]) => net.kind() === a.kind() && a.match(net as any, bits));
}
