/**
 * Quality management (FilaOps's `/quality/*`, `/quality-plans*`, the QC and defect-reason
 * routes under `/production-orders`, QC photos): the shapes, the calls, and the rules the
 * forms check before the server does (the same ones it checks). Query keys:
 * `queryKeys.quality`.
 */
import { z } from 'zod';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Api, RequestBody } from '../../api/model';

export type QualityPolicy = Api<'/quality/policy', 'get'>;
export type QualityMode = QualityPolicy['mode'];
export type GateAction = QualityPolicy['gate_action'];
export type QualityPlan = Api<'/quality-plans', 'get'>[number];
export type PlanCharacteristic = QualityPlan['characteristics'][number];
export type PlanInput = NonNullable<RequestBody<'/quality-plans', 'post'>>;
export type CharacteristicInput = NonNullable<PlanInput['characteristics']>[number];
export type Severity = NonNullable<PlanCharacteristic['severity']>;
export type CharacteristicType = PlanCharacteristic['characteristic_type'];
export type DefectReasons = Api<'/production-orders/defect-reasons', 'get'>;
export type DefectReason = DefectReasons['details'][number];
export type QcInput = RequestBody<'/production-orders/{id}/qc', 'post'>;
export type MeasurementInput = NonNullable<QcInput['measurements']>[number];
export type QcRecorded = Api<'/production-orders/{id}/qc', 'post'>;
export type InspectionHistory = Api<'/production-orders/{id}/qc-inspections', 'get'>;
export type Inspection = InspectionHistory['inspections'][number];
export type InspectionResult = Inspection['result'];
export type Measurement = Inspection['measurements'][number];
export type QcPhoto = Api<'/production-orders/qc-inspections/{inspection_id}/photos', 'get'>[number];
export type QualityMetrics = Api<'/quality/metrics', 'get'>;
export type InspectionQueue = Api<'/quality/inspection-queue', 'get'>;
export type QueueOrder = InspectionQueue['items'][number];
export type ScrapByReason = Api<'/quality/scrap-summary', 'get'>[number];
export type TrendDay = Api<'/quality/trend', 'get'>[number];

export const QUALITY_MODES: readonly { value: QualityMode; label: string; help: string }[] = [
  { value: 'off', label: 'Off', help: 'No inspections, plans or photos; orders complete and ship without QC.' },
  { value: 'basic', label: 'Basic', help: 'Record pass/fail inspections with defects and photos; no plans are enforced.' },
  { value: 'full', label: 'Full', help: 'Inspections follow the product’s quality plan, and the inspection gate applies.' },
];
export const GATE_ACTIONS: readonly { value: GateAction; label: string; help: string }[] = [
  { value: 'off', label: 'Off', help: 'Plans guide the inspector; nothing is checked.' },
  { value: 'warn', label: 'Warn', help: 'An inspection that misses the plan is recorded with a warning.' },
  { value: 'block', label: 'Block', help: 'An inspection that misses the plan is refused until it satisfies it.' },
];

export const SEVERITIES: readonly Severity[] = ['minor', 'major', 'critical'];
export const SEVERITY_TONE: Record<Severity, 'neutral' | 'warning' | 'danger'> = { minor: 'neutral', major: 'warning', critical: 'danger' };
export const RESULT_TONE: Record<InspectionResult, 'success' | 'danger' | 'neutral' | 'warning'> = {
  passed: 'success',
  failed: 'danger',
  waived: 'neutral',
  conditional: 'warning',
};

// ---------------------------------------------------------------- calls

export const qualityApi = {
  policy: (signal?: AbortSignal) => api.get<QualityPolicy>('/quality/policy', undefined, signal),
  /** Admins only: one typed setting at a time. */
  setSetting: (key: 'quality_mode' | 'quality_gate_action', value: string) => api.put<unknown>(`/system/settings/${key}`, { value }),
  plans: (includeInactive: boolean, signal?: AbortSignal) => api.get<QualityPlan[]>('/quality-plans', { include_inactive: includeInactive }, signal),
  /** A product's active plan, or null. */
  activePlan: (productId: number, signal?: AbortSignal) => api.get<QualityPlan | null>('/quality-plans/active', { product_id: productId }, signal),
  createPlan: (body: PlanInput) => api.post<QualityPlan>('/quality-plans', body),
  updatePlan: (id: number, body: Partial<PlanInput>) => api.patch<QualityPlan>(`/quality-plans/${id}`, body),
  /** Deactivates (PATCH `is_active: true` brings it back). */
  deactivatePlan: (id: number) => api.del<QualityPlan>(`/quality-plans/${id}`),
  defectReasons: (signal?: AbortSignal) => api.get<DefectReasons>('/production-orders/defect-reasons', undefined, signal),
  defectReasonsAll: (signal?: AbortSignal) => api.get<DefectReason[]>('/production-orders/defect-reasons/all', undefined, signal),
  record: (orderId: number, body: QcInput) => api.post<QcRecorded>(`/production-orders/${orderId}/qc`, body),
  inspections: (orderId: number, signal?: AbortSignal) => api.get<InspectionHistory>(`/production-orders/${orderId}/qc-inspections`, undefined, signal),
  photos: (inspectionId: number, signal?: AbortSignal) => api.get<QcPhoto[]>(`/production-orders/qc-inspections/${inspectionId}/photos`, undefined, signal),
  uploadPhoto: (inspectionId: number, file: File, caption: string, onUploadProgress?: (f: number) => void) => {
    const fd = new FormData();
    fd.append('file', file, file.name);
    if (caption.trim()) fd.append('caption', caption.trim());
    return api.request<QcPhoto>(`/production-orders/qc-inspections/${inspectionId}/photos`, { method: 'POST', formData: fd, onUploadProgress });
  },
  deletePhoto: (inspectionId: number, photoId: number) => api.del<{ message: string; id: number }>(`/production-orders/qc-inspections/${inspectionId}/photos/${photoId}`),
  /** The image behind `download_url`, with the session's credentials. */
  photoBlob: (url: string) => api.blob(url),
  metrics: (days: number, signal?: AbortSignal) => api.get<QualityMetrics>('/quality/metrics', { days }, signal),
  queue: (limit: number, offset: number, signal?: AbortSignal) => api.get<InspectionQueue>('/quality/inspection-queue', { limit, offset }, signal),
  recent: (limit: number, signal?: AbortSignal) => api.get<QueueOrder[]>('/quality/recent-inspections', { limit }, signal),
  scrapSummary: (days: number, signal?: AbortSignal) => api.get<ScrapByReason[]>('/quality/scrap-summary', { days }, signal),
  trend: (days: number, signal?: AbortSignal) => api.get<TrendDay[]>('/quality/trend', { days }, signal),
};

// ---------------------------------------------------------------- rules shared with the server

const DECIMAL = /^-?\d+(\.\d+)?$/;
export const isDecimal = (v: string) => DECIMAL.test(v.trim());

/**
 * Whether a measured value is within the limits: null when it cannot be told (nothing
 * measured, not a number, no limits at all).
 */
export function withinSpec(measured: string | null | undefined, lower: string | number | null | undefined, upper: string | number | null | undefined): boolean | null {
  const m = (measured ?? '').toString().trim();
  if (!m || !isDecimal(m)) return null;
  const lo = lower === null || lower === undefined || lower === '' ? null : Number(lower);
  const hi = upper === null || upper === undefined || upper === '' ? null : Number(upper);
  if (lo === null && hi === null) return null;
  const v = Number(m);
  return (lo === null || v >= lo) && (hi === null || v <= hi);
}

/** `1.8 – 2.2 mm`, `≥ 1.8`, `≤ 2.2`, or an em dash. */
export function limitsText(lower: string | null, upper: string | null, unit?: string | null): string {
  const u = unit ? ` ${unit}` : '';
  if (lower !== null && upper !== null) return `${fmt(lower)} – ${fmt(upper)}${u}`;
  if (lower !== null) return `≥ ${fmt(lower)}${u}`;
  if (upper !== null) return `≤ ${fmt(upper)}${u}`;
  return '—';
}
const fmt = (v: string) => (isDecimal(v) ? String(Number(v)) : v);

// ---------------------------------------------------------------- the plan editor

const optionalDecimal = z
  .string()
  .trim()
  .refine((v) => v === '' || isDecimal(v), 'Enter a number.');

export const characteristicSchema = z.object({
  code: z.string().trim().max(50, 'At most 50 characters.'),
  characteristic: z.string().trim().min(1, 'Name what is checked.').max(100, 'At most 100 characters.'),
  characteristic_type: z.enum(['variable', 'attribute']),
  nominal: optionalDecimal,
  lower_limit: optionalDecimal,
  upper_limit: optionalDecimal,
  unit: z.string().trim().max(20, 'At most 20 characters.'),
  acceptance_criteria: z.string().trim().max(2000, 'Keep it under 2000 characters.'),
  severity: z.enum(['minor', 'major', 'critical']),
  routing_operation_id: z.string(),
});
export type CharacteristicForm = z.input<typeof characteristicSchema>;

export const planSchema = z
  .object({
    code: z.string().trim().min(1, 'Enter a code.').max(50, 'At most 50 characters.'),
    name: z.string().trim().min(1, 'Enter a name.').max(200, 'At most 200 characters.'),
    product_id: z.string().min(1, 'Choose the product it inspects.'),
    version: z
      .string()
      .trim()
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'A whole number, 1 or more.'),
    revision: z.string().trim().max(20, 'At most 20 characters.'),
    effective_date: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), 'Enter a date like 2026-12-31.'),
    notes: z.string().trim().max(2000, 'Keep notes under 2000 characters.'),
    is_active: z.boolean(),
    characteristics: z.array(characteristicSchema),
  })
  .superRefine((v, ctx) => {
    const seen = new Map<string, number>();
    v.characteristics.forEach((c, i) => {
      const at = (f: string) => ['characteristics', i, f];
      if (c.characteristic_type === 'attribute' && (c.nominal || c.lower_limit || c.upper_limit || c.unit))
        ctx.addIssue({ code: 'custom', path: at('characteristic_type'), message: 'An attribute characteristic has no nominal, limits or unit.' });
      if (c.characteristic_type === 'variable' && c.acceptance_criteria)
        ctx.addIssue({ code: 'custom', path: at('acceptance_criteria'), message: 'A variable characteristic is measured: it has no acceptance criteria.' });
      if (c.lower_limit && c.upper_limit && isDecimal(c.lower_limit) && isDecimal(c.upper_limit) && Number(c.lower_limit) > Number(c.upper_limit))
        ctx.addIssue({ code: 'custom', path: at('lower_limit'), message: 'The lower limit cannot be above the upper.' });
      if (c.code) {
        const first = seen.get(c.code);
        if (first !== undefined) {
          ctx.addIssue({ code: 'custom', path: at('code'), message: `Code ${c.code} is used twice.` });
          ctx.addIssue({ code: 'custom', path: ['characteristics', first, 'code'], message: `Code ${c.code} is used twice.` });
        } else seen.set(c.code, i);
      }
    });
  });
export type PlanForm = z.input<typeof planSchema>;
export type PlanValues = z.output<typeof planSchema>;

export const EMPTY_CHARACTERISTIC: CharacteristicForm = {
  code: '',
  characteristic: '',
  characteristic_type: 'variable',
  nominal: '',
  lower_limit: '',
  upper_limit: '',
  unit: '',
  acceptance_criteria: '',
  severity: 'major',
  routing_operation_id: '',
};

export const EMPTY_PLAN: PlanForm = {
  code: '',
  name: '',
  product_id: '',
  version: '1',
  revision: '1.0',
  effective_date: '',
  notes: '',
  is_active: true,
  characteristics: [],
};

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export function planToForm(p: QualityPlan): PlanForm {
  return {
    code: p.code,
    name: p.name,
    product_id: s(p.product_id),
    version: String(p.version),
    revision: p.revision,
    effective_date: s(p.effective_date),
    notes: s(p.notes),
    is_active: p.is_active,
    characteristics: [...p.characteristics]
      .sort((a, b) => a.sequence - b.sequence)
      .map((c) => ({
        code: s(c.code),
        characteristic: c.characteristic,
        characteristic_type: c.characteristic_type,
        nominal: s(c.nominal),
        lower_limit: s(c.lower_limit),
        upper_limit: s(c.upper_limit),
        unit: s(c.unit),
        acceptance_criteria: s(c.acceptance_criteria),
        severity: c.severity ?? 'major',
        routing_operation_id: s(c.routing_operation_id),
      })),
  };
}

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** The characteristics in their order (sequence = place in the table). */
export function characteristicsBody(list: PlanValues['characteristics']): CharacteristicInput[] {
  return list.map((c, i) => {
    const variable = c.characteristic_type === 'variable';
    return {
      code: orNull(c.code),
      characteristic: c.characteristic,
      characteristic_type: c.characteristic_type,
      nominal: variable ? orNull(c.nominal) : null,
      lower_limit: variable ? orNull(c.lower_limit) : null,
      upper_limit: variable ? orNull(c.upper_limit) : null,
      unit: variable ? orNull(c.unit) : null,
      acceptance_criteria: variable ? null : orNull(c.acceptance_criteria),
      sequence: i,
      severity: c.severity,
      routing_operation_id: c.routing_operation_id ? Number(c.routing_operation_id) : null,
    };
  });
}

/** The body of POST (everything) or PATCH (characteristics only when they changed: they are replaced). */
export function planBody(v: PlanValues, withCharacteristics = true): PlanInput {
  return {
    code: v.code,
    name: v.name,
    product_id: Number(v.product_id),
    version: Number(v.version),
    revision: v.revision || '1.0',
    effective_date: orNull(v.effective_date),
    notes: orNull(v.notes),
    is_active: v.is_active,
    ...(withCharacteristics ? { characteristics: characteristicsBody(v.characteristics) } : {}),
  };
}

/** `characteristics.0.lowerLimit` / `body.characteristics.0.lower_limit` → `characteristics.0.lower_limit`. */
export function snakeField(field: string): string {
  return field
    .replace(/^body\./, '')
    .split('.')
    .map((p) => p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
    .join('.');
}

/** The codes a 400 "duplicate characteristic code(s) within the plan: A, B" names. */
export function duplicateCodes(err: unknown): string[] {
  if (!(err instanceof ApiError)) return [];
  const m = /duplicate characteristic code\(s\)[^:]*:\s*(.+)$/i.exec(err.message);
  return m ? m[1]!.split(',').map((c) => c.trim()).filter(Boolean) : [];
}

// ---------------------------------------------------------------- the inspection form

export type QcChoice = 'passed' | 'failed' | 'waived' | 'conditional' | 'pending';
export const QC_CHOICE_LABEL: Record<QcChoice, string> = { passed: 'Passed', failed: 'Failed', waived: 'Waived', conditional: 'Conditional', pending: 'Inspect again' };

/** An answer to one plan characteristic: a measured value (variable) or conforms yes/no (attribute). */
export interface Answer {
  value?: string | null;
  conforms?: string | null;
}

const quantity = z
  .string()
  .trim()
  .refine((v) => v === '' || /^\d+(\.\d{1,4})?$/.test(v), 'Enter a quantity, 0 or more.');

/** The inspection form; an in-process inspection names the operation inspected. */
export function inspectionSchema(inProcess: boolean) {
  return z
    .object({
      result: z.enum(['passed', 'failed', 'waived', 'conditional', 'pending'], 'Choose a result.'),
      quantity_passed: quantity,
      quantity_failed: quantity,
      defect_reason_id: z.string(),
      operation_id: z.string(),
      failure_reason: z.string().trim().max(2000, 'Keep it under 2000 characters.'),
      notes: z.string().trim().max(2000, 'Keep notes under 2000 characters.'),
      answers: z.record(z.string(), z.object({ value: z.string().nullish(), conforms: z.string().nullish() })),
    })
    .superRefine((v, ctx) => {
      if (v.result === 'waived' && !v.notes) ctx.addIssue({ code: 'custom', path: ['notes'], message: 'Say why QC is waived.' });
      if (v.result === 'conditional' && !v.notes) ctx.addIssue({ code: 'custom', path: ['notes'], message: 'Say what deviation is accepted.' });
      if (inProcess && !v.operation_id) ctx.addIssue({ code: 'custom', path: ['operation_id'], message: 'Choose the operation inspected.' });
      for (const [id, a] of Object.entries(v.answers)) {
        const value = (a.value ?? '').trim();
        if (value && !isDecimal(value)) ctx.addIssue({ code: 'custom', path: ['answers', id, 'value'], message: 'Enter a number.' });
      }
    });
}
export type InspectionForm = z.input<ReturnType<typeof inspectionSchema>>;
export type InspectionValues = z.output<ReturnType<typeof inspectionSchema>>;

/** The plan's characteristics this inspection answers: an operation's own, or all of them for the order. */
export function characteristicsFor(plan: QualityPlan | null | undefined, routingStep: number | null | undefined, inProcess: boolean): PlanCharacteristic[] {
  if (!plan) return [];
  const all = [...plan.characteristics].sort((a, b) => a.sequence - b.sequence);
  if (!inProcess) return all;
  return all.filter((c) => c.routing_operation_id !== null && c.routing_operation_id === routingStep);
}

/** The measurements to send: only characteristics that were answered. */
export function measurementsBody(chars: readonly PlanCharacteristic[], answers: Record<string, Answer>): MeasurementInput[] {
  const out: MeasurementInput[] = [];
  chars.forEach((c, i) => {
    const a = answers[`c${c.id}`];
    if (!a) return;
    const base = { characteristic: c.characteristic, quality_plan_characteristic_id: c.id, characteristic_code: c.code, sequence: i };
    const value = (a.value ?? '').trim();
    if (c.characteristic_type === 'variable') {
      if (!value) return;
      out.push({ ...base, measured_value: value, nominal: c.nominal, lower_limit: c.lower_limit, upper_limit: c.upper_limit, unit: c.unit });
    } else if (a.conforms === 'yes' || a.conforms === 'no') {
      out.push({ ...base, conforms: a.conforms === 'yes' });
    }
  });
  return out;
}

export function inspectionBody(v: InspectionValues, chars: readonly PlanCharacteristic[]): QcInput {
  if (v.result === 'pending') return { result: 'pending', notes: v.notes || null };
  const measurements = measurementsBody(chars, v.answers);
  return {
    result: v.result,
    quantity_passed: v.quantity_passed || null,
    quantity_failed: v.quantity_failed || null,
    defect_reason_id: v.result !== 'passed' && v.defect_reason_id ? Number(v.defect_reason_id) : null,
    operation_id: v.operation_id ? Number(v.operation_id) : null,
    failure_reason: v.result === 'failed' ? v.failure_reason || null : null,
    notes: v.notes || null,
    measurements: measurements.length ? measurements : null,
  };
}

// ---------------------------------------------------------------- photos

export const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const PHOTO_MAX_BYTES = 25 * 1024 * 1024;

/** Why a file cannot be uploaded as an inspection photo, or null. */
export function photoProblem(file: Pick<File, 'type' | 'size' | 'name'>): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return `${file.name} is not a PNG, JPEG, WebP or GIF image.`;
  if (file.size > PHOTO_MAX_BYTES) return `${file.name} is larger than 25 MB.`;
  return null;
}
