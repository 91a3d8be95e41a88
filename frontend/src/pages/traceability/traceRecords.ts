/** Traceability records by hand (CONTRACT 5.19, admins): lots, lot consumptions, serial numbers
 * and customers' traceability profiles. The pure parts (moves, payloads, schemas) are tested. */
import { z } from 'zod';
import { api } from '../../api/client';
import type { Api, RequestBody } from '../../api/model';
import type { LotStatus, MaterialLot, SerialStatus, SerialUnit } from './traceApi';

export type LotCreate = RequestBody<'/admin/traceability/lots', 'post'>;
export type LotPatch = RequestBody<'/admin/traceability/lots/{lot_id}', 'patch'>;
export type ConsumptionCreate = RequestBody<'/admin/traceability/consumptions', 'post'>;
export type SerialsCreate = RequestBody<'/admin/traceability/serials', 'post'>;
export type SerialPatch = RequestBody<'/admin/traceability/serials/{serial_id}', 'patch'>;
export type Profile = Api<'/admin/traceability/profiles', 'get'>[number];
export type ProfileCreate = RequestBody<'/admin/traceability/profiles', 'post'>;
export type ProfilePatch = RequestBody<'/admin/traceability/profiles/{user_id}', 'patch'>;
export type InspectionStatus = NonNullable<LotCreate['inspection_status']>;
export type TraceLevel = Profile['traceability_level'];

export const INSPECTION_STATUSES: readonly InspectionStatus[] = ['pending', 'passed', 'failed', 'waived'];
export const TRACE_LEVELS: readonly TraceLevel[] = ['none', 'lot', 'serial', 'full'];

/** A fresh Idempotency-Key: one per submitted form, so a double click posts once. */
export function newKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `tr-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

const once = (key: string) => ({ headers: { 'Idempotency-Key': key } });

export const recordsApi = {
  createLot: (body: LotCreate, key: string) => api.post<MaterialLot>('/admin/traceability/lots', body, once(key)),
  updateLot: (id: number, body: LotPatch) => api.patch<MaterialLot>(`/admin/traceability/lots/${id}`, body),
  generateLotNumber: (productId: number, key: string) =>
    api.post<{ lot_number: string }>('/admin/traceability/lots/generate-number', { product_id: productId }, once(key)),
  consume: (body: ConsumptionCreate, key: string) => api.post<unknown>('/admin/traceability/consumptions', body, once(key)),
  numberUnits: (body: SerialsCreate, key: string) => api.post<SerialUnit[]>('/admin/traceability/serials', body, once(key)),
  /** The units a work order made (the consumption dialog's optional unit). */
  unitsOf: (productionOrderId: number, signal?: AbortSignal) =>
    api.get<{ items: SerialUnit[]; total: number }>('/admin/traceability/serials', { production_order_id: productionOrderId, limit: 500 }, signal),
  updateSerial: (id: number, body: SerialPatch) => api.patch<SerialUnit>(`/admin/traceability/serials/${id}`, body),
  profiles: (signal?: AbortSignal) => api.get<Profile[]>('/admin/traceability/profiles', undefined, signal),
  createProfile: (body: ProfileCreate, key: string) => api.post<Profile>('/admin/traceability/profiles', body, once(key)),
  updateProfile: (customerId: number, body: ProfilePatch) => api.patch<Profile>(`/admin/traceability/profiles/${customerId}`, body),
};

// ---------------------------------------------------------------- form helpers

const blankToNull = (v: string | undefined): string | null => {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
};
const idOrNull = (v: string | undefined): number | null => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : null;
};
const positive = (msg: string) => z.string().trim().min(1, msg).refine((v) => Number.isFinite(Number(v)) && Number(v) > 0, msg);

// ---------------------------------------------------------------- lots

export const lotFormSchema = z
  .object({
    product_id: z.string().min(1, 'Pick the item the lot is of'),
    lot_number: z.string().max(100, 'At most 100 characters'),
    quantity_received: positive('Enter a quantity above 0'),
    vendor_id: z.string(),
    vendor_lot_number: z.string().max(100, 'At most 100 characters'),
    received_date: z.string(),
    expiration_date: z.string(),
    unit_cost: z.string().refine((v) => v.trim() === '' || (Number.isFinite(Number(v)) && Number(v) >= 0), 'Enter a cost of 0 or more'),
    notes: z.string(),
  })
  .refine((v) => !v.expiration_date || !v.received_date || v.expiration_date >= v.received_date, {
    path: ['expiration_date'],
    message: 'The lot cannot expire before it was received',
  });
export type LotFormValues = z.infer<typeof lotFormSchema>;
export const LOT_FORM_FIELDS = ['product_id', 'lot_number', 'quantity_received', 'vendor_id', 'vendor_lot_number', 'received_date', 'expiration_date', 'unit_cost', 'notes'] as const;

export const EMPTY_LOT_FORM: LotFormValues = {
  product_id: '',
  lot_number: '',
  quantity_received: '',
  vendor_id: '',
  vendor_lot_number: '',
  received_date: '',
  expiration_date: '',
  unit_cost: '',
  notes: '',
};

/** The create-lot body: blanks are left out (the server numbers the lot and dates it today). */
export function lotPayload(v: LotFormValues): LotCreate {
  const body: LotCreate = { product_id: Number(v.product_id), quantity_received: v.quantity_received.trim() };
  const lot = blankToNull(v.lot_number);
  if (lot) body.lot_number = lot;
  const vendor = idOrNull(v.vendor_id);
  if (vendor) body.vendor_id = vendor;
  const vendorLot = blankToNull(v.vendor_lot_number);
  if (vendorLot) body.vendor_lot_number = vendorLot;
  if (v.received_date) body.received_date = v.received_date;
  if (v.expiration_date) body.expiration_date = v.expiration_date;
  const cost = blankToNull(v.unit_cost);
  if (cost) body.unit_cost = cost;
  const notes = blankToNull(v.notes);
  if (notes) body.notes = notes;
  return body;
}

/** Status changes that need a confirmation: they stop the lot being drawn. */
export const GUARDED_LOT_STATUSES: readonly LotStatus[] = ['quarantine', 'recalled', 'expired'];

/** The lot status changes offered from `status` (depleted is the server's own doing). */
export function lotStatusMoves(status: LotStatus): LotStatus[] {
  const all: LotStatus[] = ['active', 'quarantine', 'expired', 'recalled'];
  return all.filter((s) => s !== status);
}

export const LOT_STATUS_VERB: Record<LotStatus, string> = {
  active: 'Reactivate',
  quarantine: 'Quarantine',
  expired: 'Mark expired',
  recalled: 'Recall',
  depleted: 'Mark depleted',
};

export const lotEditSchema = z.object({
  expiration_date: z.string(),
  vendor_lot_number: z.string().max(100, 'At most 100 characters'),
  inspection_status: z.enum(['pending', 'passed', 'failed', 'waived']),
  notes: z.string(),
});
export type LotEditValues = z.infer<typeof lotEditSchema>;

/** Only what changed; a cleared expiry or note is sent as null. */
export function lotEditPayload(lot: Pick<MaterialLot, 'expiration_date' | 'vendor_lot_number' | 'inspection_status' | 'notes'>, v: LotEditValues): LotPatch {
  const body: LotPatch = {};
  const expiry = v.expiration_date || null;
  if (expiry !== (lot.expiration_date ?? null)) body.expiration_date = expiry;
  const vendorLot = blankToNull(v.vendor_lot_number);
  if (vendorLot !== (lot.vendor_lot_number ?? null)) body.vendor_lot_number = vendorLot;
  if (v.inspection_status !== lot.inspection_status) body.inspection_status = v.inspection_status;
  const notes = blankToNull(v.notes);
  if (notes !== (lot.notes ?? null)) body.notes = notes;
  return body;
}

/** Whether a lot can be drawn: active and not failed at inspection. */
export function canConsume(lot: Pick<MaterialLot, 'status' | 'inspection_status'>): boolean {
  return lot.status === 'active' && lot.inspection_status !== 'failed';
}

export function consumptionSchema(remaining: number) {
  return z.object({
    production_order_id: z.string().min(1, 'Pick the work order that used the material'),
    quantity_consumed: positive('Enter a quantity above 0').refine((v) => Number(v) <= remaining, `Only ${remaining} left in this lot`),
    serial_number_id: z.string(),
    notes: z.string(),
  });
}
export type ConsumptionValues = z.infer<ReturnType<typeof consumptionSchema>>;
export const CONSUMPTION_FIELDS = ['production_order_id', 'quantity_consumed', 'serial_number_id', 'notes'] as const;

export function consumptionPayload(lotId: number, v: ConsumptionValues): ConsumptionCreate {
  const body: ConsumptionCreate = { production_order_id: Number(v.production_order_id), material_lot_id: lotId, quantity_consumed: v.quantity_consumed.trim() };
  const unit = idOrNull(v.serial_number_id.trim());
  if (unit) body.serial_number_id = unit;
  const notes = blankToNull(v.notes);
  if (notes) body.notes = notes;
  return body;
}

// ---------------------------------------------------------------- serial numbers

export const unitsFormSchema = z.object({
  product_id: z.string().min(1, 'Pick a serial-tracked item'),
  production_order_id: z.string(),
  quantity: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 1000, 'Enter a whole number from 1 to 1000'),
  status: z.enum(['manufactured', 'in_stock']),
});
export type UnitsFormValues = z.infer<typeof unitsFormSchema>;
export const UNITS_FIELDS = ['product_id', 'production_order_id', 'quantity', 'status'] as const;

export function unitsPayload(v: UnitsFormValues): SerialsCreate {
  const body: SerialsCreate = { product_id: Number(v.product_id), quantity: Number(v.quantity), status: v.status };
  const wo = idOrNull(v.production_order_id);
  if (wo) body.production_order_id = wo;
  return body;
}

/** One status change a unit's row offers. */
export interface SerialMove {
  to: SerialStatus;
  label: string;
  /** Asks first (scrapping cannot be undone). */
  confirm?: boolean;
  /** Needs a reason (a return). */
  reason?: boolean;
}

const PUT_AWAY: SerialMove = { to: 'in_stock', label: 'Put away' };
const SCRAP: SerialMove = { to: 'scrapped', label: 'Scrap', confirm: true };

/** The moves the server allows from `status` (CONTRACT 5.19). */
export function serialMoves(status: SerialStatus): SerialMove[] {
  switch (status) {
    case 'manufactured':
      return [PUT_AWAY, SCRAP];
    case 'in_stock':
      return [SCRAP];
    case 'sold':
    case 'shipped':
      return [{ to: 'returned', label: 'Return', reason: true }];
    case 'returned':
      return [{ to: 'in_stock', label: 'Restock' }, SCRAP];
    default:
      return [];
  }
}

/** A status change body; a return carries its reason (required). */
export function serialMovePayload(move: SerialMove, reason?: string): SerialPatch {
  if (move.reason) return { status: move.to, return_reason: (reason ?? '').trim() };
  return { status: move.to };
}

// ---------------------------------------------------------------- profiles

export const profileSchema = z.object({
  customer_id: z.string().min(1, 'Pick a customer'),
  traceability_level: z.enum(['none', 'lot', 'serial', 'full']),
  requires_coc: z.boolean(),
  requires_coa: z.boolean(),
  requires_first_article: z.boolean(),
  record_retention_days: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 36500, 'Enter whole days from 1 to 36500'),
  custom_serial_prefix: z.string().max(20, 'At most 20 characters'),
  compliance_standards: z.string(),
  notes: z.string(),
});
export type ProfileValues = z.infer<typeof profileSchema>;
export const PROFILE_FIELDS = [
  'customer_id',
  'traceability_level',
  'requires_coc',
  'requires_coa',
  'requires_first_article',
  'record_retention_days',
  'custom_serial_prefix',
  'compliance_standards',
  'notes',
] as const;

export const EMPTY_PROFILE: ProfileValues = {
  customer_id: '',
  traceability_level: 'lot',
  requires_coc: false,
  requires_coa: false,
  requires_first_article: false,
  record_retention_days: '2555',
  custom_serial_prefix: '',
  compliance_standards: '',
  notes: '',
};

export function profileValues(p: Profile): ProfileValues {
  return {
    customer_id: String(p.customer_id),
    traceability_level: p.traceability_level,
    requires_coc: p.requires_coc,
    requires_coa: p.requires_coa,
    requires_first_article: p.requires_first_article,
    record_retention_days: String(p.record_retention_days),
    custom_serial_prefix: p.custom_serial_prefix ?? '',
    compliance_standards: p.compliance_standards ?? '',
    notes: p.notes ?? '',
  };
}

/** The profile body (create and edit send every field; blanks clear). */
export function profilePayload(v: ProfileValues): ProfileCreate {
  return {
    customer_id: Number(v.customer_id),
    traceability_level: v.traceability_level,
    requires_coc: v.requires_coc,
    requires_coa: v.requires_coa,
    requires_first_article: v.requires_first_article,
    record_retention_days: Number(v.record_retention_days),
    custom_serial_prefix: blankToNull(v.custom_serial_prefix),
    compliance_standards: blankToNull(v.compliance_standards),
    notes: blankToNull(v.notes),
  };
}

export const LEVEL_TONE: Record<TraceLevel, 'neutral' | 'info' | 'success' | 'warning'> = { none: 'neutral', lot: 'info', serial: 'success', full: 'warning' };
