/** Purchase order, receipt, replenishment and vendor-performance calls (CONTRACT 5.14). */
import { z } from 'zod';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Api, InventoryLocation, RequestBody } from '../../api/model';
import type { operations } from '../../api/schema.gen';

export type PurchaseOrder = Api<'/purchase-orders/{id}', 'get'>;
export type PurchaseOrderLine = PurchaseOrder['lines'][number];
export type PurchaseOrderCreate = RequestBody<'/purchase-orders/', 'post'>;
export type PurchaseReceive = RequestBody<'/purchase-orders/{id}/receive', 'post'>;
export type PurchaseReceipt = Api<'/purchase-orders/{id}/receive', 'post'>;
export type PurchaseEvent = Api<'/purchase-orders/{id}/events', 'get'>['items'][number];
export type ReorderSuggestion = Api<'/purchase-orders/low-stock', 'get'>[number];
export type FromLowStock = operations['create_purchase_orders_from_low_stock']['responses'][201]['content']['application/json'];
export type VendorMetrics = Api<'/vendors/{vendor_id}/metrics', 'get'>;
export type VendorItem = Api<'/vendors/{vendor_id}/items', 'get'>[number];
export type VendorDetail = Api<'/vendors/{id}', 'get'>;
export type VendorCreate = RequestBody<'/vendors/', 'post'>;
export type VendorUpdate = RequestBody<'/vendors/{id}', 'put'>;
export type VendorDeleted = Api<'/vendors/{id}', 'delete'>;
export type VendorItemCreate = RequestBody<'/vendors/{vendor_id}/items', 'post'>;
export type VendorItemUpdate = RequestBody<'/vendors/{vendor_id}/items/{item_id}', 'put'>;
export type PurchaseDocument = Api<'/purchase-orders/{id}/documents', 'get'>[number];
export type PurchaseOrderUpdate = RequestBody<'/purchase-orders/{id}', 'put'>;
export type PurchaseLineCreate = RequestBody<'/purchase-orders/{id}/lines', 'post'>;
export type PurchaseLineUpdate = RequestBody<'/purchase-orders/{id}/lines/{line_id}', 'put'>;
export type SavedPurchaseLine = Api<'/purchase-orders/{id}/lines', 'post'>;
export type RemovedPurchaseLine = Api<'/purchase-orders/{id}/lines/{line_id}', 'delete'>;

/** Units a line may be bought in ('' is the item's own purchase unit). */
export const PURCHASE_UNITS = ['', 'EA', 'G', 'KG', 'LB', 'OZ', 'M', 'MM', 'CM', 'IN', 'FT', 'L', 'ML', 'PK', 'BOX', 'ROLL'];

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
  events: (id: number, signal?: AbortSignal) =>
    api.get<{ items: PurchaseEvent[] }>(`/purchase-orders/${id}/events`, undefined, signal).then((r) => r.items),
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
  /** The header; the server refuses closed and cancelled orders, and a new vendor once ordered. */
  update: (id: number, body: PurchaseOrderUpdate) => api.put<PurchaseOrder>(`/purchase-orders/${id}`, body),
  /** Lines change on drafts only (400 otherwise). */
  addLine: (id: number, body: PurchaseLineCreate) => api.post<SavedPurchaseLine>(`/purchase-orders/${id}/lines`, body),
  updateLine: (id: number, lineId: number, body: PurchaseLineUpdate) => api.put<SavedPurchaseLine>(`/purchase-orders/${id}/lines/${lineId}`, body),
  removeLine: (id: number, lineId: number) => api.del<RemovedPurchaseLine>(`/purchase-orders/${id}/lines/${lineId}`),
  lowStock: (signal?: AbortSignal) => api.get<ReorderSuggestion[]>('/purchase-orders/low-stock', undefined, signal),
  fromLowStock: (itemIds: number[]) => api.post<FromLowStock>('/purchase-orders/from-low-stock', { item_ids: itemIds }, { headers: { 'Idempotency-Key': key() } }),
  /** A draft for one item: its vendor, the suggested quantity and the last price, as the server picks them. */
  quickReorder: (productId: number) => api.post<PurchaseOrder>(`/purchase-orders/quick-reorder/${productId}`, {}, { headers: { 'Idempotency-Key': key() } }),
  vendor: (id: number, signal?: AbortSignal) => api.get<VendorDetail>(`/vendors/${id}`, undefined, signal),
  vendorMetrics: (id: number, signal?: AbortSignal) => api.get<VendorMetrics>(`/vendors/${id}/metrics`, undefined, signal),
  vendorItems: (id: number, signal?: AbortSignal) => api.get<VendorItem[]>(`/vendors/${id}/items`, undefined, signal),
  /** 201; a code another vendor has (ignoring case) is a 400. A blank code becomes the next `VND-NNN`. */
  createVendor: (body: VendorCreate) => api.post<VendorDetail>('/vendors/', body, { headers: { 'Idempotency-Key': key() } }),
  /** Omitted fields keep their value, null clears one (not the name or the code). */
  updateVendor: (id: number, body: VendorUpdate) => api.put<VendorDetail>(`/vendors/${id}`, body),
  /** Deletes the vendor, or deactivates it when it has purchase orders; `message` says which. */
  removeVendor: (id: number) => api.del<VendorDeleted>(`/vendors/${id}`),
  /** Puts an item on the vendor's price list (sent again for the same item, it updates the entry). */
  addVendorItem: (vendorId: number, body: VendorItemCreate) =>
    api.post<VendorItem>(`/vendors/${vendorId}/items`, body, { headers: { 'Idempotency-Key': key() } }),
  /** Changes an entry (by the item's id); null and omitted fields keep their value. */
  updateVendorItem: (vendorId: number, itemId: number, body: VendorItemUpdate) => api.put<VendorItem>(`/vendors/${vendorId}/items/${itemId}`, body),
  /** 204; 404 `Vendor item not found`. */
  removeVendorItem: (vendorId: number, itemId: number) => api.del<void>(`/vendors/${vendorId}/items/${itemId}`),
  newKey: key,
};

// ------------------------------------------------------------------------------ forms

/** Most decimal places of a quantity and of a unit cost (the server refuses more). */
const QUANTITY_SCALE = 4;
const QUANTITY = new RegExp(`^\\d+(\\.\\d{1,${QUANTITY_SCALE}})?$`);
const MONEY = /^\d+(\.\d{1,2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NOTES_MAX = 2000;
const text = (max: number, what: string) => z.string().trim().max(max, `Keep ${what} under ${max} characters.`);
const optionalText = (max: number, what: string) => text(max, what).transform((v) => v || null);
const money = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => MONEY.test(v), `Enter ${what} of 0 or more, in cents at most.`);

/**
 * A draft's header as edited. The server keeps what it is not sent and cannot remove an
 * expected date (null means "keep"), so a date once set may change but not go blank; blank
 * notes are sent as blank, which the contract says clears them.
 */
export function poHeaderSchema(current: { expected_date: string | null }) {
  return z.object({
    vendor_id: z
      .string()
      .min(1, 'Choose a vendor.')
      .transform((v) => Number(v)),
    expected_date: z
      .string()
      .trim()
      .refine((v) => v === '' || DATE.test(v), 'Enter a date like 2026-12-31.')
      .refine((v) => v !== '' || !current.expected_date, 'An expected date can be changed but not removed.')
      .transform((v) => v || null),
    shipping_cost: money('a shipping cost'),
    tax_amount: money('a tax amount'),
    notes: text(NOTES_MAX, 'notes'),
  }) satisfies z.ZodType<PurchaseOrderUpdate, unknown>;
}
export type PoHeaderValues = z.input<ReturnType<typeof poHeaderSchema>>;
export type PoHeaderBody = z.output<ReturnType<typeof poHeaderSchema>>;

const lineFields = {
  quantity_ordered: z
    .string()
    .trim()
    .refine((v) => QUANTITY.test(v) && Number(v) > 0, `Enter a quantity above 0, with at most ${QUANTITY_SCALE} decimal places.`),
  unit_cost: z
    .string()
    .trim()
    .refine((v) => QUANTITY.test(v), `Enter a cost of 0 or more, with at most ${QUANTITY_SCALE} decimal places.`),
  purchase_unit: z.string().transform((v) => v || null),
  notes: text(NOTES_MAX, 'notes'),
};
const lineObject = z.object({ product_id: z.string(), ...lineFields });
/** A draft's line as changed (PUT /purchase-orders/{id}/lines/{line_id}): the item stays; blank notes clear. */
export const lineUpdateSchema = lineObject.transform(({ product_id: _item, ...changes }) => changes) satisfies z.ZodType<PurchaseLineUpdate, unknown>;
/** A line added to a draft (POST /purchase-orders/{id}/lines). */
export const lineCreateSchema = lineObject.extend({
  product_id: z
    .string()
    .min(1, 'Choose an item.')
    .transform((v) => Number(v)),
}) satisfies z.ZodType<PurchaseLineCreate, unknown>;
export type PoLineValues = z.input<typeof lineCreateSchema>;
export type PoLineBody = z.output<typeof lineCreateSchema> | z.output<typeof lineUpdateSchema>;

// ------------------------------------------------------------------------------ vendors

/** The server's limits on a vendor's fields (partners/fields.rs). */
const VENDOR_LIMITS = { name: 200, code: 50, phone: 50, line: 255, place: 100, postal: 20, url: 500, text: 10_000 } as const;
export const MAX_LEAD_TIME_DAYS = 3650;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const days = z
  .string()
  .trim()
  .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) <= MAX_LEAD_TIME_DAYS), `Enter a whole number of days from 0 to ${MAX_LEAD_TIME_DAYS}.`)
  .transform((v) => (v ? Number(v) : null));

/** The vendor form's fields other than the code, as typed; blank optional text is null. */
const vendorFields = {
  name: z.string().trim().min(1, 'Enter a name.').max(VENDOR_LIMITS.name, `Keep the name under ${VENDOR_LIMITS.name} characters.`),
  contact_name: optionalText(VENDOR_LIMITS.name, 'the contact name'),
  email: z
    .string()
    .trim()
    .refine((v) => v === '' || EMAIL.test(v), 'Enter an email address like orders@vendor.com.')
    .transform((v) => v.toLowerCase() || null),
  phone: optionalText(VENDOR_LIMITS.phone, 'the phone number'),
  website: optionalText(VENDOR_LIMITS.url, 'the web site'),
  address_line1: optionalText(VENDOR_LIMITS.line, 'the street address'),
  address_line2: optionalText(VENDOR_LIMITS.line, 'the second address line'),
  city: optionalText(VENDOR_LIMITS.place, 'the city'),
  state: optionalText(VENDOR_LIMITS.place, 'the state'),
  postal_code: optionalText(VENDOR_LIMITS.postal, 'the postal code'),
  country: optionalText(VENDOR_LIMITS.place, 'the country'),
  payment_terms: optionalText(VENDOR_LIMITS.place, 'the payment terms'),
  account_number: optionalText(VENDOR_LIMITS.place, 'the account number'),
  tax_id: optionalText(VENDOR_LIMITS.code, 'the tax id'),
  lead_time_days: days,
  rating: z
    .string()
    .refine((v) => v === '' || /^[1-5]$/.test(v), 'Choose a rating from 1 to 5.')
    .transform((v) => (v ? Number(v) : null)),
  notes: optionalText(VENDOR_LIMITS.text, 'notes'),
  is_active: z.boolean(),
};
const upperCode = (v: string) => v.toUpperCase();

/**
 * A new vendor (POST /vendors/): a blank code is left to the server (`VND-NNN`); a new
 * vendor is active, so `is_active` is not sent.
 */
export const vendorCreateSchema = z
  .object({
    code: optionalText(VENDOR_LIMITS.code, 'the code').transform((v) => (v ? upperCode(v) : null)),
    ...vendorFields,
  })
  .transform(({ is_active: _active, ...body }) => body) satisfies z.ZodType<VendorCreate, unknown>;

/**
 * A vendor as edited (PUT /vendors/{id}): every field is sent, a blank one as null (which
 * clears it); the name and the code can change but not go blank.
 */
export const vendorUpdateSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, 'A code can be changed but not removed.')
    .max(VENDOR_LIMITS.code, `Keep the code under ${VENDOR_LIMITS.code} characters.`)
    .transform(upperCode),
  ...vendorFields,
}) satisfies z.ZodType<VendorUpdate, unknown>;

export type VendorFormValues = z.input<typeof vendorUpdateSchema>;
export type VendorBody = z.output<typeof vendorCreateSchema> | z.output<typeof vendorUpdateSchema>;
export const VENDOR_FIELDS = Object.keys(vendorUpdateSchema.shape) as (keyof VendorFormValues)[];

const str = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** The form's values for a vendor (blank for a new one). */
export function vendorFormValues(v: VendorDetail | null): VendorFormValues {
  return {
    code: str(v?.code),
    name: str(v?.name),
    contact_name: str(v?.contact_name),
    email: str(v?.email),
    phone: str(v?.phone),
    website: str(v?.website),
    address_line1: str(v?.address_line1),
    address_line2: str(v?.address_line2),
    city: str(v?.city),
    state: str(v?.state),
    postal_code: str(v?.postal_code),
    country: str(v?.country),
    payment_terms: str(v?.payment_terms),
    account_number: str(v?.account_number),
    tax_id: str(v?.tax_id),
    lead_time_days: str(v?.lead_time_days),
    rating: str(v?.rating),
    notes: str(v?.notes),
    is_active: v?.is_active ?? true,
  };
}

/** Longest vendor SKU the database keeps (`vendor_items.vendor_sku`; the server's own check allows 200). */
const SHORT_TEXT = 100;

/** A price-list field that was `was`: blank is refused once it has a value (the server would keep it). */
const keepable = <T extends z.ZodType<string | number | null, string>>(field: T, was: unknown, what: string) =>
  z
    .string()
    .refine((v) => v.trim() !== '' || was === null || was === undefined || was === '', `${what} can be changed but not removed.`)
    .pipe(field);

const priceFields = (current: VendorItem | null) => ({
  vendor_sku: keepable(optionalText(SHORT_TEXT, "the vendor's SKU"), current?.vendor_sku, "The vendor's SKU"),
  unit_cost: keepable(
    z
      .string()
      .trim()
      .refine((v) => v === '' || QUANTITY.test(v), `Enter a price of 0 or more, with at most ${QUANTITY_SCALE} decimal places.`)
      .transform((v) => v || null),
    current?.last_price,
    'The price',
  ),
  purchase_unit: z.string().transform((v) => v || null),
  lead_time_days: keepable(days, current?.lead_time_days, 'The lead time'),
  is_preferred: z.boolean(),
});
/** An item put on a vendor's price list (POST /vendors/{vendor_id}/items). */
export const vendorItemCreateSchema = z.object({
  product_id: z
    .string()
    .min(1, 'Choose an item.')
    .transform((v) => Number(v)),
  ...priceFields(null),
}) satisfies z.ZodType<VendorItemCreate, unknown>;

/**
 * An entry of the price list as changed (PUT /vendors/{vendor_id}/items/{item_id}): the
 * item stays, and since the server keeps what is sent blank, a value once set can change
 * but not be removed.
 */
export function vendorItemUpdateSchema(current: VendorItem) {
  return z
    .object({ product_id: z.string(), ...priceFields(current) })
    .transform(({ product_id: _item, ...changes }) => changes) satisfies z.ZodType<VendorItemUpdate, unknown>;
}
export type VendorItemValues = z.input<typeof vendorItemCreateSchema>;
export type VendorItemBody = z.output<typeof vendorItemCreateSchema> | z.output<ReturnType<typeof vendorItemUpdateSchema>>;
export const VENDOR_ITEM_FIELDS = Object.keys(vendorItemCreateSchema.shape) as (keyof VendorItemValues)[];

/** The form's values for a price-list entry (blank for a new one). */
export function vendorItemFormValues(v: VendorItem | null): VendorItemValues {
  return {
    product_id: str(v?.item_id),
    vendor_sku: str(v?.vendor_sku),
    unit_cost: v?.last_price != null ? String(Number(v.last_price)) : '',
    purchase_unit: str(v?.purchase_unit),
    lead_time_days: str(v?.lead_time_days),
    is_preferred: v?.is_preferred ?? false,
  };
}

// ------------------------------------------------------------------------------ receiving

/**
 * Where a receipt goes when none is named, as the server picks it: the first active
 * warehouse (lowest id), else `MAIN`. None of them: the server creates `MAIN` on receipt.
 */
export function defaultReceiveLocation(locations: readonly InventoryLocation[]): InventoryLocation | undefined {
  const warehouses = locations.filter((l) => l.type === 'warehouse').sort((a, b) => a.id - b.id);
  return warehouses[0] ?? locations.find((l) => l.code.toUpperCase() === 'MAIN');
}

/**
 * The receive form: a location and, per open line, the quantity (0 leaves the line out),
 * lot numbers and spool weights as typed. The output is the body of POST
 * /purchase-orders/{id}/receive, checked against the generated type.
 */
export const receiveSchema = z
  .object({
    location_id: z.string().transform((v) => (v ? Number(v) : null)),
    lines: z.array(
      z.object({
        line_id: z.number(),
        quantity_received: z
          .string()
          .trim()
          .refine((v) => QUANTITY.test(v), `Enter 0 or more, with at most ${QUANTITY_SCALE} decimal places.`),
        lot_number: optionalText(100, 'the lot number'),
        vendor_lot_number: optionalText(100, "the vendor's lot number"),
        spools: z
          .string()
          .refine((v) => parseWeights(v) !== null, 'Enter weights in grams above 0, like 1000, 750.')
          .transform((v) => (parseWeights(v) ?? []).map((w) => ({ weight_g: String(w) }))),
      }),
    ),
  })
  .superRefine((v, ctx) => {
    if (!v.lines.some((l) => Number(l.quantity_received) > 0)) ctx.addIssue({ code: 'custom', path: ['lines'], message: 'Enter a quantity on at least one line.' });
  })
  .transform((v) => ({ location_id: v.location_id, lines: v.lines.filter((l) => Number(l.quantity_received) > 0) })) satisfies z.ZodType<PurchaseReceive, unknown>;

export type ReceiveValues = z.input<typeof receiveSchema>;
export type ReceiveBody = z.output<typeof receiveSchema>;

/**
 * A refused receipt with its field names as the form's: the server numbers the lines it was
 * sent (`lines.1.vendor_lot_number`), the form every open line; `sent[k]` is the form's index
 * of the k-th line sent. A spool's weight (`lines.0.spools.2.weight_g`) lands on the line's
 * spool weights.
 */
export function receiveErrorsOnForm(err: unknown, sent: readonly number[]): unknown {
  if (!(err instanceof ApiError)) return err;
  const fieldErrors: Record<string, string> = {};
  for (const [field, message] of Object.entries(err.fieldErrors)) {
    const m = /^lines\.(\d+)\.([a-z_]+)/.exec(field);
    const at = m ? sent[Number(m[1])] : undefined;
    const name = m && at !== undefined ? `lines.${at}.${m[2]}` : field;
    if (!(name in fieldErrors)) fieldErrors[name] = message;
  }
  return new ApiError(err.status, err.message, fieldErrors, err.code, err.body);
}
