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
