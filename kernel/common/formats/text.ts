/** C0 controls and DEL, except tab, line feed and carriage return (multi-line text keeps those). */
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Half of a surrogate pair alone: not a character, and not encodable as UTF-8. */
export const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
