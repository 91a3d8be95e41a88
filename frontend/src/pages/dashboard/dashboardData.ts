/**
 * The dashboard's pure logic: periods, the days and months a period covers (in UTC, as the
 * server counts them), trend rows shaped for the charts (every day present, long periods
 * grouped by week) and the figures' formatting. No React, no fetching.
 */
import { toNumber } from '../../lib/format';
import type { DashboardSummary, ProductionTrendDay, PurchasingTrendMonth, SalesTrend, ShippingTrend } from './dashboardApi';

export const PERIODS = ['WTD', 'MTD', 'QTD', 'YTD', 'ALL'] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = 'MTD';

/** The selector's short labels and the longer phrase used in sentences. */
export const PERIOD_LABEL: Record<Period, { short: string; long: string }> = {
  WTD: { short: 'Week', long: 'this week' },
  MTD: { short: 'Month', long: 'this month' },
  QTD: { short: 'Quarter', long: 'this quarter' },
  YTD: { short: 'Year', long: 'this year' },
  ALL: { short: '12 months', long: 'the last 12 months' },
};

/** `?period=qtd` → `QTD`; anything else → the default (MTD). */
export function parsePeriod(text: string | null | undefined): Period {
  const up = (text ?? '').trim().toUpperCase();
  return PERIODS.find((p) => p === up) ?? DEFAULT_PERIOD;
}

// ---------------------------------------------------------------- dates (ISO `YYYY-MM-DD`, UTC)

const DAY_MS = 86_400_000;

function parseIso(date: string): number {
  const [y, m, d] = date.split('-').map((s) => Number.parseInt(s, 10));
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

function toIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Today's date in UTC (the server's "today"). */
export function todayUtc(now: Date = new Date()): string {
  return toIso(now.getTime());
}

export function addDays(date: string, days: number): string {
  return toIso(parseIso(date) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((parseIso(to) - parseIso(from)) / DAY_MS);
}

/** Every date from `start` to `end`, both included (empty when end < start). */
export function eachDay(start: string, end: string): string[] {
  const n = daysBetween(start, end);
  return Array.from({ length: Math.max(0, n + 1) }, (_, i) => addDays(start, i));
}

/** The first day of `period` holding `today`, as the server computes it. */
export function periodStart(period: Period, today: string): string {
  const d = new Date(parseIso(today));
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (period) {
    case 'WTD':
      return addDays(today, -((d.getUTCDay() + 6) % 7));
    case 'MTD':
      return toIso(Date.UTC(y, m, 1));
    case 'QTD':
      return toIso(Date.UTC(y, m - (m % 3), 1));
    case 'YTD':
      return toIso(Date.UTC(y, 0, 1));
    case 'ALL':
      return addDays(today, -365);
  }
}

/** The `days` to ask `/production-trend` for so it covers `period` (1-366). */
export function productionDays(period: Period, today: string): number {
  return Math.min(366, Math.max(1, daysBetween(periodStart(period, today), today) + 1));
}

/** The `months` to ask `/purchasing-trend` for so it covers `period`, this month included (1-60). */
export function purchasingMonths(period: Period, today: string): number {
  const start = periodStart(period, today);
  const months = (Number(today.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + (Number(today.slice(5, 7)) - Number(start.slice(5, 7))) + 1;
  return Math.min(60, Math.max(1, months));
}

// ---------------------------------------------------------------- shaping rows for the charts

/** Periods longer than this are drawn per week, shorter ones per day. */
export const MAX_DAILY_BARS = 100;

export type Granularity = 'day' | 'week';

export function granularityFor(dayCount: number): Granularity {
  return dayCount > MAX_DAILY_BARS ? 'week' : 'day';
}

/** A chart point: its first day, the bucket it stands for, and numbers. */
export type Point<K extends string> = { date: string; granularity: Granularity } & Record<K, number>;

/**
 * One point per day from `start` to `end` (days without a row are zeros), grouped into weeks
 * starting on Monday when the range is long. `pick` reads a row's numbers.
 */
export function fillDays<R extends { date: string }, K extends string>(
  start: string,
  end: string,
  rows: readonly R[],
  keys: readonly K[],
  pick: (row: R) => Record<K, number>,
  granularity: Granularity = granularityFor(daysBetween(start, end) + 1),
): Point<K>[] {
  const byDay = new Map<string, Record<K, number>>();
  for (const r of rows) {
    const prev = byDay.get(r.date);
    const add = pick(r);
    byDay.set(r.date, prev ? sumRecords(keys, prev, add) : add);
  }
  const zero = () => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const out: Point<K>[] = [];
  for (const date of eachDay(start, end)) {
    const values = byDay.get(date) ?? zero();
    const bucket = granularity === 'week' ? weekStart(date, start) : date;
    const last = out[out.length - 1];
    if (last && last.date === bucket) {
      Object.assign(last, sumRecords(keys, last, values));
    } else {
      out.push({ date: bucket, granularity, ...zero(), ...values } as Point<K>);
    }
  }
  return out;
}

function sumRecords<K extends string>(keys: readonly K[], a: Record<K, number>, b: Record<K, number>): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, round2((a[k] ?? 0) + (b[k] ?? 0))])) as Record<K, number>;
}

/** The Monday of `date`'s week, but never before `start` (the first week may be partial). */
function weekStart(date: string, start: string): string {
  const dow = (new Date(parseIso(date)).getUTCDay() + 6) % 7;
  const monday = addDays(date, -dow);
  return daysBetween(start, monday) < 0 ? start : monday;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

const num = (v: string | number | null | undefined): number => toNumber(v) ?? 0;

export type SalesPoint = Point<'sales' | 'payments' | 'orders'>;

/** Sales and payments for every day (or week) of the trend's window. */
export function salesSeries(trend: SalesTrend): SalesPoint[] {
  return fillDays(trend.start_date, trend.end_date, trend.data, ['sales', 'payments', 'orders'] as const, (r) => ({
    sales: num(r.sales),
    payments: num(r.payments),
    orders: num(r.orders),
  }));
}

export type ShippingPoint = Point<'shipped'>;

export function shippingSeries(trend: ShippingTrend): ShippingPoint[] {
  return fillDays(trend.start_date, trend.end_date, trend.data, ['shipped'] as const, (r) => ({ shipped: num(r.shipped) }));
}

export type ProductionPoint = Point<'completed' | 'scrapped' | 'orders'>;

/** Units made and scrapped per day of `period` (the route answers every day, oldest first). */
export function productionSeries(rows: readonly ProductionTrendDay[], period: Period, today: string): ProductionPoint[] {
  return fillDays(periodStart(period, today), today, rows, ['completed', 'scrapped', 'orders'] as const, (r) => ({
    completed: num(r.quantity_completed),
    scrapped: num(r.quantity_scrapped),
    orders: num(r.orders_completed),
  }));
}

export interface PurchasingPoint {
  month: string;
  label: string;
  spend: number;
  orders: number;
}

/** Spend per month, oldest first, labelled `Nov` (or `Nov 2025` when the months span two years). */
export function purchasingSeries(rows: readonly PurchasingTrendMonth[]): PurchasingPoint[] {
  const sorted = [...rows].sort((a, b) => a.period.localeCompare(b.period));
  const years = new Set(sorted.map((r) => r.period.slice(0, 4)));
  return sorted.map((r) => ({
    month: r.period,
    label: formatMonth(r.period, years.size > 1),
    spend: num(r.total),
    orders: r.orders,
  }));
}

/** Whether a series has anything but zeros in `keys`. */
export function hasActivity<T extends object>(rows: readonly T[], keys: readonly (keyof T)[]): boolean {
  return rows.some((r) => keys.some((k) => Number(r[k]) !== 0));
}

export function total<T extends object>(rows: readonly T[], key: keyof T): number {
  return round2(rows.reduce((s, r) => s + (Number(r[key]) || 0), 0));
}

// ---------------------------------------------------------------- orders by state

export interface StateSlice {
  key: 'pending' | 'confirmed' | 'in_production' | 'ready_to_ship';
  label: string;
  value: number;
  color: string;
  to: string;
}

/**
 * The open orders by state, in the order they move. The summary counts confirmed, in
 * production and ready to ship; `inventory.active_orders` is those plus the pending ones.
 */
export function orderStates(summary: DashboardSummary): StateSlice[] {
  const o = summary.orders;
  const pending = Math.max(0, summary.inventory.active_orders - o.confirmed - o.in_production - o.ready_to_ship);
  return [
    { key: 'pending', label: 'Pending', value: pending, color: '#fbbf24', to: '/admin/orders?status=pending' },
    { key: 'confirmed', label: 'Confirmed', value: o.confirmed, color: '#a5b4fc', to: '/admin/orders?status=confirmed' },
    { key: 'in_production', label: 'In production', value: o.in_production, color: '#4f46e5', to: '/admin/orders?status=in_production' },
    { key: 'ready_to_ship', label: 'Ready to ship', value: o.ready_to_ship, color: '#059669', to: '/admin/orders?status=ready_to_ship' },
  ];
}

// ---------------------------------------------------------------- formatting

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-11-03` → `Nov 3`. */
export function formatDay(date: string): string {
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  return `${MONTHS[m - 1] ?? '?'} ${d}`;
}

/** `2026-11` → `Nov`, or `Nov 2026` with the year. */
export function formatMonth(month: string, withYear = false): string {
  const name = MONTHS[Number(month.slice(5, 7)) - 1] ?? month;
  return withYear ? `${name} ${month.slice(0, 4)}` : name;
}

/** A point's tooltip title: `Nov 3`, or `Week of Nov 3, 2026` (weeks are drawn for periods that may span two years). */
export function pointTitle(p: { date: string; granularity: Granularity }): string {
  return p.granularity === 'week' ? `Week of ${formatDay(p.date)}, ${p.date.slice(0, 4)}` : formatDay(p.date);
}

/** `2026-11-01`..`2026-11-24` → `Nov 1 – Nov 24, 2026`. */
export function formatRange(start: string, end: string): string {
  const sy = start.slice(0, 4);
  const ey = end.slice(0, 4);
  return sy === ey ? `${formatDay(start)} – ${formatDay(end)}, ${ey}` : `${formatDay(start)}, ${sy} – ${formatDay(end)}, ${ey}`;
}

/** Axis money: `$0`, `$950`, `$1.2k`, `$15k`, `$1.5M`. */
export function compactMoney(n: number): string {
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  if (a >= 1_000_000) return `${sign}$${trim(a / 1_000_000)}M`;
  if (a >= 1_000) return `${sign}$${trim(a / 1_000)}k`;
  return `${sign}$${Math.round(a)}`;
}

function trim(n: number): string {
  return n >= 10 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '');
}

/** `42.857` → `42.9%`. */
export function formatPercent(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return `${(Math.round(n * 10) / 10).toFixed(1)}%`;
}

/** `1` → `1 order`, `3` → `3 orders`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** Greeting by the local hour. */
export function greeting(now: Date = new Date()): string {
  const h = now.getHours();
  if (h < 12) return 'Good morning';
  if (h < 18) return 'Good afternoon';
  return 'Good evening';
}
