/**
 * Registration rules for a receiver URL. Production: `https://` only, and no name or literal
 * address that is obviously private (`localhost`, 10.x, 127.x, …) unless private targets are
 * allowed. Outside production `http://localhost` and private addresses are fine. Either way the
 * delivery worker checks the RESOLVED address again at send time (see ../delivery/address-policy):
 * a public name that resolves to a private address is refused there.
 */
import { isIpLiteral, judgeAddress, stripBrackets } from '../delivery/address-policy';

export interface UrlPolicy {
  requireHttps: boolean;
  allowPrivateTargets: boolean;
}

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_URL_LENGTH = 2048;

export function checkReceiverUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) return { ok: false, reason: 'url is empty' };
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: `url is longer than ${MAX_URL_LENGTH} characters` };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { ok: false, reason: 'url is not an absolute URL' };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, reason: 'url must use https (or http outside production)' };
  if (policy.requireHttps && u.protocol !== 'https:') return { ok: false, reason: 'url must use https' };
  if (u.username || u.password) return { ok: false, reason: 'url must not carry a user name or password' };
  if (u.hash) return { ok: false, reason: 'url must not carry a #fragment' };
  if (!u.hostname) return { ok: false, reason: 'url has no host' };
  if (!policy.allowPrivateTargets) {
    const host = u.hostname.toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, reason: 'url must not point to localhost' };
    if (isIpLiteral(host)) {
      const v = judgeAddress(stripBrackets(host), false);
      if (!v.allowed) return { ok: false, reason: `url points to a ${v.range} address` };
    }
  }
  return { ok: true, url: u.toString() };
}
