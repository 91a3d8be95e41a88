/** Purchase order, receipt, replenishment and vendor-performance calls (CONTRACT 5.14). */
import { api } from '../../api/client';
import type { Api, RequestBody } from '../../api/model';
import type { operations } from '../../api/schema.gen';

export type PurchaseOrder = Api<'/purchase-orders/{id}', 'get'>;
export type PurchaseOrderLine = PurchaseOrder['lines'][number];
export type PurchaseOrderCreate = RequestBody<'/purchase-orders/', 'post'>;
export type PurchaseReceive = RequestBody<'/purchase-orders/{id}/receive', 'post'>;
export type PurchaseReceipt = Api<'/purchase-orders/{id}/receive', 'post'>;
export type PurchaseEvent = Api<'/purchase-orders/{id}/events', 'get'>[number];
export type ReorderSuggestion = Api<'/purchase-orders/low-stock', 'get'>[number];
export type FromLowStock = operations['create_purchase_orders_from_low_stock']['responses'][201]['content']['application/json'];
export type VendorMetrics = Api<'/vendors/{vendor_id}/metrics', 'get'>;
export type VendorItem = Api<'/vendors/{vendor_id}/items', 'get'>[number];
export type VendorDetail = Api<'/vendors/{id}', 'get'>;
export type PurchaseDocument = Api<'/purchase-orders/{id}/documents', 'get'>[number];

/** The statuses each status may move to (CONTRACT 6.3). */
export const NEXT_STATUSES: Record<string, readonly string[]> = {
  draft: ['ordered', 'cancelled'],
  ordered: ['shipped', 'received', 'cancelled'],
  shipped: ['received', 'cancelled'],
  received: ['closed', 'cancelled'],
  closed: [],
  cancelled: [],
};

/** The button label of a move into `status`. */
export const STATUS_ACTION: Record<string, string> = {
  ordered: 'Place order',
  shipped: 'Mark shipped',
  received: 'Mark received',
  closed: 'Close',
  cancelled: 'Cancel order',
};

/** Spool weights typed as `1000, 1000` (grams): the numbers, or null when one is not a positive number. */
export function parseWeights(text: string): number[] | null {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const weights = parts.map(Number);
  return weights.every((w) => Number.isFinite(w) && w > 0) ? weights : null;
}

const key = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

export const purchasingApi = {
  get: (id: number, signal?: AbortSignal) => api.get<PurchaseOrder>(`/purchase-orders/${id}`, undefined, signal),
  events: (id: number, signal?: AbortSignal) => api.get<PurchaseEvent[]>(`/purchase-orders/${id}/events`, undefined, signal),
  create: (body: PurchaseOrderCreate) => api.post<PurchaseOrder>('/purchase-orders/', body, { headers: { 'Idempotency-Key': key() } }),
  status: (id: number, status: string) => api.post<PurchaseOrder>(`/purchase-orders/${id}/status`, { status }),
  /** One key per opened dialog: a double click or a retry posts once. */
  receive: (id: number, body: PurchaseReceive, idempotencyKey: string) =>
    api.post<PurchaseReceipt>(`/purchase-orders/${id}/receive`, body, { headers: { 'Idempotency-Key': idempotencyKey } }),
  documents: (id: number, signal?: AbortSignal) => api.get<PurchaseDocument[]>(`/purchase-orders/${id}/documents`, undefined, signal),
  uploadDocument: (id: number, file: File, documentType: string) => {
    const form = new FormData();
    form.append('file', file);
    form.append('document_type', documentType);
    return api.request<PurchaseDocument>(`/purchase-orders/${id}/documents`, { method: 'POST', formData: form });
  },
  remove: (id: number) => api.del<{ message: string }>(`/purchase-orders/${id}`),
  lowStock: (signal?: AbortSignal) => api.get<ReorderSuggestion[]>('/purchase-orders/low-stock', undefined, signal),
  fromLowStock: (itemIds: number[]) => api.post<FromLowStock>('/purchase-orders/from-low-stock', { item_ids: itemIds }, { headers: { 'Idempotency-Key': key() } }),
  vendor: (id: number, signal?: AbortSignal) => api.get<VendorDetail>(`/vendors/${id}`, undefined, signal),
  vendorMetrics: (id: number, signal?: AbortSignal) => api.get<VendorMetrics>(`/vendors/${id}/metrics`, undefined, signal),
  vendorItems: (id: number, signal?: AbortSignal) => api.get<VendorItem[]>(`/vendors/${id}/items`, undefined, signal),
  newKey: key,
};
