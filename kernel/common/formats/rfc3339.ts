/** RFC 3339 UTC with `Z` and whole seconds, as the spec shows timestamps. */
export function rfc3339(d: Date | string): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
