import type { SpoolStatus } from './spoolApi';

export function statusTone(s: SpoolStatus): 'success' | 'neutral' | 'warning' | 'danger' {
  return s === 'active' ? 'success' : s === 'empty' ? 'neutral' : s === 'expired' ? 'warning' : 'danger';
}

/** A calendar date ("2026-11-23" or a timestamp) without the time of day. */
export function formatDate(v: string | null | undefined): string {
  if (!v) return '—';
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00` : v);
  return Number.isNaN(d.getTime()) ? v : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}
