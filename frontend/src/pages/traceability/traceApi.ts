/** Traceability calls (CONTRACT 5.19): forward and backward traces, the graph, recall impact. */
import { api } from '../../api/client';
import type { Api, RequestBody } from '../../api/model';

export type ForwardTrace = Api<'/traceability/forward/{serial}', 'get'>;
export type TraceGraphData = Api<'/traceability/graph', 'get'>;
export type TraceNode = TraceGraphData['nodes'][number];
export type TraceEdge = TraceGraphData['edges'][number];
export type RecallImpact = Api<'/traceability/recall-impact', 'post'>;
export type RecallImpactRequest = RequestBody<'/traceability/recall-impact', 'post'>;
export type TraceCustomer = ForwardTrace['summary']['customers'][number];
export type Direction = 'FORWARD' | 'BACKWARD';

export const traceApi = {
  forward: (code: string, signal?: AbortSignal) =>
    api.get<ForwardTrace>(`/traceability/forward/${encodeURIComponent(code)}`, undefined, signal),
  graph: (code: string, direction: Direction, signal?: AbortSignal) =>
    api.get<TraceGraphData>('/traceability/graph', { code, direction }, signal),
  recallImpact: (body: RecallImpactRequest) => api.post<RecallImpact>('/traceability/recall-impact', body),
};

/** Lot and spool numbers typed one per line or separated by commas, without repeats. */
export function parseNumbers(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const n = part.trim();
    if (n && !seen.has(n.toUpperCase())) {
      seen.add(n.toUpperCase());
      out.push(n);
    }
  }
  return out;
}

/** The affected customers as CSV rows (header first). */
export function customerRows(customers: readonly TraceCustomer[]): string[][] {
  return [
    ['Customer', 'Email', 'Orders'],
    ...customers.map((c) => [c.name ?? '', c.email ?? '', c.order_numbers.join(' ')]),
  ];
}

/** Every unit downstream with where it went, as CSV rows (header first). */
export function unitRows(trace: ForwardTrace): string[][] {
  const orderOf = new Map(trace.sales_orders.map((o) => [o.id, o]));
  const woOf = new Map<number, string>();
  for (const u of trace.usage) for (const s of u.serial_numbers) woOf.set(s.id, u.production_order.code);
  return [
    ['Serial number', 'Status', 'Work order', 'Sales order', 'Customer', 'Email', 'Shipped', 'Tracking'],
    ...trace.serial_numbers.map((s) => {
      const so = s.sales_order_id != null ? orderOf.get(s.sales_order_id) : undefined;
      return [
        s.serial_number,
        s.status,
        woOf.get(s.id) ?? '',
        so?.order_number ?? '',
        so?.customer_name ?? '',
        so?.customer_email ?? '',
        s.shipped_at ?? '',
        s.tracking_number ?? '',
      ];
    }),
  ];
}

// ---------------------------------------------------------------- lots and serial numbers (admins)

export type MaterialLotPage = Api<'/admin/traceability/lots', 'get'>;
export type MaterialLot = MaterialLotPage['items'][number];
export type SerialPage = Api<'/admin/traceability/serials', 'get'>;
export type SerialUnit = SerialPage['items'][number];
export type LotStatus = MaterialLot['status'];
export type SerialStatus = SerialUnit['status'];

export const LOT_STATUSES: readonly LotStatus[] = ['active', 'depleted', 'quarantine', 'expired', 'recalled'];
export const SERIAL_STATUSES: readonly SerialStatus[] = ['manufactured', 'in_stock', 'sold', 'shipped', 'returned', 'scrapped'];

/** One page of a lot or serial list: `limit` rows from `offset`, filtered by `search` and `status`. */
export interface TraceListQuery {
  limit: number;
  offset: number;
  search?: string;
  status?: string;
}

/** The list routes' query: an unknown status (a hand-edited URL) is left out; `limit` at most 500. */
export function listQuery<S extends string>(q: TraceListQuery, statuses: readonly S[]): { limit: number; offset: number; search?: string; status?: S } {
  const status = statuses.find((s) => s === q.status);
  return {
    limit: Math.min(500, Math.max(1, q.limit)),
    offset: Math.max(0, q.offset),
    ...(q.search ? { search: q.search } : {}),
    ...(status ? { status } : {}),
  };
}

export const traceListApi = {
  lots: (q: TraceListQuery, signal?: AbortSignal) => api.get<MaterialLotPage>('/admin/traceability/lots', listQuery(q, LOT_STATUSES), signal),
  serials: (q: TraceListQuery, signal?: AbortSignal) => api.get<SerialPage>('/admin/traceability/serials', listQuery(q, SERIAL_STATUSES), signal),
};

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

const LOT_TONE: Record<LotStatus, Tone> = { active: 'success', depleted: 'neutral', quarantine: 'warning', expired: 'warning', recalled: 'danger' };
const SERIAL_TONE: Record<SerialStatus, Tone> = { manufactured: 'info', in_stock: 'success', sold: 'info', shipped: 'neutral', returned: 'warning', scrapped: 'danger' };

export function lotTone(status: string): Tone {
  return LOT_TONE[status as LotStatus] ?? 'neutral';
}

export function serialTone(status: string): Tone {
  return SERIAL_TONE[status as SerialStatus] ?? 'neutral';
}

/** What is left of a lot (received minus consumed, never below 0) and the share used, 0..1. */
export function lotRemaining(lot: Pick<MaterialLot, 'quantity_received' | 'quantity_consumed'>): { remaining: number; used: number } {
  const received = Number(lot.quantity_received) || 0;
  const consumed = Number(lot.quantity_consumed) || 0;
  const remaining = Math.max(0, received - consumed);
  const used = received > 0 ? Math.min(1, Math.max(0, consumed / received)) : 0;
  return { remaining, used };
}

/** The trace view of a lot or serial number (`/admin/quality/traceability?q=…`). */
export function traceHref(code: string, direction: Direction = 'FORWARD'): string {
  const params = new URLSearchParams({ q: code });
  if (direction === 'BACKWARD') params.set('dir', 'backward');
  return `/admin/quality/traceability?${params.toString()}`;
}

const LIST_TABS = ['lots', 'serials', 'profiles'];

/**
 * The URL of another traceability view. Trace and recall share the trace's `q` and `dir`
 * (back on Trace shows the last trace); a list's search, page and filters belong to that list,
 * so entering or leaving a list starts afresh.
 */
export function tabParams(current: URLSearchParams, tab: string): URLSearchParams {
  const from = current.get('tab') ?? 'trace';
  if (LIST_TABS.includes(tab) || LIST_TABS.includes(from)) return tab === 'trace' ? new URLSearchParams() : new URLSearchParams({ tab });
  const next = new URLSearchParams(current);
  if (tab === 'trace') next.delete('tab');
  else next.set('tab', tab);
  return next;
}
