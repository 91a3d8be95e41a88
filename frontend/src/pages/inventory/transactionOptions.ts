import type { InventoryTransaction, InventoryTransactionQuery, TransactionType } from '../../api/model';
import type { Option } from '../../components/Field';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

/** The movements a person may post by hand (CONTRACT 6.5). */
export const MANUAL_TYPES = ['receipt', 'issue', 'transfer', 'adjustment', 'consumption', 'scrap'] as const satisfies readonly TransactionType[];
export type ManualType = (typeof MANUAL_TYPES)[number];

/** Every type the ledger holds, for the filter (checked against the generated schema). */
export const ALL_TYPES = [
  ...MANUAL_TYPES,
  'shipment',
  'reservation',
  'release',
  'reservation_release',
  'production',
  'machine_time',
  'negative_adjustment',
] as const satisfies readonly NonNullable<InventoryTransactionQuery['transaction_type']>[];

const LABELS: Record<TransactionType, string> = {
  receipt: 'Receipt',
  issue: 'Issue',
  transfer: 'Transfer',
  adjustment: 'Adjustment',
  consumption: 'Consumption',
  scrap: 'Scrap',
  shipment: 'Shipment',
  reservation: 'Reservation',
  release: 'Release',
  reservation_release: 'Reservation release',
  production: 'Production',
  machine_time: 'Machine time',
  negative_adjustment: 'Negative adjustment',
};

const TONES: Partial<Record<TransactionType, Tone>> = {
  receipt: 'success',
  production: 'success',
  issue: 'info',
  consumption: 'info',
  shipment: 'info',
  transfer: 'neutral',
  adjustment: 'warning',
  negative_adjustment: 'warning',
  scrap: 'danger',
};

export const typeLabel = (t: TransactionType): string => LABELS[t] ?? t;
export const typeTone = (t: TransactionType): Tone => TONES[t] ?? 'neutral';
export const isTransactionType = (v: string | undefined): v is (typeof ALL_TYPES)[number] => ALL_TYPES.some((t) => t === v);

export const MANUAL_TYPE_OPTIONS: Option[] = MANUAL_TYPES.map((t) => ({ value: t, label: LABELS[t] }));
/** The filter leaves out `transfer`: a transfer is stored as an issue plus a receipt (CONTRACT 5.8). */
export const TYPE_FILTER_OPTIONS: Option[] = ALL_TYPES.filter((t) => t !== 'transfer').map((t) => ({ value: t, label: LABELS[t] }));

/** What each manual type does, shown under the type picker. */
export const TYPE_HINTS: Record<ManualType, string> = {
  receipt: 'Stock arrives at a location (valued at the unit cost you enter).',
  issue: 'Stock leaves a location for use outside production.',
  transfer: 'Stock moves between two locations (an issue plus a receipt).',
  adjustment: 'Correct the books: a positive quantity adds stock, a negative one removes it.',
  consumption: 'Stock used up by work, such as filament for a print.',
  scrap: 'Stock thrown away as waste.',
};

/** A transaction that took stock below zero and is still waiting for an administrator. */
export const needsApproval = (t: InventoryTransaction): boolean => t.requires_approval && !t.approved_at;
