/**
 * `<input type="datetime-local">` speaks local wall-clock text without a zone
 * (`2030-01-10T08:00`); the API speaks instants. These two convert between them in the
 * browser's zone.
 */

/** The instant a `datetime-local` value names, as ISO text; null when empty or invalid. */
export function localInputToIso(v: string): string | null {
  if (!v.trim()) return null;
  const t = new Date(v);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

/** An instant (a `Date` or ISO text) as a `datetime-local` value to the minute; '' for none. */
export function isoToLocalInput(at: Date | string | null | undefined): string {
  if (!at) return '';
  const d = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
