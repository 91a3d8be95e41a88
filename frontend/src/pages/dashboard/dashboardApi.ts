/**
 * Dashboard calls (CONTRACT 5.1): the summary cards, the sales, shipping, production and
 * purchasing trends, the profit of what shipped and the latest orders. Every type comes
 * from the generated document. Query keys: `queryKeys.dashboard`.
 */
import { api } from '../../api/client';
import type { Api } from '../../api/model';
import type { Period } from './dashboardData';

export type DashboardSummary = Api<'/admin/dashboard/summary', 'get'>;
export type SalesTrend = Api<'/admin/dashboard/sales-trend/', 'get'>;
export type SalesTrendDay = SalesTrend['data'][number];
export type ShippingTrend = Api<'/admin/dashboard/shipping-trend', 'get'>;
export type ShippingTrendDay = ShippingTrend['data'][number];
export type ProfitSummary = Api<'/admin/dashboard/profit-summary', 'get'>;
export type ProductionTrendReport = Api<'/admin/dashboard/production-trend', 'get'>;
export type ProductionTrendDay = ProductionTrendReport['data'][number];
export type PurchasingTrendReport = Api<'/admin/dashboard/purchasing-trend', 'get'>;
export type PurchasingTrendMonth = PurchasingTrendReport['months'][number];
export type RecentOrder = Api<'/admin/dashboard/recent-orders', 'get'>[number];

export const dashboardApi = {
  summary: (signal?: AbortSignal) => api.get<DashboardSummary>('/admin/dashboard/summary', undefined, signal),
  salesTrend: (period: Period, signal?: AbortSignal) => api.get<SalesTrend>('/admin/dashboard/sales-trend/', { period }, signal),
  shippingTrend: (period: Period, signal?: AbortSignal) => api.get<ShippingTrend>('/admin/dashboard/shipping-trend', { period }, signal),
  profitSummary: (period: Period, signal?: AbortSignal) => api.get<ProfitSummary>('/admin/dashboard/profit-summary', { period }, signal),
  /** Completed production per day over the last `days` days (the route takes days, not a period). */
  productionTrend: async (days: number, signal?: AbortSignal): Promise<ProductionTrendDay[]> =>
    (await api.get<ProductionTrendReport>('/admin/dashboard/production-trend', { days }, signal)).data,
  /** Money placed with vendors per month, this one included (the route takes months). */
  purchasingTrend: async (months: number, signal?: AbortSignal): Promise<PurchasingTrendMonth[]> =>
    (await api.get<PurchasingTrendReport>('/admin/dashboard/purchasing-trend', { months }, signal)).months,
  recentOrders: (limit: number, signal?: AbortSignal) => api.get<RecentOrder[]>('/admin/dashboard/recent-orders', { limit }, signal),
};
