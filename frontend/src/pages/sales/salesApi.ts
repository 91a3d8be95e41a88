/**
 * Sales calls (CONTRACT 5.2-5.4, 6.1): sales orders, payments, shipments and quotes.
 * Their query keys (`queryKeys.sales`, `.payments`, `.shipping`, `.quotes`) start with the
 * resource, so live updates and mutations can invalidate them.
 */
import { z } from 'zod';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Api, ListQuery, RequestBody } from '../../api/model';

export type SalesOrderRow = Api<'/sales-orders/', 'get'>[number];
export type SalesOrder = Api<'/sales-orders/{id}', 'get'>;
export type SalesOrderLine = SalesOrder['lines'][number];
export type SalesOrderEvent = Api<'/sales-orders/{id}/events', 'get'>['items'][number];
export type SalesOrderStatus = SalesOrder['status'];
export type FulfillmentState = SalesOrder['fulfillment_state'];
export type SalesOrderQuery = ListQuery<'/sales-orders/'>;
export type SalesOrderCreate = RequestBody<'/sales-orders/', 'post'>;
export type PaymentList = Api<'/payments', 'get'>;
export type Payment = PaymentList['items'][number];
export type PaymentSummary = Api<'/payments/order/{id}/summary', 'get'>;
export type PaymentsDashboard = Api<'/payments/dashboard', 'get'>;
export type PaymentQuery = ListQuery<'/payments'>;
export type PaymentCreate = RequestBody<'/payments', 'post'>;
export type PaymentMethod = PaymentCreate['payment_method'];
export type ShipmentList = Api<'/shipments/', 'get'>;
export type Shipment = ShipmentList['items'][number];
export type ShipBody = NonNullable<RequestBody<'/sales-orders/{id}/ship', 'post'>>;
export type ShipResult = Api<'/sales-orders/{id}/ship', 'post'>;
export type Quote = Api<'/quotes/', 'get'>[number];
export type QuoteStatus = Quote['status'];
export type QuoteStats = Api<'/quotes/stats', 'get'>;
export type QuoteQuery = ListQuery<'/quotes/'>;
export type QuoteCreate = RequestBody<'/quotes/', 'post'>;
export type QuoteUpdate = RequestBody<'/quotes/{id}', 'patch'>;
export type NoteCreate = RequestBody<'/sales-orders/{id}/events', 'post'>;
export type ShippingEvent = Api<'/sales-orders/{id}/shipping-events', 'get'>['items'][number];
export type ShippingEventCreate = RequestBody<'/sales-orders/{id}/shipping-events', 'post'>;
export type ShippingEventType = ShippingEvent['event_type'];
export type ShippingEventSource = ShippingEvent['source'];
export type RequiredOrders = Api<'/sales-orders/{id}/required-orders', 'get'>;
export type BlockingIssues = Api<'/sales-orders/{id}/blocking-issues', 'get'>;
export type MaterialRequirements = Api<'/sales-orders/{id}/material-requirements', 'get'>;
export type RequiredOrder = RequiredOrders['production_orders'][number];
export type PaymentDetailsUpdate = RequestBody<'/sales-orders/{id}/payment', 'patch'>;
export type SalesPaymentStatus = PaymentDetailsUpdate['payment_status'];
export type AddressUpdate = RequestBody<'/sales-orders/{id}/address', 'patch'>;
export type ShippingDetailsUpdate = RequestBody<'/sales-orders/{id}/shipping', 'patch'>;
export type LinesEdit = RequestBody<'/sales-orders/{id}/lines', 'patch'>;
export type LineEdit = LinesEdit['lines'][number];
export type LineAdd = RequestBody<'/sales-orders/{id}/lines', 'post'>;
export type CloseShortPreview = Api<'/sales-orders/{id}/close-short-preview', 'get'>;
export type CloseShortPreviewLine = CloseShortPreview['lines'][number];

/** The answer of `/sales-orders/status-transitions` (the document types it `unknown`). */
export interface StatusTransitions {
  statuses: SalesOrderStatus[];
  transitions: Record<string, { allowed_transitions: SalesOrderStatus[]; is_terminal: boolean }>;
  terminal_statuses: SalesOrderStatus[];
}

export type Tone = 'success' | 'info' | 'warning' | 'danger' | 'neutral';

export const ORDER_STATUSES: readonly SalesOrderStatus[] = [
  'draft',
  'pending',
  'pending_confirmation',
  'confirmed',
  'in_production',
  'ready_to_ship',
  'shipped',
  'delivered',
  'completed',
  'cancelled',
  'on_hold',
];
export const FULFILLMENT_STATES: readonly FulfillmentState[] = ['ready_to_ship', 'partially_ready', 'blocked', 'shipped', 'cancelled'];
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['cash', 'check', 'credit_card', 'paypal', 'venmo', 'zelle', 'wire', 'other'];
/**
 * Carrier tracking events, labelled; a `Record` over the generated enum, so a type the
 * server adds or renames breaks the type-check instead of going missing from the select.
 */
export const SHIPPING_EVENT_LABEL: Record<ShippingEventType, string> = {
  label_created: 'Label created',
  picked_up: 'Picked up',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  delivery_attempted: 'Delivery attempted',
  exception: 'Exception',
  returned_to_sender: 'Returned to sender',
};
export const SHIPPING_EVENT_TYPES = Object.keys(SHIPPING_EVENT_LABEL) as ShippingEventType[];
export const SHIPPING_EVENT_SOURCE_LABEL: Record<ShippingEventSource, string> = { manual: 'Entered by hand', carrier: 'Carrier' };
export const SHIPPING_EVENT_SOURCES = Object.keys(SHIPPING_EVENT_SOURCE_LABEL) as ShippingEventSource[];
export const SHIPPING_EVENT_TONE: Record<ShippingEventType, Tone> = {
  label_created: 'neutral',
  picked_up: 'info',
  in_transit: 'info',
  out_for_delivery: 'info',
  delivered: 'success',
  delivery_attempted: 'warning',
  exception: 'danger',
  returned_to_sender: 'danger',
};
export const QUOTE_STATUSES: readonly QuoteStatus[] = ['pending', 'approved', 'rejected', 'accepted', 'cancelled', 'converted'];

export const ORDER_TONE: Record<string, Tone> = {
  draft: 'neutral',
  pending: 'neutral',
  pending_confirmation: 'warning',
  confirmed: 'info',
  in_production: 'info',
  ready_to_ship: 'success',
  shipped: 'success',
  delivered: 'success',
  completed: 'success',
  cancelled: 'neutral',
  on_hold: 'warning',
};
export const FULFILLMENT_TONE: Record<string, Tone> = {
  ready_to_ship: 'success',
  partially_ready: 'warning',
  blocked: 'danger',
  shipped: 'neutral',
  cancelled: 'neutral',
};
export const PAYMENT_TONE: Record<string, Tone> = { pending: 'warning', partial: 'info', paid: 'success', refunded: 'neutral', overdue: 'danger' };
export const QUOTE_TONE: Record<string, Tone> = { pending: 'warning', approved: 'info', rejected: 'danger', accepted: 'success', cancelled: 'neutral', converted: 'success' };

/** Statuses a quote may be moved to by hand (converted only by converting). */
export function quoteMoves(status: QuoteStatus): QuoteStatus[] {
  switch (status) {
    case 'pending':
      return ['approved', 'rejected', 'cancelled'];
    case 'approved':
      return ['accepted', 'rejected', 'cancelled'];
    case 'accepted':
      return ['cancelled'];
    case 'rejected':
    case 'cancelled':
      return ['pending'];
    default:
      return [];
  }
}

/** A quote becomes an order only when approved or accepted. */
export const canConvert = (q: Pick<Quote, 'status'>) => q.status === 'approved' || q.status === 'accepted';

/** The moves of one status per the server's table; cancelling has its own route and button. */
export function orderMoves(t: StatusTransitions | undefined, status: SalesOrderStatus): SalesOrderStatus[] {
  return (t?.transitions[status]?.allowed_transitions ?? []).filter((s) => s !== 'cancelled');
}

// ---------------------------------------------------------------- form rules (zod)

const money = /^\d+(\.\d{1,2})?$/;
const amount = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => money.test(v) && Number(v) > 0, `Enter ${what} greater than 0, in cents at most.`);
const optionalMoney = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || money.test(v), `Enter ${what}, 0 or more.`);
const text = (max: number, what: string) => z.string().trim().max(max, `Keep ${what} under ${max} characters.`);

export const orderLineSchema = z.object({
  product_id: z.string().min(1, 'Choose an item.'),
  quantity: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 10000, 'Enter a whole quantity from 1 to 10000.'),
});
export const createSalesOrderSchema = z.object({
  customer_id: z.string(),
  lines: z.array(orderLineSchema).min(1, 'Add at least one line.'),
  shipping_cost: optionalMoney('a shipping cost'),
  due_date: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), 'Enter a date like 2026-12-31.'),
  customer_notes: text(2000, 'notes'),
  shipping_address_line1: text(255, 'the address'),
  shipping_city: text(100, 'the city'),
  shipping_state: text(50, 'the state'),
  shipping_zip: text(20, 'the postal code'),
});
export type CreateSalesOrderForm = z.input<typeof createSalesOrderSchema>;

export function createSalesOrderBody(v: CreateSalesOrderForm): SalesOrderCreate {
  return {
    customer_id: v.customer_id ? Number(v.customer_id) : null,
    lines: v.lines.map((l) => ({ product_id: Number(l.product_id), quantity: Number(l.quantity.trim()) })),
    shipping_cost: v.shipping_cost.trim() || null,
    due_date: v.due_date.trim() || null,
    customer_notes: v.customer_notes.trim() || null,
    source: 'manual',
    // Left empty, the server takes the customer's address.
    ...(v.shipping_address_line1.trim()
      ? {
          shipping_address_line1: v.shipping_address_line1.trim(),
          shipping_city: v.shipping_city.trim() || null,
          shipping_state: v.shipping_state.trim() || null,
          shipping_zip: v.shipping_zip.trim() || null,
        }
      : {}),
  };
}

export const shipSchema = z.object({
  carrier: z.string().trim().min(1, 'Enter the carrier.').max(50, 'Keep the carrier under 50 characters.'),
  service: z.string().trim().min(1, 'Enter the service.').max(100, 'Keep the service under 100 characters.'),
  tracking_number: text(100, 'the tracking number'),
});
export type ShipForm = z.input<typeof shipSchema>;

export function shipBody(v: ShipForm): ShipBody {
  return { carrier: v.carrier.trim(), service: v.service.trim(), tracking_number: v.tracking_number.trim() || null };
}

/** A payment or a refund; a refund never exceeds what was paid (`max`), a payment may. */
export function paymentSchema(max?: number) {
  return z.object({
    amount: amount('an amount').refine((v) => max === undefined || Number(v) <= max, `At most ${max ?? 0} can be refunded.`),
    payment_method: z.enum(PAYMENT_METHODS as [PaymentMethod, ...PaymentMethod[]], 'Choose how it was paid.'),
    transaction_id: text(100, 'the reference'),
    check_number: text(50, 'the check number'),
    notes: text(2000, 'notes'),
  });
}
export type PaymentForm = z.input<ReturnType<typeof paymentSchema>>;

export function paymentBody(orderId: number, v: PaymentForm): PaymentCreate {
  return {
    sales_order_id: orderId,
    amount: v.amount.trim(),
    payment_method: v.payment_method as PaymentMethod,
    transaction_id: v.transaction_id.trim() || null,
    check_number: v.check_number.trim() || null,
    notes: v.notes.trim() || null,
  };
}

/** A note in the order's history: `title` 1-255 (the note), `description` up to 2000 (details). */
export const noteSchema = z.object({
  title: z.string().trim().min(1, 'Write the note.').max(255, 'Keep the note under 255 characters; put the rest in the details.'),
  description: text(2000, 'the details'),
});
export type NoteForm = z.input<typeof noteSchema>;

export function noteBody(v: NoteForm): NoteCreate {
  return { title: v.title.trim(), description: v.description.trim() || null };
}

/** A `datetime-local` value ('2026-11-24T10:30') in the browser's zone, as an instant. */
export function localToIso(v: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v)) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A tracking update; `now` is injectable for tests (the server refuses events in the future). */
export function trackingSchema(now: () => Date = () => new Date()) {
  return z.object({
    event_type: z.enum(SHIPPING_EVENT_TYPES as [ShippingEventType, ...ShippingEventType[]], 'Choose what happened.'),
    event_at: z
      .string()
      .trim()
      .refine((v) => v === '' || localToIso(v) !== null, 'Enter a date and time.')
      // A minute of slack for a clock a little ahead of the server's.
      .refine((v) => {
        const iso = v === '' ? null : localToIso(v);
        return iso === null || new Date(iso).getTime() <= now().getTime() + 60_000;
      }, 'The event cannot be in the future.'),
    location: text(255, 'the location'),
    description: text(2000, 'the description'),
    source: z.enum(SHIPPING_EVENT_SOURCES as [ShippingEventSource, ...ShippingEventSource[]], 'Choose who reported it.'),
  });
}
export type TrackingForm = z.input<ReturnType<typeof trackingSchema>>;

/** Left empty, `event_at` is now (the server's clock). */
export function trackingBody(v: TrackingForm): ShippingEventCreate {
  return {
    event_type: v.event_type as ShippingEventType,
    event_at: v.event_at.trim() ? localToIso(v.event_at.trim()) : null,
    location: v.location.trim() || null,
    description: v.description.trim() || null,
    source: v.source as ShippingEventSource,
  };
}

/**
 * Statuses whose address is locked: the server refuses shipped, delivered and cancelled
 * orders (400 `Cannot change the address of a {status} order`); a completed order has
 * shipped too.
 */
const ADDRESS_LOCKED: readonly SalesOrderStatus[] = ['shipped', 'delivered', 'completed', 'cancelled'];

/** The order's owner or an admin may change where it ships until it has shipped. */
export function canChangeAddress(
  order: Pick<SalesOrder, 'status' | 'shipped_at' | 'user_id'>,
  user: { id: number; admin: boolean } | null,
): boolean {
  if (!user || (!user.admin && order.user_id !== user.id)) return false;
  return !ADDRESS_LOCKED.includes(order.status) && !order.shipped_at;
}

/** A new ship-to address; a field left empty keeps what the order has (the server's rule). */
export const addressSchema = z.object({
  shipping_address_line1: z.string().trim().min(1, 'Enter the street.').max(255, 'Keep the street under 255 characters.'),
  shipping_address_line2: text(255, 'the second line'),
  shipping_city: text(255, 'the city'),
  shipping_state: text(255, 'the state'),
  shipping_zip: text(255, 'the postal code'),
  shipping_country: text(255, 'the country'),
});
export type AddressForm = z.input<typeof addressSchema>;

export function addressValues(o: Pick<SalesOrder, 'shipping_address_line1' | 'shipping_address_line2' | 'shipping_city' | 'shipping_state' | 'shipping_zip' | 'shipping_country'>): AddressForm {
  return {
    shipping_address_line1: o.shipping_address_line1 ?? '',
    shipping_address_line2: o.shipping_address_line2 ?? '',
    shipping_city: o.shipping_city ?? '',
    shipping_state: o.shipping_state ?? '',
    shipping_zip: o.shipping_zip ?? '',
    shipping_country: o.shipping_country ?? '',
  };
}

export function addressBody(v: AddressForm): AddressUpdate {
  const t = (s: string) => s.trim() || null;
  return {
    shipping_address_line1: t(v.shipping_address_line1),
    shipping_address_line2: t(v.shipping_address_line2),
    shipping_city: t(v.shipping_city),
    shipping_state: t(v.shipping_state),
    shipping_zip: t(v.shipping_zip),
    shipping_country: t(v.shipping_country),
  };
}

/** An instant as a `datetime-local` value ('2026-11-24T10:30') in the browser's zone. */
export function isoToLocal(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * An admin's shipping details (`PATCH /sales-orders/{id}/shipping`), e.g. for a parcel sent
 * outside Strata; a field left empty keeps what the order has.
 */
export const shippingDetailsSchema = z
  .object({
    carrier: text(255, 'the carrier'),
    tracking_number: text(255, 'the tracking number'),
    shipped_at: z
      .string()
      .trim()
      .refine((v) => v === '' || localToIso(v) !== null, 'Enter a date and time.'),
  })
  .refine((v) => v.carrier || v.tracking_number || v.shipped_at, { path: ['carrier'], message: 'Enter the carrier, the tracking number or when it shipped.' });
export type ShippingDetailsForm = z.input<typeof shippingDetailsSchema>;

export function shippingDetailsValues(o: Pick<SalesOrder, 'carrier' | 'tracking_number' | 'shipped_at'>): ShippingDetailsForm {
  return { carrier: o.carrier ?? '', tracking_number: o.tracking_number ?? '', shipped_at: isoToLocal(o.shipped_at) };
}

export function shippingDetailsBody(v: ShippingDetailsForm): ShippingDetailsUpdate {
  return {
    carrier: v.carrier.trim() || null,
    tracking_number: v.tracking_number.trim() || null,
    shipped_at: v.shipped_at.trim() ? localToIso(v.shipped_at.trim()) : null,
  };
}

export const SALES_PAYMENT_STATUSES: readonly SalesPaymentStatus[] = ['pending', 'partial', 'paid', 'refunded', 'overdue'];

/**
 * An admin's payment details: method and reference are free text; the status may only be
 * flagged where payments cannot say it (`overdue`, `refunded`), otherwise the server answers
 * 400 with what is paid.
 */
export const paymentDetailsSchema = z.object({
  payment_status: z.enum(SALES_PAYMENT_STATUSES as [SalesPaymentStatus, ...SalesPaymentStatus[]], 'Choose a payment status.'),
  payment_method: text(100, 'the method'),
  payment_transaction_id: text(255, 'the reference'),
});
export type PaymentDetailsForm = z.input<typeof paymentDetailsSchema>;

/** Empty method or reference keep what the order has. */
export function paymentDetailsBody(v: PaymentDetailsForm): PaymentDetailsUpdate {
  return {
    payment_status: v.payment_status as SalesPaymentStatus,
    payment_method: v.payment_method.trim() || null,
    payment_transaction_id: v.payment_transaction_id.trim() || null,
  };
}

/** Statuses whose lines an admin may still change or remove (the server's rule, 400 otherwise). */
export const LINE_EDITABLE: readonly SalesOrderStatus[] = ['pending', 'confirmed', 'in_production', 'on_hold'];
/** Statuses an admin may close short: ship what is there and drop the rest. */
export const CLOSE_SHORT_STATUSES: readonly SalesOrderStatus[] = ['confirmed', 'in_production', 'ready_to_ship'];

const reasonText = (what: string) => z.string().trim().min(1, `Say why ${what}.`).max(255, 'Keep the reason under 255 characters.');

/**
 * A line's amendment (`PATCH /sales-orders/{id}/lines`): a whole quantity of 1 or more, a
 * unit price of 0 or more, and the reason, kept in the order's history. The server refuses
 * less than what shipped, was made or is invoiced.
 */
export const lineEditSchema = z.object({
  quantity: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 2147483647, 'Enter a whole quantity of 1 or more.'),
  unit_price: z
    .string()
    .trim()
    .refine((v) => money.test(v), 'Enter a unit price, 0 or more, in cents at most.'),
  reason: reasonText('the line changes'),
});
export type LineEditForm = z.input<typeof lineEditSchema>;

export function lineEditValues(l: Pick<SalesOrderLine, 'quantity' | 'unit_price'>): LineEditForm {
  return { quantity: String(l.quantity), unit_price: String(Number(l.unit_price).toFixed(2)), reason: '' };
}

/** Only what changed is sent; null when neither the quantity nor the price did. */
export function lineEditBody(l: Pick<SalesOrderLine, 'id' | 'quantity' | 'unit_price'>, v: LineEditForm): LinesEdit | null {
  const quantity = Number(v.quantity.trim());
  const price = v.unit_price.trim();
  const edit: LineEdit = { line_id: l.id, reason: v.reason.trim() };
  if (quantity !== Number(l.quantity)) edit.new_quantity = quantity;
  if (Number(price) !== Number(l.unit_price)) edit.new_unit_price = price;
  return edit.new_quantity === undefined && edit.new_unit_price === undefined ? null : { lines: [edit] };
}

/**
 * A line added to an entered order (`POST /sales-orders/{id}/lines`): an item, a whole
 * quantity of 1 or more, a unit price (blank: the item's price, the customer's price level
 * applied) and the reason, kept in the order's history.
 */
export const lineAddSchema = z.object({
  product_id: z.string().min(1, 'Choose an item.'),
  quantity: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 10000, 'Enter a whole quantity from 1 to 10000.'),
  unit_price: z
    .string()
    .trim()
    .refine((v) => v === '' || money.test(v), 'Enter a unit price, 0 or more, in cents at most, or leave it blank.'),
  reason: reasonText('the line is added'),
});
export type LineAddForm = z.input<typeof lineAddSchema>;
export const EMPTY_LINE_ADD: LineAddForm = { product_id: '', quantity: '1', unit_price: '', reason: '' };

export function lineAddBody(v: LineAddForm): LineAdd {
  const body: LineAdd = { product_id: Number(v.product_id), quantity: Number(v.quantity.trim()), reason: v.reason.trim() };
  if (v.unit_price.trim()) body.unit_price = v.unit_price.trim();
  return body;
}

const LINE_EDIT_FIELD: Record<string, keyof LineEditForm> = {
  new_quantity: 'quantity',
  newQuantity: 'quantity',
  new_unit_price: 'unit_price',
  newUnitPrice: 'unit_price',
  reason: 'reason',
};

/** A refused amendment with its field names as the form's (`lines.0.newQuantity` → `quantity`). */
export function lineEditErrorsOnForm(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  const fieldErrors: Record<string, string> = {};
  for (const [field, message] of Object.entries(err.fieldErrors)) {
    const name = LINE_EDIT_FIELD[field.replace(/^lines\.\d+\./, '')] ?? field;
    if (!(name in fieldErrors)) fieldErrors[name] = message;
  }
  return new ApiError(err.status, err.message, fieldErrors, err.code, err.body);
}

export const closeShortSchema = z.object({ reason: reasonText('the order closes short') });
export type CloseShortForm = z.input<typeof closeShortSchema>;

export const quoteSchema = z.object({
  product_id: z.string(),
  product_name: z.string().trim().min(1, 'Enter what is quoted.').max(255, 'Keep the name under 255 characters.'),
  quantity: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'Enter a whole quantity of 1 or more.'),
  unit_price: amount('a unit price'),
  customer_id: z.string(),
  customer_email: z.union([z.literal(''), z.string().trim().email('Enter a valid e-mail address.')]),
  shipping_cost: optionalMoney('a shipping cost'),
  valid_days: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 365), 'Valid for 1 to 365 days.'),
  customer_notes: text(2000, 'notes'),
});
export type QuoteForm = z.input<typeof quoteSchema>;

export function quoteBody(v: QuoteForm): QuoteCreate {
  return {
    product_id: v.product_id ? Number(v.product_id) : null,
    product_name: v.product_name.trim(),
    quantity: Number(v.quantity.trim()),
    unit_price: v.unit_price.trim(),
    customer_id: v.customer_id ? Number(v.customer_id) : null,
    customer_email: v.customer_email.trim() || null,
    shipping_cost: v.shipping_cost.trim() || null,
    valid_days: v.valid_days.trim() ? Number(v.valid_days.trim()) : null,
    customer_notes: v.customer_notes.trim() || null,
  };
}

/** The server edits and deletes any quote but a converted one (400 otherwise). */
export const canEditQuote = (q: Pick<Quote, 'status'>) => q.status !== 'converted';

/**
 * A quote's changes (`PATCH /quotes/{id}`, the fields of its input only). The server keeps a
 * field sent empty, so text can be changed but not cleared; the totals follow the new
 * quantity, price and shipping.
 */
export const quoteEditSchema = z.object({
  product_name: z.string().trim().min(1, 'Enter what is quoted.').max(255, 'Keep the name under 255 characters.'),
  description: text(2000, 'the description'),
  quantity: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 10000, 'Enter a whole quantity from 1 to 10000.'),
  unit_price: amount('a unit price'),
  shipping_cost: optionalMoney('a shipping cost'),
  color: text(50, 'the color'),
  customer_notes: text(2000, 'notes'),
  admin_notes: text(2000, 'staff notes'),
  shipping_name: text(255, 'the name'),
  shipping_address_line1: text(255, 'the street'),
  shipping_address_line2: text(255, 'the second line'),
  shipping_city: text(255, 'the city'),
  shipping_state: text(255, 'the state'),
  shipping_zip: text(255, 'the postal code'),
  shipping_country: text(255, 'the country'),
  shipping_phone: text(255, 'the phone number'),
});
export type QuoteEditForm = z.input<typeof quoteEditSchema>;
export const QUOTE_EDIT_FIELDS = Object.keys(quoteEditSchema.shape) as (keyof QuoteEditForm)[];

/** The form's values from the quote as it is. */
export function quoteEditValues(q: Quote): QuoteEditForm {
  const t = (v: string | null | undefined) => v ?? '';
  return {
    product_name: q.product_name,
    description: t(q.description),
    quantity: String(q.quantity),
    unit_price: String(q.unit_price),
    shipping_cost: String(q.shipping_cost),
    color: t(q.color),
    customer_notes: t(q.customer_notes),
    admin_notes: t(q.admin_notes),
    shipping_name: t(q.shipping_name),
    shipping_address_line1: t(q.shipping_address_line1),
    shipping_address_line2: t(q.shipping_address_line2),
    shipping_city: t(q.shipping_city),
    shipping_state: t(q.shipping_state),
    shipping_zip: t(q.shipping_zip),
    shipping_country: t(q.shipping_country),
    shipping_phone: t(q.shipping_phone),
  };
}

/** Trimmed; empty is null, which the server reads as "keep". */
export function quoteEditBody(v: QuoteEditForm): QuoteUpdate {
  const t = (s: string) => s.trim() || null;
  return {
    product_name: v.product_name.trim(),
    description: t(v.description),
    quantity: Number(v.quantity.trim()),
    unit_price: v.unit_price.trim(),
    shipping_cost: t(v.shipping_cost),
    color: t(v.color),
    customer_notes: t(v.customer_notes),
    admin_notes: t(v.admin_notes),
    shipping_name: t(v.shipping_name),
    shipping_address_line1: t(v.shipping_address_line1),
    shipping_address_line2: t(v.shipping_address_line2),
    shipping_city: t(v.shipping_city),
    shipping_state: t(v.shipping_state),
    shipping_zip: t(v.shipping_zip),
    shipping_country: t(v.shipping_country),
    shipping_phone: t(v.shipping_phone),
  };
}

export const quoteStatusSchema = z
  .object({ status: z.enum(QUOTE_STATUSES as [QuoteStatus, ...QuoteStatus[]], 'Choose a status.'), rejection_reason: text(2000, 'the reason') })
  .refine((v) => v.status !== 'rejected' || v.rejection_reason.length > 0, { path: ['rejection_reason'], message: 'Say why it was rejected.' });
export type QuoteStatusForm = z.input<typeof quoteStatusSchema>;

// ---------------------------------------------------------------- calls

const key = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
const once = (k?: string) => ({ headers: { 'Idempotency-Key': k ?? key() } });

export const salesApi = {
  list: (q: SalesOrderQuery, signal?: AbortSignal) => api.get<SalesOrderRow[]>('/sales-orders/', { ...q }, signal),
  get: (id: number, signal?: AbortSignal) => api.get<SalesOrder>(`/sales-orders/${id}`, undefined, signal),
  events: (id: number, signal?: AbortSignal) =>
    api.get<{ items: SalesOrderEvent[] }>(`/sales-orders/${id}/events`, undefined, signal).then((r) => r.items),
  addNote: (id: number, body: NoteCreate, k: string) => api.post<SalesOrderEvent>(`/sales-orders/${id}/events`, body, once(k)),
  shippingEvents: (id: number, signal?: AbortSignal) =>
    api.get<{ items: ShippingEvent[] }>(`/sales-orders/${id}/shipping-events`, undefined, signal).then((r) => r.items),
  recordShippingEvent: (id: number, body: ShippingEventCreate, k: string) => api.post<ShippingEvent>(`/sales-orders/${id}/shipping-events`, body, once(k)),
  blockingIssues: (id: number, signal?: AbortSignal) => api.get<BlockingIssues>(`/sales-orders/${id}/blocking-issues`, undefined, signal),
  materialRequirements: (id: number, signal?: AbortSignal) =>
    api.get<MaterialRequirements>(`/sales-orders/${id}/material-requirements`, undefined, signal),
  requiredOrders: (id: number, signal?: AbortSignal) => api.get<RequiredOrders>(`/sales-orders/${id}/required-orders`, undefined, signal),
  transitions: (signal?: AbortSignal) => api.get<StatusTransitions>('/sales-orders/status-transitions', undefined, signal),
  /** One key per opened dialog: a double click or a retry posts once. */
  create: (body: SalesOrderCreate, k: string) => api.post<SalesOrder>('/sales-orders/', body, once(k)),
  setStatus: (id: number, status: SalesOrderStatus) => api.request<SalesOrder>(`/sales-orders/${id}/status`, { method: 'PATCH', json: { status }, ...once() }),
  cancel: (id: number, reason?: string) => api.post<SalesOrder>(`/sales-orders/${id}/cancel`, { cancellation_reason: reason || null }, once()),
  remove: (id: number) => api.del<unknown>(`/sales-orders/${id}`),
  setPaymentDetails: (id: number, body: PaymentDetailsUpdate) =>
    api.request<SalesOrder>(`/sales-orders/${id}/payment`, { method: 'PATCH', json: body, ...once() }),
  setAddress: (id: number, body: AddressUpdate) => api.request<SalesOrder>(`/sales-orders/${id}/address`, { method: 'PATCH', json: body, ...once() }),
  setShippingDetails: (id: number, body: ShippingDetailsUpdate) =>
    api.request<SalesOrder>(`/sales-orders/${id}/shipping`, { method: 'PATCH', json: body, ...once() }),
  editLines: (id: number, body: LinesEdit, k: string) => api.request<SalesOrder>(`/sales-orders/${id}/lines`, { method: 'PATCH', json: body, ...once(k) }),
  addLine: (id: number, body: LineAdd, k: string) => api.post<SalesOrder>(`/sales-orders/${id}/lines`, body, once(k)),
  removeLine: (id: number, lineId: number) => api.del<SalesOrder>(`/sales-orders/${id}/lines/${lineId}`),
  closeShortPreview: (id: number, signal?: AbortSignal) => api.get<CloseShortPreview>(`/sales-orders/${id}/close-short-preview`, undefined, signal),
  closeShort: (id: number, reason: string, k: string) => api.post<SalesOrder>(`/sales-orders/${id}/close-short`, { reason }, once(k)),
  generateProduction: (id: number) => api.post<unknown>(`/sales-orders/${id}/generate-production-orders`, undefined, once()),
  ship: (id: number, body: ShipBody, k: string) => api.post<ShipResult>(`/sales-orders/${id}/ship`, body, once(k)),
  paymentSummary: (orderId: number, signal?: AbortSignal) => api.get<PaymentSummary>(`/payments/order/${orderId}/summary`, undefined, signal),
  paymentsDashboard: (signal?: AbortSignal) => api.get<PaymentsDashboard>('/payments/dashboard', undefined, signal),
  payments: (q: PaymentQuery, signal?: AbortSignal) => api.get<PaymentList>('/payments', { ...q }, signal),
  recordPayment: (body: PaymentCreate, k: string) => api.post<Payment>('/payments', body, once(k)),
  refund: (body: PaymentCreate, k: string) => api.post<Payment>('/payments/refund', body, once(k)),
  voidPayment: (id: number) => api.request<unknown>(`/payments/${id}`, { method: 'DELETE', ...once() }),
  shipments: (q: { sales_order_id?: number; limit?: number; offset?: number }, signal?: AbortSignal) =>
    api.get<ShipmentList>('/shipments/', { ...q }, signal),
  quoteStats: (signal?: AbortSignal) => api.get<QuoteStats>('/quotes/stats', undefined, signal),
  quotes: (q: QuoteQuery, signal?: AbortSignal) => api.get<Quote[]>('/quotes/', { ...q }, signal),
  createQuote: (body: QuoteCreate, k: string) => api.post<Quote>('/quotes/', body, once(k)),
  updateQuote: (id: number, body: QuoteUpdate) => api.patch<Quote>(`/quotes/${id}`, body),
  deleteQuote: (id: number) => api.del<unknown>(`/quotes/${id}`),
  quoteStatus: (id: number, v: QuoteStatusForm) =>
    api.patch<Quote>(`/quotes/${id}/status`, { status: v.status, rejection_reason: v.rejection_reason.trim() || null }),
  uploadQuoteImage: (id: number, file: File) => {
    const formData = new FormData();
    formData.append('file', file, file.name);
    return api.request<Quote>(`/quotes/${id}/image`, { method: 'POST', formData });
  },
  deleteQuoteImage: (id: number) => api.request<Quote>(`/quotes/${id}/image`, { method: 'DELETE' }),
  convertQuote: (id: number) => api.post<{ message: string; order_id: number; order_number: string }>(`/quotes/${id}/convert`, undefined, once()),
  newKey: key,
};
