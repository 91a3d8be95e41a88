/**
 * The order CSV import (CONTRACT 5.11, issue 15): the calls and the pure helpers the
 * Import Orders page shows its report with. `POST /admin/orders/import/preview` checks a
 * file without writing; `POST /admin/orders/import` imports it; both answer the same
 * report (`applied` tells them apart). The options are query parameters.
 */
import { api } from '../../api/client';
import type { Api } from '../../api/model';

export type OrderImportReport = Api<'/admin/orders/import', 'post'>;
export type OrderImportOrder = OrderImportReport['orders'][number];
export type OrderImportRowError = OrderImportReport['errors'][number];
export type OrderImportSource = OrderImportReport['source'];

/** The public CSV template (the header and an example order of two lines). */
export const ORDER_TEMPLATE_URL = '/admin/orders/import/template';

/** The sources a file can be imported as; '' lets the server judge from the header. */
export const SOURCE_OPTIONS: readonly { value: '' | Exclude<OrderImportSource, 'portal'>; label: string }[] = [
  { value: '', label: 'Detect from file' },
  { value: 'manual', label: 'Strata template (manual)' },
  { value: 'shopify', label: 'Shopify' },
  { value: 'squarespace', label: 'Squarespace' },
  { value: 'woocommerce', label: 'WooCommerce' },
  { value: 'etsy', label: 'Etsy' },
  { value: 'tiktok', label: 'TikTok Shop' },
];

export interface OrderImportOptions {
  createCustomers: boolean;
  /** '' (or absent): the server judges the format from the header. */
  source?: string;
}

/** The query string of an import: `create_customers` always, `source` only when chosen. */
export function importQuery(o: OrderImportOptions): Record<string, string | boolean> {
  const q: Record<string, string | boolean> = { create_customers: o.createCustomers };
  if (o.source) q.source = o.source;
  return q;
}

/** Checks (`preview`) or imports an order file. */
export function importOrders(file: File, options: OrderImportOptions, preview: boolean, onUploadProgress?: (f: number) => void) {
  const fd = new FormData();
  fd.append('file', file, file.name);
  return api.request<OrderImportReport>(preview ? '/admin/orders/import/preview' : '/admin/orders/import', {
    method: 'POST',
    query: importQuery(options),
    formData: fd,
    onUploadProgress,
  });
}

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

const OUTCOME: Record<string, { label: string; tone: Tone }> = {
  ready: { label: 'Ready', tone: 'success' },
  created: { label: 'Created', tone: 'success' },
  duplicate: { label: 'Already imported', tone: 'neutral' },
  cancelled: { label: 'Cancelled in shop', tone: 'warning' },
  invalid: { label: 'Invalid', tone: 'danger' },
};

/** The badge of an order's outcome. */
export function outcomeBadge(outcome: string): { label: string; tone: Tone } {
  return OUTCOME[outcome] ?? { label: outcome.charAt(0).toUpperCase() + outcome.slice(1), tone: 'neutral' };
}

const CUSTOMER: Record<string, { label: string; tone: Tone }> = {
  existing: { label: 'Existing', tone: 'neutral' },
  new: { label: 'New', tone: 'info' },
  created: { label: 'Created', tone: 'info' },
  none: { label: 'Not linked', tone: 'warning' },
};

/** The badge of an order's customer (existing, new in a preview, created, not linked). */
export function customerBadge(customer: string): { label: string; tone: Tone } {
  return CUSTOMER[customer] ?? { label: customer, tone: 'neutral' };
}

/** Orders a preview says would be created (the report counts them all, not only the first 100 listed). */
export function readyCount(report: OrderImportReport): number {
  return report.applied ? 0 : report.created;
}

/** "Import 1 order", "Import 12 orders". */
export function importLabel(n: number): string {
  return `Import ${n} order${n === 1 ? '' : 's'}`;
}

/** The order numbers an applied import created, in file order. */
export function createdNumbers(report: OrderImportReport): string[] {
  return report.orders.filter((o) => o.outcome === 'created' && o.order_number).map((o) => o.order_number as string);
}

/** Readable name of the format the server detected. */
export function formatName(detected: string): string {
  const names: Record<string, string> = {
    strata: 'Strata template',
    shopify: 'Shopify',
    squarespace: 'Squarespace',
    woocommerce: 'WooCommerce',
    etsy: 'Etsy',
    tiktok: 'TikTok Shop',
  };
  return names[detected] ?? detected;
}

const ACRONYMS = new Set(['id', 'sku', 'po']);

/**
 * The column of a row error as the file's header names it (the server reports field keys
 * such as `product_sku`), or a dash when the whole row is at fault.
 */
export function errorColumn(e: OrderImportRowError): string {
  const f = e.field?.trim();
  if (!f) return '—';
  if (!/^[a-z0-9_]+$/.test(f)) return f;
  return f
    .split('_')
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

/** The server's sentence and the detected format, as one line. */
export function reportLine(report: OrderImportReport): string {
  const msg = report.message.trim();
  const sentence = msg && !/[.!?]$/.test(msg) ? `${msg}.` : msg;
  return `${sentence} Format: ${formatName(report.detected_format)}.`.trim();
}

/** Whether the customer badge says something: an order that is not imported links no one. */
export function showsCustomer(o: OrderImportOrder): boolean {
  return !(o.customer === 'none' && o.outcome !== 'ready' && o.outcome !== 'created');
}

/**
 * One of an order's problems, readable: the server writes `row 6: product_sku: Product SKU
 * 'X' not found`; the field key is dropped when the reason names it already.
 */
export function orderProblem(text: string): string {
  const m = /^row (\d+): ([a-z0-9_]+): (.*)$/i.exec(text.trim());
  if (!m) return text;
  const [, row = '', field = '', reason = ''] = m;
  const column = errorColumn({ row: Number(row), field, reason });
  return reason.toLowerCase().includes(column.toLowerCase()) ? `Row ${row}: ${reason}` : `Row ${row}, ${column}: ${reason}`;
}
