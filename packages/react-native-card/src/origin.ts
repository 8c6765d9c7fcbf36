/**
 * Origin helpers.
 *
 * React Native's global `URL` is an incomplete polyfill on several supported
 * versions (e.g. `protocol`, `host` and `origin` throw "not implemented"), so
 * origins are computed here with a small, strict parser instead.
 */

const HTTPS_URL = /^https:\/\/([^/?#\\]*)([/?#].*)?$/i;
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/i;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u0020\u007f]/;

/**
 * Returns the normalised origin (`https://host[:port]`, lower-case, default
 * port 443 omitted) of an absolute HTTPS URL, or `null` when the value is not
 * an absolute HTTPS URL with a valid host. URLs carrying credentials
 * (`user:pass@`) are rejected.
 */
export function httpsOriginOf(url: unknown): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > 8192) return null;
  if (FORBIDDEN_CHARS.test(url)) return null;
  const match = HTTPS_URL.exec(url);
  if (!match) return null;
  const authority = match[1];
  if (authority.length === 0 || authority.includes('@')) return null;

  let host: string;
  let port: string | undefined;
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    if (end < 0) return null;
    host = authority.slice(0, end + 1);
    const rest = authority.slice(end + 1);
    if (rest.length > 0) {
      if (!rest.startsWith(':')) return null;
      port = rest.slice(1);
    }
    if (!IPV6_LITERAL.test(host)) return null;
  } else {
    const colon = authority.indexOf(':');
    host = colon < 0 ? authority : authority.slice(0, colon);
    port = colon < 0 ? undefined : authority.slice(colon + 1);
    if (host.length > 253 || !HOSTNAME.test(host)) return null;
    if (host.endsWith('.')) host = host.slice(0, -1);
  }

  if (port !== undefined) {
    if (port.length === 0) {
      port = undefined; // "https://host:/" is equivalent to the default port
    } else {
      if (!/^\d{1,5}$/.test(port)) return null;
      const n = Number(port);
      if (n < 1 || n > 65535) return null;
      port = n === 443 ? undefined : String(n);
    }
  }

  return `https://${host.toLowerCase()}${port ? `:${port}` : ''}`;
}

/**
 * Normalises an allow-list entry. An entry must be a bare HTTPS origin
 * (`https://host[:port]`, a single trailing `/` tolerated): no path, query,
 * fragment, credentials or wildcard. Returns `null` otherwise.
 */
export function normaliseAllowedOrigin(entry: unknown): string | null {
  if (typeof entry !== 'string') return null;
  const candidate = entry.endsWith('/') ? entry.slice(0, -1) : entry;
  if (/[/?#]/.test(candidate.replace(/^https:\/\//i, ''))) return null;
  return httpsOriginOf(candidate);
}

/** True when `url` is an HTTPS URL whose origin is exactly one of `allowed`. */
export function isAllowedHttpsUrl(url: unknown, allowed: readonly string[]): boolean {
  const origin = httpsOriginOf(url);
  return origin !== null && allowed.includes(origin);
}
