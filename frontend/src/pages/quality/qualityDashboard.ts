/** The quality dashboard's small rules: periods, colours, figures. */
import type { QualityMetrics, ScrapByReason, TrendDay } from './qualityApi';

export type { ScrapByReason, TrendDay };

export const QUALITY_COLORS = { yield: '#16a34a', scrap: '#f87171', inspections: '#94a3b8' } as const;

export const PERIOD_DAYS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIOD_DAYS)[number];

/** `?days=` of the address: 7, 30 (default) or 90. */
export function parseDays(v: string | null): PeriodDays {
  const n = Number(v);
  return (PERIOD_DAYS as readonly number[]).includes(n) ? (n as PeriodDays) : 30;
}

/** `2026-11-28` → `Nov 28`. */
export function shortDay(day: string): string {
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

export const percent = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${Number(v.toFixed(1))}%`);

/** Good at 95 % and up, a worry under 80 %. */
export function yieldTone(v: number | null): 'good' | 'warn' | 'bad' | null {
  if (v === null) return null;
  return v >= 95 ? 'good' : v >= 80 ? 'warn' : 'bad';
}

/** Whether a trend has anything to draw. */
export function hasTrend(rows: readonly TrendDay[] | undefined): boolean {
  return (rows ?? []).some((r) => r.inspections > 0 || r.scrap_cost > 0);
}

/** `12 passed · 3 failed of 15 first inspections`. */
export function yieldNote(m: QualityMetrics): string {
  if (m.total_inspections === 0) return 'No first inspections in the period';
  return `${m.passed} passed · ${m.failed} failed of ${m.total_inspections} first inspection${m.total_inspections === 1 ? '' : 's'}`;
}
