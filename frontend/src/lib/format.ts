import type { Decimal, ImportRowError } from '../api/model';

export function toNumber(v: Decimal | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number.parseFloat(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * The company's display currency and locale (Settings → Currency and format), applied by the
 * app shell before any page renders. Until then (and in unit tests) the browser's locale and
 * US dollars.
 */
let locale: string | undefined;
let currency = 'USD';
let money = new Intl.NumberFormat(undefined, { style: 'currency', currency });
let qty = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

/** Uses `next` for money, quantities and dates; an unknown code or locale keeps what was. */
export function setDisplayFormat(next: { currency?: string | null; locale?: string | null }): void {
  const nextCurrency = next.currency?.trim().toUpperCase() || 'USD';
  const nextLocale = next.locale?.trim().replace('_', '-') || undefined;
  if (nextCurrency === currency && nextLocale === locale) return;
  try {
    money = new Intl.NumberFormat(nextLocale, { style: 'currency', currency: nextCurrency });
    qty = new Intl.NumberFormat(nextLocale, { maximumFractionDigits: 3 });
    currency = nextCurrency;
    locale = nextLocale;
  } catch {
    // A code the browser does not know: keep the last good format.
  }
}

/** The display locale (`undefined`: the browser's). */
export const displayLocale = (): string | undefined => locale;
/** The display currency (ISO 4217). */
export const displayCurrency = (): string => currency;

export function formatMoney(v: Decimal | null | undefined): string {
  const n = toNumber(v);
  return n === null ? '—' : money.format(n);
}

export function formatQty(v: Decimal | null | undefined, unit?: string | null): string {
  const n = toNumber(v);
  if (n === null) return '—';
  return unit ? `${qty.format(n)} ${unit}` : qty.format(n);
}

export function formatDateTime(v: string | null | undefined): string {
  if (!v) return '—';
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? v : d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A calendar date (`YYYY-MM-DD` or a timestamp) in the display locale, read in UTC. */
export function formatDate(v: string | null | undefined): string {
  if (!v) return '—';
  const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
  return Number.isNaN(d.getTime()) ? v : d.toLocaleDateString(locale, { dateStyle: 'medium', timeZone: 'UTC' });
}

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/**
 * How long ago (or how soon) a moment is, in its largest whole unit: "3 hours ago",
 * "in 2 days", "yesterday"; under a minute is "just now" (past) or "in under a minute".
 */
export function formatRelativeTime(v: string | null | undefined, { now = Date.now(), locale: asked }: { now?: number; locale?: string } = {}): string {
  if (!v) return '—';
  const at = new Date(v).getTime();
  if (Number.isNaN(at)) return v;
  const seconds = (at - now) / 1000;
  const rtf = new Intl.RelativeTimeFormat(asked ?? locale, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return seconds < 0 ? 'just now' : 'in under a minute';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function humanize(code: string | null | undefined): string {
  if (!code) return '—';
  const s = code.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** One line for a per-row import error, whatever shape the server used. */
export function formatImportError(e: ImportRowError): string {
  if (typeof e === 'string') return e;
  const row = e.row ?? (e as { row_number?: number }).row_number ?? (e as { line?: number }).line;
  const text =
    e.reason ?? e.error ?? e.message ?? (e as { detail?: string }).detail ?? (e as { errors?: unknown }).errors ?? JSON.stringify(e);
  const msg = Array.isArray(text) ? text.join('; ') : String(text);
  return row !== undefined ? `Row ${row}: ${msg}` : msg;
}
