/**
 * Origins allowed to frame the hosted card page (CSP `frame-ancestors`) and to receive its
 * messages (`postMessage` target). Exact origins only: `https://host[:port]`, or `http://` for a
 * loopback host (local development). No path, query, credentials or wildcard: a message target
 * must be one exact origin, and a wildcard would let any subdomain frame the card form.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function normalizeOrigin(entry: unknown): string | null {
  if (typeof entry !== 'string' || entry.length === 0 || entry.length > 200) return null;
  const candidate = entry.endsWith('/') ? entry.slice(0, -1) : entry;
  // scheme://host[:port] and nothing else (the URL parser alone would tolerate more)
  if (!/^https?:\/\/([A-Za-z0-9.-]+|\[::1\])(:\d{1,5})?$/.test(candidate)) return null;
  let u: URL;
  try {
    u = new URL(candidate);
  } catch {
    return null;
  }
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return null;
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.has(u.hostname))) return null;
  return u.origin;
}

/** The CSP `frame-ancestors` value for a list of normalized origins ('none' when empty). */
export function frameAncestorsDirective(origins: readonly string[]): string {
  return origins.length ? `frame-ancestors ${origins.join(' ')}` : `frame-ancestors 'none'`;
}
