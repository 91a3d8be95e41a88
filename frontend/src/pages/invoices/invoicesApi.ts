/**
 * Invoice calls (`/invoices`, admins only): the list with its summary, one invoice, writing
 * one from an order (whole or a deposit), recording a payment, sending, voiding and the PDF.
 * Their query keys (`queryKeys.invoices`) start with the resource, so every change can
 * invalidate them; payments and shipments change invoices too (`useSalesInvalidate`).
 */
import { z } from 'zod';
import { api } from '../../api/client';
import type { Api, ListQuery, RequestBody, SortBy } from '../../api/model';
import { formatMoney, toNumber } from '../../lib/format';

export type InvoiceRow = Api<'/invoices', 'get'>[number];
export type Invoice = Api<'/invoices/{id}', 'get'>;
export type InvoiceLine = Invoice['lines'][number];
export type InvoiceSummary = Api<'/invoices/summary', 'get'>;
export type InvoiceQuery = ListQuery<'/invoices'>;
export type InvoiceCreate = RequestBody<'/invoices', 'post'>;
export type InvoiceUpdate = RequestBody<'/invoices/{id}', 'patch'>;
export type InvoiceSend = RequestBody<'/invoices/{id}/send', 'post'>;
export type InvoiceVoid = RequestBody<'/invoices/{id}/void', 'post'>;
export type InvoiceStatus = Invoice['status'];
export type InvoiceStatusFilter = NonNullable<InvoiceQuery['status']>;
export type InvoicePaymentMethod = NonNullable<InvoiceUpdate['payment_method']>;
export type PaymentTerms = Invoice['payment_terms'];

type Tone = 'success' | 'info' | 'warning' | 'danger' | 'neutral';

/** The list's status tabs, in order; `all` is the default (no `status` in the URL). */
export const INVOICE_FILTER_LABEL: Record<InvoiceStatusFilter, string> = {
  all: 'All',
  open: 'Open',
  overdue: 'Overdue',
  draft: 'Draft',
  sent: 'Sent',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  voided: 'Voided',
};
export const INVOICE_FILTERS = Object.keys(INVOICE_FILTER_LABEL) as InvoiceStatusFilter[];

/** The sort keys `/invoices` accepts (the sortable columns). */
export const INVOICE_SORTS = ['created_at', 'due_date', 'invoice_number', 'total', 'amount_due', 'customer_name'] as const satisfies readonly SortBy<InvoiceQuery>[];

/** Tone of `display_status`: overdue is red, whatever the stored status. */
export const INVOICE_TONE: Record<string, Tone> = {
  draft: 'neutral',
  sent: 'info',
  partially_paid: 'warning',
  paid: 'success',
  voided: 'neutral',
  overdue: 'danger',
};

export const TERMS_LABEL: Record<PaymentTerms, string> = {
  cod: 'Cash on delivery',
  prepay: 'Prepaid',
  net15: 'Net 15',
  net30: 'Net 30',
  net60: 'Net 60',
  card_on_file: 'Card on file',
};

/**
 * How an invoice payment was made; a `Record` over the generated enum, so a method the
 * server adds or renames breaks the type-check instead of going missing from the select.
 */
export const INVOICE_METHOD_LABEL: Record<InvoicePaymentMethod, string> = {
  cash: 'Cash',
  check: 'Check',
  credit_card: 'Credit card',
  paypal: 'PayPal',
  venmo: 'Venmo',
  zelle: 'Zelle',
  wire: 'Wire transfer',
  other: 'Other',
};
export const INVOICE_METHODS = Object.keys(INVOICE_METHOD_LABEL) as InvoicePaymentMethod[];

/** A payment can be recorded while something is owed on a draft, sent or partly paid invoice. */
export const canRecordPayment = (i: Pick<Invoice, 'status' | 'amount_due'>) =>
  (i.status === 'draft' || i.status === 'sent' || i.status === 'partially_paid') && (toNumber(i.amount_due) ?? 0) > 0;
/** Anything but a voided invoice can be (re)sent; the server refuses a voided one (400). */
export const canSend = (i: Pick<Invoice, 'status'>) => i.status !== 'voided';
/** Offered on every invoice not voided yet; the server refuses one with payments applied (409). */
export const canVoid = (i: Pick<Invoice, 'status'>) => i.status !== 'voided';

/** Orders the server bills: confirmed or further along (400 otherwise). */
export const BILLABLE_ORDER_STATUSES = ['confirmed', 'in_production', 'ready_to_ship', 'shipped', 'delivered', 'completed'] as const;

// ---------------------------------------------------------------- form rules (zod)

const money = /^\d+(\.\d{1,2})?$/;
const email = z.string().trim().max(254, 'Keep the address under 254 characters.');

/** A payment against the invoice: more than 0, to the cent, and at most what is due. */
export function invoicePaymentSchema(due: number) {
  return z.object({
    amount_paid: z
      .string()
      .trim()
      .refine((v) => money.test(v) && Number(v) > 0, 'Enter an amount greater than 0, in cents at most.')
      .refine((v) => !money.test(v) || Number(v) <= due + 1e-9, `At most ${formatMoney(due)} is due on this invoice.`),
    payment_method: z.enum(INVOICE_METHODS as [InvoicePaymentMethod, ...InvoicePaymentMethod[]], 'Choose how it was paid.'),
    payment_reference: z.string().trim().max(200, 'Keep the reference under 200 characters.'),
  });
}
export type InvoicePaymentForm = z.input<ReturnType<typeof invoicePaymentSchema>>;

export function invoicePaymentBody(v: InvoicePaymentForm): InvoiceUpdate {
  return {
    amount_paid: v.amount_paid.trim(),
    payment_method: v.payment_method as InvoicePaymentMethod,
    payment_reference: v.payment_reference.trim() || null,
  };
}

/** Whom to send it to; left empty, the customer's e-mail on the invoice. */
export const sendSchema = z.object({
  to: email.refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Enter a valid e-mail address, like name@company.com.'),
});
export type SendForm = z.input<typeof sendSchema>;

export function sendBody(v: SendForm): InvoiceSend {
  return { to: v.to.trim() || null };
}

export const VOID_REASON_MAX = 255;
export const voidSchema = z.object({
  reason: z.string().trim().min(1, 'Say why the invoice is voided.').max(VOID_REASON_MAX, `Keep the reason under ${VOID_REASON_MAX} characters.`),
});
export type VoidForm = z.input<typeof voidSchema>;

/** A new invoice for an order: everything not billed yet, or only `amount` of it (a deposit). */
export function createInvoiceSchema(left: number | null) {
  return z.object({
    amount: z
      .string()
      .trim()
      .refine((v) => v === '' || (money.test(v) && Number(v) > 0), 'Enter an amount greater than 0, in cents at most, or leave it empty.')
      .refine((v) => v === '' || left === null || !money.test(v) || Number(v) <= left + 1e-9, `At most ${formatMoney(left)} is left to invoice.`),
  });
}
export type CreateInvoiceForm = z.input<ReturnType<typeof createInvoiceSchema>>;

export function createInvoiceBody(orderId: number, v: CreateInvoiceForm): InvoiceCreate {
  const amount = v.amount.trim();
  return amount ? { sales_order_id: orderId, amount } : { sales_order_id: orderId };
}

/** What an order still has to be billed: its total less its invoices that are not voided. */
export function leftToInvoice(grandTotal: string | number | null | undefined, invoices: readonly Pick<InvoiceRow, 'status' | 'total'>[]): number {
  const billed = invoices.filter((i) => i.status !== 'voided').reduce((sum, i) => sum + (toNumber(i.total) ?? 0), 0);
  return Math.max(0, Math.round(((toNumber(grandTotal) ?? 0) - billed) * 100) / 100);
}

// ---------------------------------------------------------------- calls

const key = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
const once = (k?: string) => ({ headers: { 'Idempotency-Key': k ?? key() } });

export const invoicesApi = {
  /** A bare array, newest first unless sorted: the page has no total. */
  list: (q: InvoiceQuery, signal?: AbortSignal) => api.get<InvoiceRow[]>('/invoices', { ...q }, signal),
  summary: (signal?: AbortSignal) => api.get<InvoiceSummary>('/invoices/summary', undefined, signal),
  get: (id: number, signal?: AbortSignal) => api.get<Invoice>(`/invoices/${id}`, undefined, signal),
  /** One key per opened dialog: a double click or a retry writes one invoice. */
  create: (body: InvoiceCreate, k: string) => api.post<Invoice>('/invoices', body, once(k)),
  recordPayment: (id: number, body: InvoiceUpdate, k: string) => api.request<Invoice>(`/invoices/${id}`, { method: 'PATCH', json: body, ...once(k) }),
  markSent: (id: number) => api.request<Invoice>(`/invoices/${id}`, { method: 'PATCH', json: { status: 'sent' } satisfies InvoiceUpdate, ...once() }),
  send: (id: number, body: InvoiceSend, k: string) => api.post<Invoice>(`/invoices/${id}/send`, body, once(k)),
  void: (id: number, body: InvoiceVoid, k: string) => api.post<Invoice>(`/invoices/${id}/void`, body, once(k)),
  /** The PDF's address, for `<DownloadLink>` (fetched with the session's token). */
  pdfUrl: (id: number) => `/api/v1/invoices/${id}/pdf`,
  newKey: key,
};
