import { EN } from './en';
import { Catalogue, MessageKey, PT_BR } from './pt-BR';

export type { Catalogue, MessageKey } from './pt-BR';
export type Locale = 'pt-BR' | 'en';
export const LOCALES: readonly Locale[] = ['pt-BR', 'en'];
export const TIME_ZONE = 'America/Sao_Paulo';

const CATALOGUES: Record<Locale, Catalogue> = { 'pt-BR': PT_BR, en: EN };

/** `pt`, `pt-BR`, `en`, `en-US`… to one of ours, or null. */
function match(tag: string): Locale | null {
  const t = tag.trim().toLowerCase();
  if (t === 'pt' || t.startsWith('pt-')) return 'pt-BR';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

/**
 * The page's language: an explicit choice (`?lang=en` on the link) wins; then the browser's
 * `Accept-Language`, best q first; Brazilian Portuguese when neither names one we have.
 */
export function negotiateLocale(acceptLanguage: string | undefined | null, explicit?: string | null): Locale {
  if (explicit) {
    const m = match(explicit);
    if (m) return m;
  }
  const ranked = String(acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranked) {
    const m = match(r.tag);
    if (m) return m;
  }
  return 'pt-BR';
}

export function catalogue(locale: Locale): Catalogue {
  return CATALOGUES[locale];
}

/** Fills `{name}` markers. */
export function fill(text: string, vars: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

/** Messages of a locale with the formats payers read: money, calendar dates, moments in São Paulo. */
export class I18n {
  readonly m: Catalogue;
  private readonly money: Intl.NumberFormat;
  private readonly day: Intl.DateTimeFormat;
  private readonly moment: Intl.DateTimeFormat;

  /** The Intl tag: English pages use British order (14/12/2026), the order Brazilian documents use. */
  readonly intl: string;

  constructor(readonly locale: Locale) {
    this.m = catalogue(locale);
    this.intl = locale === 'en' ? 'en-GB' : 'pt-BR';
    this.money = new Intl.NumberFormat(this.intl, { style: 'currency', currency: 'BRL' });
    this.day = new Intl.DateTimeFormat(this.intl, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
    this.moment = new Intl.DateTimeFormat(this.intl, {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: TIME_ZONE,
      timeZoneName: 'short',
    });
  }

  t(key: MessageKey, vars?: Record<string, string | number>): string {
    return fill(this.m[key], vars);
  }

  /** `R$ 1.234,56` (pt-BR) or `R$1,234.56` (en); a plain space, never U+00A0, so texts compare simply. */
  brl(cents: number): string {
    return this.money.format(cents / 100).replace(/\u00a0/g, ' ');
  }

  /** A calendar date (`2026-12-14`) as `14/12/2026`; en uses day/month order too (a Brazilian date). */
  date(isoDay: string): string {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDay)) return isoDay;
    return this.day.format(new Date(`${isoDay}T12:00:00Z`));
  }

  /** A moment in São Paulo time: `11/12/2026, 00:31 BRT`. */
  dateTime(at: Date | string): string {
    return this.moment.format(typeof at === 'string' ? new Date(at) : at).replace(/\u00a0/g, ' ');
  }

  /** What a payer reads for a payment's status: `Pago com cartão`, never `ACCEPTED`. */
  status(method: string, status: string): string {
    const key = `st_${method}_${status}` as MessageKey;
    return this.m[key] ?? this.m.st_unknown;
  }

  /** The client script's messages and locale, for a JSON block in the page. */
  clientBundle(keys: readonly MessageKey[]): { locale: Locale; intl: string; m: Record<string, string> } {
    return { locale: this.locale, intl: this.intl, m: Object.fromEntries(keys.map((k) => [k, this.m[k]])) };
  }
}

const CACHE = new Map<Locale, I18n>();
export function i18n(locale: Locale): I18n {
  let v = CACHE.get(locale);
  if (!v) CACHE.set(locale, (v = new I18n(locale)));
  return v;
}

/** The i18n of a request: `?lang=` then `Accept-Language`. */
export function i18nFor(acceptLanguage: string | undefined | null, explicit?: string | null): I18n {
  return i18n(negotiateLocale(acceptLanguage, explicit));
}
