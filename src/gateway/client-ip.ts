import type { FastifyRequest } from 'fastify';
import { parseIp } from '../../kernel/common/cidr';

/**
 * The caller's IP: the socket address, or the X-Forwarded-For hop fastify accepted from a
 * proxy listed in TRUST_PROXY (fastify's `trustProxy`, set in app.factory). IPv4-mapped IPv6
 * is shown as the IPv4 it carries.
 */
export function clientIp(req: FastifyRequest): string {
  const raw = req.ip ?? req.socket?.remoteAddress ?? '';
  if (raw.startsWith('::ffff:')) {
    const a = parseIp(raw);
    if (a) return a.toString();
  }
  return raw;
}
