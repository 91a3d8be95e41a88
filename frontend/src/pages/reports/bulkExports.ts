/**
 * Bulk exports for report builders: the calls and the pure helpers the Bulk Exports page
 * uses. `POST /bulk-exports` queues a GraphQL query with one top-level list field as a
 * JSONL or CSV file (202); a job runs it as the caller. `GET /bulk-exports` lists the
 * caller's exports newest first; `download_url` serves the file while it is completed and
 * not expired (24 hours).
 */
import { z } from 'zod';
import { api } from '../../api/client';
import type { Api } from '../../api/model';
import { formatBytes } from '../../lib/format';

export type BulkExport = Api<'/bulk-exports', 'get'>[number];
export type BulkExportFormat = BulkExport['format'];
export type BulkExportStatus = BulkExport['status'];

/** How many exports the table lists (the route allows 1-100). */
export const EXPORT_LIST_LIMIT = 50;
/** How often the table refreshes while an export is queued or running. */
export const POLL_MS = 1500;

export const FORMAT_OPTIONS: readonly { value: BulkExportFormat; label: string; hint: string }[] = [
  { value: 'csv', label: 'CSV', hint: 'A spreadsheet: one column per field. Flat selections only.' },
  { value: 'jsonl', label: 'JSON Lines', hint: 'One JSON object per line; nested fields allowed.' },
];

export interface ExportPreset {
  id: string;
  label: string;
  description: string;
  format: BulkExportFormat;
  query: string;
}

/**
 * Ready-made queries (each checked against the server's schema). CSV presets select
 * only flat fields; the journal preset keeps each entry's lines, so it is JSONL.
 */
export const PRESETS: readonly ExportPreset[] = [
  {
    id: 'inventory-ledger',
    label: 'Inventory ledger',
    description: 'Every stock movement with its item, location, quantity and cost.',
    format: 'csv',
    query: `{
  inventoryTransactions {
    nodes {
      id
      createdAt
      transactionType
      productSku
      productName
      locationName
      quantity
      unit
      costPerUnit
      totalCost
      lotNumber
      serialNumber
      reason
    }
  }
}`,
  },
  {
    id: 'journal-entries',
    label: 'Journal entries',
    description: 'Posted journal entries with their debit and credit lines (nested: JSON Lines).',
    format: 'jsonl',
    query: `{
  journalEntries {
    nodes {
      entryNumber
      entryDate
      description
      sourceType
      status
      totalDebit
      lines {
        accountCode
        accountName
        debitAmount
        creditAmount
        memo
      }
    }
  }
}`,
  },
  {
    id: 'sales-orders',
    label: 'Sales orders',
    description: 'Orders with their customer, status and totals.',
    format: 'csv',
    query: `{
  salesOrders {
    nodes {
      orderNumber
      createdAt
      status
      paymentStatus
      customerName
      customerEmail
      subtotal
      taxAmount
      shippingCost
      grandTotal
    }
  }
}`,
  },
  {
    id: 'items',
    label: 'Items',
    description: 'The item master with prices and stock on hand.',
    format: 'csv',
    query: `{
  items {
    nodes {
      sku
      name
      itemType
      unit
      sellingPrice
      standardCost
      onHandQty
      availableQty
      reorderPoint
      active
    }
  }
}`,
  },
  {
    id: 'production-orders',
    label: 'Production orders',
    description: 'Work orders with their product, quantities and dates.',
    format: 'csv',
    query: `{
  productionOrders {
    nodes {
      code
      status
      productSku
      productName
      quantityOrdered
      quantityCompleted
      quantityScrapped
      dueDate
      completedAt
    }
  }
}`,
  },
];

/** '' when the query is not a preset's (edited by hand). */
export function presetOf(query: string): string {
  const q = normaliseQuery(query);
  return PRESETS.find((p) => normaliseQuery(p.query) === q)?.id ?? '';
}

export function presetById(id: string): ExportPreset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** Whitespace-insensitive form of a query (to tell a preset from an edited one). */
export function normaliseQuery(query: string): string {
  return query.replace(/\s+/g, ' ').replace(/\s*([{}()])\s*/g, '$1').trim();
}

export const exportFormSchema = z.object({
  preset: z.string(),
  query: z
    .string()
    .trim()
    .min(1, 'Enter a GraphQL query, e.g. { items { nodes { sku name } } }.')
    .max(20_000, 'The query is too long (20,000 characters at most).')
    .refine((q) => q.includes('{'), 'A GraphQL query selects fields in braces, e.g. { items { nodes { sku name } } }.'),
  format: z.enum(['jsonl', 'csv']),
});
export type ExportFormValues = z.input<typeof exportFormSchema>;

export const DEFAULT_FORM: ExportFormValues = { preset: PRESETS[0]!.id, query: PRESETS[0]!.query, format: PRESETS[0]!.format };

/** A fresh Idempotency-Key (one per submitted form). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Fallback for old browsers: random enough to tell two submits apart.
  return `bx-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export const bulkExportApi = {
  list: (limit = EXPORT_LIST_LIMIT) => api.get<BulkExport[]>('/bulk-exports', { limit }),
  get: (id: number) => api.get<BulkExport>(`/bulk-exports/${id}`),
  create: (body: { query: string; format: BulkExportFormat }, idempotencyKey: string) =>
    api.post<BulkExport>('/bulk-exports', body, { headers: { 'Idempotency-Key': idempotencyKey } }),
};

/** True while an export still has work to do (queued or running). */
export function isActive(e: Pick<BulkExport, 'status'>): boolean {
  return e.status === 'queued' || e.status === 'running';
}

/** The table's refetch interval: poll while any export is queued or running, else stop. */
export function pollInterval(exports: readonly Pick<BulkExport, 'status'>[] | undefined, ms = POLL_MS): number | false {
  return exports?.some(isActive) ? ms : false;
}

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

const STATUS: Record<BulkExportStatus, { label: string; tone: Tone }> = {
  queued: { label: 'Queued', tone: 'neutral' },
  running: { label: 'Running', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  expired: { label: 'Expired', tone: 'warning' },
};

export function statusBadge(status: string): { label: string; tone: Tone } {
  return STATUS[status as BulkExportStatus] ?? { label: status.charAt(0).toUpperCase() + status.slice(1), tone: 'neutral' };
}

/** "1,234 rows" (done) or "1,234 rows so far" (running); "—" before it starts. */
export function progressLabel(e: Pick<BulkExport, 'status' | 'progress' | 'row_count'>): string {
  const n = new Intl.NumberFormat('en-US');
  const rows = (k: number) => `${n.format(k)} row${k === 1 ? '' : 's'}`;
  if (e.status === 'queued') return 'Waiting to start';
  if (e.status === 'running') return `${rows(e.progress)} so far`;
  if (e.row_count !== null && e.row_count !== undefined) return rows(e.row_count);
  return e.progress > 0 ? rows(e.progress) : '—';
}

/** The file size once there is a file; "—" before. */
export function sizeLabel(e: Pick<BulkExport, 'status' | 'size_bytes'>): string {
  if (e.status === 'queued' || e.status === 'failed') return '—';
  return formatBytes(e.size_bytes);
}

/** Whether the file can be downloaded now (completed and not past `expires_at`). */
export function canDownload(e: Pick<BulkExport, 'status' | 'download_url' | 'expires_at'>, now: Date = new Date()): boolean {
  if (e.status !== 'completed' || !e.download_url) return false;
  if (!e.expires_at) return true;
  const t = new Date(e.expires_at).getTime();
  return Number.isNaN(t) || t > now.getTime();
}

/** The file name a download is saved under. */
export function exportFilename(e: Pick<BulkExport, 'id' | 'format'>): string {
  return `bulk-export-${e.id}.${e.format}`;
}

/** "in 23 h", "in 5 min", "expired" for the expiry column; "—" without one. */
export function expiresLabel(expiresAt: string | null | undefined, now: Date = new Date()): string {
  if (!expiresAt) return '—';
  const t = new Date(expiresAt).getTime();
  if (Number.isNaN(t)) return expiresAt;
  const mins = Math.round((t - now.getTime()) / 60_000);
  if (mins <= 0) return 'Expired';
  if (mins < 60) return `in ${mins} min`;
  return `in ${Math.round(mins / 60)} h`;
}

/** The first top-level field a query selects (for the table's "what" column): `items`. */
export function rootField(query: string): string {
  const body = query.replace(/#[^\n]*/g, '');
  const m = /^\s*(?:query\b[^{]*)?\{\s*(?:[A-Za-z_]\w*\s*:\s*)?([A-Za-z_]\w*)/.exec(body);
  return m?.[1] ?? '';
}
