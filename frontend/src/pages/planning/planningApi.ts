/**
 * Planning calls (issue 32, FilaOps's `/mrp/*` and `/buy-list`): MRP runs and their
 * exceptions, planned orders (firm, release, cancel), an item's projected supply and demand,
 * and the live buy list. The pure helpers below shape the answers for the page (and are
 * tested on their own in planning.test.ts).
 */
import { z } from 'zod';
import { api } from '../../api/client';
import type { Api, ListQuery, RequestBody } from '../../api/model';
import type { ListRequest } from '../../lib/useServerList';
import { addDays, eachDay } from '../dashboard/dashboardData';

export type MrpRun = Api<'/mrp/run', 'post'>;
export type MrpRunRequest = RequestBody<'/mrp/run', 'post'>;
export type MrpRuns = Api<'/mrp/runs', 'get'>;
export type MrpException = Api<'/mrp/exceptions', 'get'>[number];
export type ExceptionKind = MrpException['kind'];
export type PlannedOrderPage = Api<'/mrp/planned-orders', 'get'>;
export type PlannedOrder = PlannedOrderPage['items'][number];
export type PlannedOrderQuery = ListQuery<'/mrp/planned-orders'>;
export type PlannedStatus = PlannedOrder['status'];
export type PlannedType = PlannedOrder['order_type'];
export type FirmRequest = RequestBody<'/mrp/planned-orders/{order_id}/firm', 'post'>;
export type Firmed = Api<'/mrp/planned-orders/{order_id}/firm', 'post'>;
export type ReleaseRequest = RequestBody<'/mrp/planned-orders/{order_id}/release', 'post'>;
export type BulkReleaseRequest = RequestBody<'/mrp/planned-orders/release', 'post'>;
export type ReleaseResult = Api<'/mrp/planned-orders/{order_id}/release', 'post'>;
export type Cancelled = Api<'/mrp/planned-orders/{order_id}', 'delete'>;
export type SupplyDemand = Api<'/mrp/supply-demand/{product_id}', 'get'>;
export type SupplyDemandEntry = SupplyDemand['entries'][number];
export type BuyList = Api<'/buy-list', 'get'>;
export type BuyListItem = BuyList['items'][number];
export type IncomingDetail = BuyListItem['incoming_details'][number];
export type BuyListOrderRequest = RequestBody<'/buy-list/purchase-orders', 'post'>;
export type BuyListOrderResult = Api<'/buy-list/purchase-orders', 'post'>;

export const planningApi = {
  runs: (limit: number, signal?: AbortSignal) => api.get<MrpRuns>('/mrp/runs', { limit }, signal),
  /** Admins only (403 otherwise); answers the finished run. */
  run: (body: MrpRunRequest) => api.post<MrpRun>('/mrp/run', body),
  /** A run's exceptions; without `runId`, the latest run's. */
  exceptions: (runId: number | null, signal?: AbortSignal) => api.get<MrpException[]>('/mrp/exceptions', { run_id: runId }, signal),
  plannedOrders: (q: PlannedOrderQuery, signal?: AbortSignal) => api.get<PlannedOrderPage>('/mrp/planned-orders', { ...q }, signal),
  firm: (id: number, body: FirmRequest) => api.post<Firmed>(`/mrp/planned-orders/${id}/firm`, body),
  release: (id: number, body: ReleaseRequest) => api.post<ReleaseResult>(`/mrp/planned-orders/${id}/release`, body),
  /** All or nothing: buys become draft purchase orders (one per vendor), makes draft production orders. */
  releaseMany: (body: BulkReleaseRequest) => api.post<ReleaseResult[]>('/mrp/planned-orders/release', body),
  /** Deletes a suggestion that is not released (400 otherwise). */
  cancel: (id: number) => api.del<Cancelled>(`/mrp/planned-orders/${id}`),
  supplyDemand: (productId: number, daysAhead: number, signal?: AbortSignal) =>
    api.get<SupplyDemand>(`/mrp/supply-demand/${productId}`, { days_ahead: daysAhead }, signal),
  buyList: (signal?: AbortSignal) => api.get<BuyList>('/buy-list', undefined, signal),
  /** Draft purchase orders for the chosen items, one per vendor; `vendor_id` for items without one. */
  orderBuyList: (body: BuyListOrderRequest) => api.post<BuyListOrderResult>('/buy-list/purchase-orders', body),
};

// ------------------------------------------------------------------------ planned orders

/** The type filter as the URL spells it (`?type=buy`) and what the server calls it. */
export const TYPE_FILTERS = { buy: 'purchase', make: 'production' } as const satisfies Record<string, PlannedType>;
export const TYPE_LABEL: Record<PlannedType, string> = { purchase: 'Buy', production: 'Make' };
export const PLANNED_STATUSES = ['planned', 'firmed', 'released', 'cancelled'] as const satisfies readonly PlannedStatus[];
export const STATUS_TONE: Record<PlannedStatus, 'neutral' | 'info' | 'success' | 'warning'> = {
  planned: 'neutral',
  firmed: 'info',
  released: 'success',
  cancelled: 'neutral',
};
export const EXCEPTION_LABEL: Record<ExceptionKind, string> = { late: 'Late', excess: 'Excess', no_vendor: 'No vendor', cycle: 'BOM cycle' };
export const SOURCE_LABEL: Record<NonNullable<PlannedOrder['source_demand_type']>, string> = {
  sales_order: 'Sales order',
  production_order: 'Production order',
  planned_order: 'Planned order',
  safety_stock: 'Safety stock',
};
/** The server's largest page of planned orders. */
export const MAX_PAGE_SIZE = 200;

/** A planned order's reference, as the supply and demand timeline names it. */
export const plannedCode = (id: number) => `PLN-${id}`;

/** What `/mrp/planned-orders` is asked for a page of the table: exceptions (late orders) first. */
export function plannedOrdersQuery(r: Pick<ListRequest, 'page' | 'limit' | 'filters'>): PlannedOrderQuery {
  const type = r.filters.type;
  return {
    page: r.page,
    page_size: Math.min(r.limit, MAX_PAGE_SIZE),
    order_type: type === 'buy' || type === 'make' ? TYPE_FILTERS[type] : null,
    status: PLANNED_STATUSES.find((s) => s === r.filters.status) ?? null,
    exceptions_first: true,
  };
}

export const canFirm = (o: Pick<PlannedOrder, 'status'>) => o.status === 'planned';
export const canRelease = (o: Pick<PlannedOrder, 'status'>) => o.status === 'planned' || o.status === 'firmed';
export const canCancel = canRelease;
/** A buy with no planned vendor: releasing it needs one. */
export const needsVendor = (o: Pick<PlannedOrder, 'order_type' | 'vendor_id'>) => o.order_type === 'purchase' && o.vendor_id === null;

/** The exceptions of a run by the planned order they concern, and those about no order (no vendor, BOM cycles). */
export function indexExceptions(exceptions: readonly MrpException[]): { byOrder: Map<number, MrpException[]>; general: MrpException[] } {
  const byOrder = new Map<number, MrpException[]>();
  const general: MrpException[] = [];
  for (const e of exceptions) {
    if (e.planned_order_id === null) {
      general.push(e);
      continue;
    }
    const list = byOrder.get(e.planned_order_id) ?? [];
    list.push(e);
    byOrder.set(e.planned_order_id, list);
  }
  return { byOrder, general };
}

/**
 * The release requests for a selection. The server applies a bulk `vendor_id` to every buy
 * of the request, so buys that have their planned vendor go in one request (with the makes)
 * and buys without one in another, with the vendor chosen for them.
 */
export function releaseBatches(orders: readonly Pick<PlannedOrder, 'id' | 'order_type' | 'vendor_id'>[], vendorId: number | null, notes: string | null): BulkReleaseRequest[] {
  const own = orders.filter((o) => !needsVendor(o)).map((o) => o.id);
  const without = orders.filter(needsVendor).map((o) => o.id);
  const out: BulkReleaseRequest[] = [];
  if (own.length) out.push({ ids: own, notes });
  if (without.length && vendorId !== null) out.push({ ids: without, vendor_id: vendorId, notes });
  return out;
}

/** A document a release created, with the planned orders that went into it. */
export interface CreatedOrder {
  kind: 'purchase' | 'production';
  id: number;
  code: string;
  plannedIds: number[];
}

/** What releases created: one entry per purchase order (several planned buys share one) or production order. */
export function createdOrders(results: readonly ReleaseResult[]): CreatedOrder[] {
  const out = new Map<string, CreatedOrder>();
  for (const r of results) {
    const made: [CreatedOrder['kind'], number | null, string | null] =
      r.created_purchase_order_id !== null
        ? ['purchase', r.created_purchase_order_id, r.created_purchase_order_code]
        : ['production', r.created_production_order_id, r.created_production_order_code];
    const [kind, id, code] = made;
    if (id === null) continue;
    const key = `${kind}:${id}`;
    const known = out.get(key);
    if (known) known.plannedIds.push(r.planned_order_id);
    else out.set(key, { kind, id, code: code ?? `#${id}`, plannedIds: [r.planned_order_id] });
  }
  return [...out.values()];
}

/** Where the SPA shows a purchase order (the Purchasing page opens it) and a production order. */
export const purchaseOrderHref = (id: number) => `/admin/purchasing?po=${id}`;
export const productionOrderHref = (id: number) => `/admin/production/${id}`;
export const createdHref = (c: Pick<CreatedOrder, 'kind' | 'id'>) => (c.kind === 'purchase' ? purchaseOrderHref(c.id) : productionOrderHref(c.id));

// ------------------------------------------------------------------------ forms

export const MAX_HORIZON_DAYS = 365;
const NOTES_MAX = 2000;
const notes = z
  .string()
  .trim()
  .max(NOTES_MAX, `Keep notes under ${NOTES_MAX} characters.`)
  .transform((v) => v || null);

/** Run MRP: the horizon as typed (1-365 whole days), drafts included, unfirmed suggestions replaced. */
export const runSchema = z.object({
  planning_horizon_days: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_HORIZON_DAYS, `Enter a whole number of days from 1 to ${MAX_HORIZON_DAYS}.`)
    .transform(Number),
  include_draft_orders: z.boolean(),
  regenerate_planned: z.boolean(),
}) satisfies z.ZodType<MrpRunRequest, unknown>;
export type RunValues = z.input<typeof runSchema>;
export type RunBody = z.output<typeof runSchema>;
export const RUN_DEFAULTS: RunValues = { planning_horizon_days: '30', include_draft_orders: true, regenerate_planned: true };

export const firmSchema = z.object({ notes }) satisfies z.ZodType<FirmRequest, unknown>;
export type FirmValues = z.input<typeof firmSchema>;

/** Releasing one or more planned orders: a vendor when a buy has none, and notes for what is created. */
export function releaseSchema(vendorRequired: boolean) {
  return z.object({
    vendor_id: z
      .string()
      .refine((v) => !vendorRequired || v !== '', 'Choose the vendor to buy from.')
      .transform((v) => (v ? Number(v) : null)),
    notes,
  }) satisfies z.ZodType<ReleaseRequest, unknown>;
}
export type ReleaseValues = z.input<ReturnType<typeof releaseSchema>>;
export type ReleaseBody = z.output<ReturnType<typeof releaseSchema>>;

// ------------------------------------------------------------------------ supply and demand

/** One day of the projected balance chart. */
export interface SupplyDemandPoint {
  /** `YYYY-MM-DD`. */
  date: string;
  /** The projected balance at the end of the day. */
  balance: number;
  /** Supply arriving that day (0 or more). */
  supply: number;
  /** Demand due that day, as a negative number (bars below the axis). */
  demand: number;
  /** The orders behind the day's supply and demand (`SO-…`, `PO-…`, `PLN-…`). */
  sources: string[];
  /** Demand or supply that was due before today and is still open, counted today. */
  overdue: boolean;
}

const toNum = (v: string | null | undefined) => {
  const n = v === null || v === undefined ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : 0;
};

/**
 * The chart's series: one point per day from today (the opening balance's day) through
 * `daysAhead` days later. Each day carries the balance after its last entry (the server's
 * running balance, carried forward over quiet days), the day's supply and demand, and the
 * orders behind them. Entries dated before today (open orders already due) count today.
 */
export function supplyDemandSeries(timeline: Pick<SupplyDemand, 'entries' | 'current_available'>, daysAhead: number): SupplyDemandPoint[] {
  const opening = timeline.entries.find((e) => e.entry_type === 'on_hand');
  const start = opening?.date ?? timeline.entries[0]?.date;
  if (!start) return [];
  const end = addDays(start, Math.max(0, daysAhead));
  const days = new Map<string, SupplyDemandPoint>(
    eachDay(start, end).map((date) => [date, { date, balance: Number.NaN, supply: 0, demand: 0, sources: [], overdue: false }]),
  );
  let balance = toNum(opening?.running_balance ?? timeline.current_available);
  for (const e of timeline.entries) {
    if (e.entry_type === 'on_hand') {
      balance = toNum(e.running_balance ?? e.quantity);
      const first = days.get(start);
      if (first) first.balance = balance;
      continue;
    }
    const qty = toNum(e.quantity);
    const signed = e.entry_type === 'demand' ? -qty : qty;
    // The server's running balance when it sent one; else this entry added to the last.
    balance = e.running_balance !== null ? toNum(e.running_balance) : balance + signed;
    const day = days.get(e.date < start ? start : e.date);
    if (!day) continue;
    if (e.entry_type === 'demand') day.demand -= qty;
    else day.supply += qty;
    if (e.source_code && !day.sources.includes(e.source_code)) day.sources.push(e.source_code);
    if (e.date < start) day.overdue = true;
    day.balance = balance;
  }
  // Quiet days keep the balance of the day before.
  let carried = toNum(opening?.running_balance ?? timeline.current_available);
  const out = [...days.values()];
  for (const p of out) {
    if (Number.isNaN(p.balance)) p.balance = carried;
    carried = p.balance;
  }
  return out;
}

/** The lowest projected balance of a series (for the chart's summary). */
export function lowestBalance(series: readonly SupplyDemandPoint[]): SupplyDemandPoint | null {
  return series.reduce<SupplyDemandPoint | null>((low, p) => (low === null || p.balance < low.balance ? p : low), null);
}

// ------------------------------------------------------------------------ buy list

/**
 * The exact sum of decimal strings ("12.5", "0.0001"), as a string with `scale` places:
 * money is added in whole units of the last place, never as floats.
 */
export function sumDecimals(values: readonly (string | null | undefined)[], scale = 4): string {
  const unit = 10n ** BigInt(scale);
  let total = 0n;
  for (const v of values) {
    const m = /^(-)?(\d*)(?:\.(\d*))?$/.exec((v ?? '').trim());
    if (!m || (!m[2] && !m[3])) continue;
    const frac = (m[3] ?? '').padEnd(scale, '0').slice(0, scale);
    const n = BigInt(m[2] || '0') * unit + BigInt(frac || '0');
    total += m[1] ? -n : n;
  }
  const negative = total < 0n;
  const abs = negative ? -total : total;
  const whole = abs / unit;
  const frac = (abs % unit).toString().padStart(scale, '0');
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${frac}` : ''}`;
}

/** The buy list's items under one preferred vendor, with what buying them costs. */
export interface VendorGroup {
  /** null: the items no vendor is known for. */
  vendorId: number | null;
  vendorName: string;
  items: BuyListItem[];
  /** Sum of the items' estimated buy value (a decimal string). */
  subtotal: string;
}

export const NO_VENDOR = 'No preferred vendor';

/** The buy list by preferred vendor, in the server's order (vendor, then first need); items without a vendor last. */
export function groupBuyList(items: readonly BuyListItem[]): VendorGroup[] {
  const groups = new Map<number | null, VendorGroup>();
  for (const item of items) {
    const id = item.preferred_vendor_id;
    let g = groups.get(id);
    if (!g) {
      g = { vendorId: id, vendorName: id === null ? NO_VENDOR : (item.preferred_vendor_name ?? `Vendor #${id}`), items: [], subtotal: '0' };
      groups.set(id, g);
    }
    g.items.push(item);
  }
  const out = [...groups.values()].map((g) => ({ ...g, subtotal: sumDecimals(g.items.map((i) => i.estimated_buy_value)) }));
  return [...out.filter((g) => g.vendorId !== null), ...out.filter((g) => g.vendorId === null)];
}
