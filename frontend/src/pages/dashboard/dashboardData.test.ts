import { describe, expect, it } from 'vitest';
import type { DashboardSummary, SalesTrend } from './dashboardApi';
import {
  compactMoney,
  eachDay,
  fillDays,
  formatDay,
  formatMonth,
  formatPercent,
  formatRange,
  granularityFor,
  hasActivity,
  orderStates,
  parsePeriod,
  periodStart,
  plural,
  pointTitle,
  productionDays,
  productionSeries,
  purchasingMonths,
  purchasingSeries,
  salesSeries,
  shippingSeries,
  todayUtc,
  total,
} from './dashboardData';

const salesTrend = (over: Partial<SalesTrend> = {}): SalesTrend => ({
  period: 'MTD',
  start_date: '2026-11-01',
  end_date: '2026-11-05',
  total_revenue: 137.5,
  total_orders: 3,
  total_payments: 50,
  total_payment_count: 1,
  data: [
    { date: '2026-11-02', total: 100, sales: 100, orders: 2, payments: 0, payment_count: 0 },
    { date: '2026-11-04', total: 37.5, sales: 37.5, orders: 1, payments: 50, payment_count: 1 },
  ],
  ...over,
});

describe('periods', () => {
  it('parses any case and falls back to MTD', () => {
    expect(parsePeriod('qtd')).toBe('QTD');
    expect(parsePeriod(' ALL ')).toBe('ALL');
    expect(parsePeriod('decade')).toBe('MTD');
    expect(parsePeriod(null)).toBe('MTD');
  });

  it('starts where the server starts (Monday, 1st of month, quarter, year, 365 days back)', () => {
    // 2026-11-24 is a Tuesday.
    expect(periodStart('WTD', '2026-11-24')).toBe('2026-11-23');
    expect(periodStart('WTD', '2026-11-23')).toBe('2026-11-23');
    expect(periodStart('WTD', '2026-11-29')).toBe('2026-11-23'); // Sunday
    expect(periodStart('MTD', '2026-11-24')).toBe('2026-11-01');
    expect(periodStart('QTD', '2026-11-24')).toBe('2026-10-01');
    expect(periodStart('QTD', '2026-03-31')).toBe('2026-01-01');
    expect(periodStart('YTD', '2026-11-24')).toBe('2026-01-01');
    expect(periodStart('ALL', '2026-11-24')).toBe('2025-11-24');
  });

  it('asks production for the days and purchasing for the months of the period', () => {
    expect(productionDays('WTD', '2026-11-24')).toBe(2);
    expect(productionDays('MTD', '2026-11-24')).toBe(24);
    expect(productionDays('MTD', '2026-11-01')).toBe(1);
    expect(productionDays('QTD', '2026-11-24')).toBe(55);
    expect(productionDays('ALL', '2026-11-24')).toBe(366);
    expect(purchasingMonths('WTD', '2026-11-24')).toBe(1);
    expect(purchasingMonths('WTD', '2026-12-01')).toBe(2); // the week began in November
    expect(purchasingMonths('MTD', '2026-11-24')).toBe(1);
    expect(purchasingMonths('QTD', '2026-11-24')).toBe(2);
    expect(purchasingMonths('YTD', '2026-11-24')).toBe(11);
    expect(purchasingMonths('ALL', '2026-11-24')).toBe(13);
  });

  it('reads today in UTC', () => {
    expect(todayUtc(new Date('2026-11-24T23:30:00-05:00'))).toBe('2026-11-25');
  });
});

describe('days and weeks', () => {
  it('lists every day, across month ends and leap days', () => {
    expect(eachDay('2028-02-27', '2028-03-01')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(eachDay('2026-11-05', '2026-11-04')).toEqual([]);
  });

  it('fills the days without activity with zeros and keeps the order', () => {
    const s = salesSeries(salesTrend());
    expect(s.map((p) => p.date)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']);
    expect(s.map((p) => p.sales)).toEqual([0, 100, 0, 37.5, 0]);
    expect(s.map((p) => p.payments)).toEqual([0, 0, 0, 50, 0]);
    expect(s.every((p) => p.granularity === 'day')).toBe(true);
    expect(total(s, 'sales')).toBe(137.5);
  });

  it('adds rows that share a day and ignores rows outside the window', () => {
    const s = fillDays(
      '2026-11-01',
      '2026-11-02',
      [
        { date: '2026-11-01', n: 1 },
        { date: '2026-11-01', n: 2.005 },
        { date: '2026-10-31', n: 99 },
      ],
      ['n'] as const,
      (r) => ({ n: r.n }),
    );
    expect(s.map((p) => p.n)).toEqual([3.01, 0]);
  });

  it('groups long periods by week from Monday, the first week partial', () => {
    expect(granularityFor(100)).toBe('day');
    expect(granularityFor(101)).toBe('week');
    const trend = salesTrend({
      period: 'YTD',
      start_date: '2026-01-01', // a Thursday
      end_date: '2026-11-24',
      data: [
        { date: '2026-01-02', total: 10, sales: 10, orders: 1, payments: 0, payment_count: 0 },
        { date: '2026-01-05', total: 20, sales: 20, orders: 1, payments: 5, payment_count: 1 },
        { date: '2026-01-11', total: 30, sales: 30, orders: 2, payments: 0, payment_count: 0 },
        { date: '2026-11-24', total: 7, sales: 7, orders: 1, payments: 0, payment_count: 0 },
      ],
    });
    const s = salesSeries(trend);
    expect(s[0]).toMatchObject({ date: '2026-01-01', granularity: 'week', sales: 10, orders: 1 });
    expect(s[1]).toMatchObject({ date: '2026-01-05', sales: 50, orders: 3, payments: 5 });
    expect(s[s.length - 1]).toMatchObject({ date: '2026-11-23', sales: 7 });
    expect(s).toHaveLength(48); // Jan 1-4, then 47 Mondays from Jan 5 to Nov 23
    expect(total(s, 'sales')).toBe(67);
    expect(pointTitle(s[1]!)).toBe('Week of Jan 5, 2026');
    expect(pointTitle({ date: '2026-01-05', granularity: 'day' })).toBe('Jan 5');
  });

  it('shapes the shipping, production and purchasing trends', () => {
    const ship = shippingSeries({ period: 'WTD', start_date: '2026-11-23', end_date: '2026-11-24', total_shipped: 2, data: [{ date: '2026-11-24', shipped: 2 }] });
    expect(ship.map((p) => [p.date, p.shipped])).toEqual([
      ['2026-11-23', 0],
      ['2026-11-24', 2],
    ]);
    const prod = productionSeries(
      [
        { date: '2026-11-23', completed: 1, units: '4.000', orders_completed: 1, quantity_completed: '4.000', quantity_scrapped: '1' },
        { date: '2026-11-24', completed: 0, units: '0', orders_completed: 0, quantity_completed: '0', quantity_scrapped: '0' },
      ],
      'WTD',
      '2026-11-24',
    );
    expect(prod.map((p) => [p.completed, p.scrapped, p.orders])).toEqual([
      [4, 1, 1],
      [0, 0, 0],
    ]);
    expect(hasActivity(prod, ['completed', 'scrapped'])).toBe(true);
    expect(hasActivity(prod.slice(1), ['completed', 'scrapped'])).toBe(false);
    const buy = purchasingSeries([
      { period: '2026-01', orders: 1, total: '20.50' },
      { period: '2025-12', orders: 2, total: '100' },
    ]);
    expect(buy).toEqual([
      { month: '2025-12', label: 'Dec 2025', spend: 100, orders: 2 },
      { month: '2026-01', label: 'Jan 2026', spend: 20.5, orders: 1 },
    ]);
    expect(purchasingSeries([{ period: '2026-11', orders: 0, total: '0' }])[0]?.label).toBe('Nov');
  });
});

describe('orders by state', () => {
  it('lists the open states with links to the filtered orders', () => {
    const summary: DashboardSummary = {
      quotes: { pending: 1, this_week: 1 },
      orders: { confirmed: 2, in_production: 3, ready_to_ship: 4, overdue: 1 },
      production: { in_progress: 0, scheduled: 0, ready_to_start: 0, draft: 0, released: 0, complete_today: 0 },
      boms: { needs_review: 0, active: 0 },
      inventory: { low_stock_count: 0, active_orders: 9 },
      revenue: { last_30_days: 10, orders_last_30_days: 1 },
    };
    expect(orderStates(summary).map((s) => [s.label, s.value, s.to])).toEqual([
      ['Pending', 0, '/admin/orders?status=pending'],
      ['Confirmed', 2, '/admin/orders?status=confirmed'],
      ['In production', 3, '/admin/orders?status=in_production'],
      ['Ready to ship', 4, '/admin/orders?status=ready_to_ship'],
    ]);
    // Pending orders are the open ones the other states leave.
    const withPending = orderStates({ ...summary, inventory: { low_stock_count: 0, active_orders: 12 } });
    expect(withPending[0]?.value).toBe(3);
    expect(withPending.reduce((n, s) => n + s.value, 0)).toBe(12);
  });
});

describe('formatting', () => {
  it('formats days, months and ranges', () => {
    expect(formatDay('2026-11-03')).toBe('Nov 3');
    expect(formatMonth('2026-02')).toBe('Feb');
    expect(formatMonth('2026-02', true)).toBe('Feb 2026');
    expect(formatRange('2026-11-01', '2026-11-24')).toBe('Nov 1 – Nov 24, 2026');
    expect(formatRange('2025-11-24', '2026-11-24')).toBe('Nov 24, 2025 – Nov 24, 2026');
  });

  it('formats axis money, percents and counts', () => {
    expect(compactMoney(0)).toBe('$0');
    expect(compactMoney(950.4)).toBe('$950');
    expect(compactMoney(1234)).toBe('$1.2k');
    expect(compactMoney(15_400)).toBe('$15k');
    expect(compactMoney(1_500_000)).toBe('$1.5M');
    expect(compactMoney(-2000)).toBe('-$2k');
    expect(formatPercent(42.857)).toBe('42.9%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(Number.NaN)).toBe('—');
    expect(plural(1, 'order')).toBe('1 order');
    expect(plural(1200, 'order')).toBe('1,200 orders');
  });
});
