/**
 * Routings (FilaOps's `/routings` and `/operation-types`): a product's routing versions,
 * their steps edited one at a time, each step's materials, templates and the operation
 * types a step is typed by. Shapes come from the generated document; query keys from
 * `queryKeys.production` (every routing key starts with `routingsAll`, so one invalidation
 * refreshes a routing's totals, its steps, its materials and the templates).
 */
import { z } from 'zod';
import { api } from '../../api/client';
import type { Api, RequestBody } from '../../api/model';

export type Routing = Api<'/routings/', 'get'>[number];
export type RoutingStep = Routing['operations'][number];
export type RoutingCreate = RequestBody<'/routings/', 'post'>;
export type RoutingUpdate = RequestBody<'/routings/{id}', 'put'>;
export type StepInput = RequestBody<'/routings/{routing_id}/operations', 'post'>;
export type StepUpdate = RequestBody<'/routings/operations/{id}', 'put'>;
export type StepMaterial = Api<'/routings/operations/{step_id}/materials', 'get'>[number];
export type StepMaterialInput = RequestBody<'/routings/operations/{step_id}/materials', 'post'>;
export type StepMaterialUpdate = RequestBody<'/routings/materials/{id}', 'put'>;
export type QuantityPer = StepMaterial['quantity_per'];
export type OperationType = Api<'/operation-types', 'get'>[number];
export type OperationCategory = NonNullable<OperationType['category']>;
export type TemplateApply = RequestBody<'/routings/apply-template', 'post'>;
export type TemplateApplied = Api<'/routings/apply-template', 'post'>;
export type TemplateSeedResult = Api<'/routings/seed-templates', 'post'>;

// ---------------------------------------------------------------- operation types

export const CATEGORY_LABEL: Record<OperationCategory, string> = {
  print: 'Print',
  assembly: 'Assembly',
  quality: 'Quality',
  finishing: 'Finishing',
  shipping: 'Shipping',
  other: 'Other',
};
const CATEGORY_ORDER: readonly OperationCategory[] = ['print', 'assembly', 'quality', 'finishing', 'shipping', 'other'];

export interface OperationTypeGroup {
  category: OperationCategory;
  label: string;
  types: OperationType[];
}

/** The picker's groups: by category in process order (a type without one is Other), each by sort order. */
export function groupOperationTypes(types: readonly OperationType[]): OperationTypeGroup[] {
  return CATEGORY_ORDER.map((category) => ({
    category,
    label: CATEGORY_LABEL[category],
    types: types.filter((t) => (t.category ?? 'other') === category).sort((a, b) => a.sort_order - b.sort_order || a.code.localeCompare(b.code)),
  })).filter((g) => g.types.length > 0);
}

// ---------------------------------------------------------------- steps

/** A routing's steps in the order they run (sequence, then id). */
export function stepsInOrder<S extends { id: number; sequence: number }>(steps: readonly S[]): S[] {
  return [...steps].sort((a, b) => a.sequence - b.sequence || a.id - b.id);
}

/** `ids` with `id` moved to `to` (an index into the result). */
export function moveId(ids: readonly number[], id: number, to: number): number[] {
  const from = ids.indexOf(id);
  if (from < 0) return [...ids];
  const next = ids.filter((x) => x !== id);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, id);
  return next;
}

/** The sequence changes that number `order` 10, 20, 30...: only the steps whose number moves. */
export function resequence(steps: readonly { id: number; sequence: number }[], order: readonly number[]): { id: number; sequence: number }[] {
  const current = new Map(steps.map((s) => [s.id, s.sequence]));
  return order.map((id, i) => ({ id, sequence: (i + 1) * 10 })).filter((s) => current.get(s.id) !== s.sequence);
}

/** Minutes of a routing: setup, run (with wait and move, as the server totals it) and both. */
export function routingMinutes(r: Pick<Routing, 'total_setup_time_minutes' | 'total_run_time_minutes'>) {
  const setup = Number(r.total_setup_time_minutes) || 0;
  const run = Number(r.total_run_time_minutes) || 0;
  return { setup, run, total: setup + run };
}

/** The labour cost of the steps: each one's (setup + run) minutes at its work center's rate. */
export function labourCost(steps: readonly Pick<RoutingStep, 'calculated_cost'>[]): number {
  return Math.round(steps.reduce((sum, s) => sum + (Number(s.calculated_cost) || 0), 0) * 100) / 100;
}

// ---------------------------------------------------------------- form rules (zod)

const MINUTES = /^\d+(\.\d{1,2})?$/;
const QUANTITY = /^\d+(\.\d{1,4})?$/;
const minutes = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || MINUTES.test(v), `Enter ${what} as 0 or more (up to 2 decimals).`);
const percent = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (MINUTES.test(v) && Number(v) <= 100), `${what} is a percentage from 0 to 100.`);
const notes = z.string().trim().max(2000, 'Keep notes under 2000 characters.');

export const stepSchema = z
  .object({
    operation_type: z.string(),
    operation_code: z.string().trim().max(50, 'Keep the code under 50 characters.'),
    operation_name: z.string().trim().max(200, 'Keep the name under 200 characters.'),
    work_center_id: z.string().min(1, 'Choose a work center.'),
    setup_minutes: minutes('setup minutes'),
    run_minutes: minutes('run minutes'),
    wait_minutes: minutes('wait minutes'),
    move_minutes: minutes('move minutes'),
    units_per_cycle: z
      .string()
      .trim()
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, 'Units per cycle is a whole number, 1 or more.'),
    scrap_rate_percent: percent('Scrap rate'),
    notes,
  })
  .refine((v) => v.operation_code !== '' || v.operation_type !== '', { path: ['operation_code'], message: 'Enter a code or choose an operation type.' });
export type StepForm = z.input<typeof stepSchema>;

export const EMPTY_STEP: StepForm = {
  operation_type: '',
  operation_code: '',
  operation_name: '',
  work_center_id: '',
  setup_minutes: '0',
  run_minutes: '0',
  wait_minutes: '0',
  move_minutes: '0',
  units_per_cycle: '1',
  scrap_rate_percent: '0',
  notes: '',
};

const plain = (d: string) => String(Number(d));

export function stepToForm(s: RoutingStep): StepForm {
  return {
    operation_type: s.operation_type ?? '',
    operation_code: s.operation_code,
    operation_name: s.operation_name,
    work_center_id: String(s.work_center_id),
    setup_minutes: plain(s.setup_time_minutes),
    run_minutes: plain(s.run_time_minutes),
    wait_minutes: plain(s.wait_time_minutes),
    move_minutes: plain(s.move_time_minutes),
    units_per_cycle: String(s.units_per_cycle),
    scrap_rate_percent: plain(s.scrap_rate_percent),
    notes: s.notes ?? '',
  };
}

/**
 * The body of a new step (`editing` false) or of a change to one. A blank code or name is
 * left to the server: on a new step it comes from the operation type, on a change the step
 * keeps its own. No type on a change clears it (`null`); on a new step the code implies one.
 */
export function stepBody(v: StepForm, editing: boolean): StepInput & StepUpdate {
  const type = v.operation_type.trim();
  return {
    operation_type: type || (editing ? null : undefined),
    operation_code: v.operation_code.trim() || undefined,
    operation_name: v.operation_name.trim() || undefined,
    work_center_id: Number(v.work_center_id),
    setup_minutes: v.setup_minutes.trim() || '0',
    run_minutes: v.run_minutes.trim() || '0',
    wait_minutes: v.wait_minutes.trim() || '0',
    move_minutes: v.move_minutes.trim() || '0',
    units_per_cycle: Number(v.units_per_cycle),
    scrap_rate_percent: v.scrap_rate_percent.trim() || '0',
    notes: v.notes.trim() || null,
  };
}

export const QUANTITY_PER: readonly { value: QuantityPer; label: string }[] = [
  { value: 'unit', label: 'Per unit made' },
  { value: 'batch', label: 'Per run (plate)' },
  { value: 'order', label: 'Per order' },
];
export const PER_SHORT: Record<QuantityPer, string> = { unit: 'unit', batch: 'run', order: 'order' };

export const materialSchema = z.object({
  component_id: z.string().min(1, 'Choose a component.'),
  quantity: z
    .string()
    .trim()
    .refine((v) => QUANTITY.test(v) && Number(v) > 0, 'Enter a quantity greater than 0 (up to 4 decimals).'),
  quantity_per: z.enum(['unit', 'batch', 'order'], 'Choose what the quantity is per.'),
  unit: z.string().trim().max(20, 'Keep the unit under 20 characters.'),
  scrap_factor: percent('Scrap'),
  is_cost_only: z.boolean(),
  is_optional: z.boolean(),
  is_variable: z.boolean(),
  notes,
});
export type MaterialForm = z.input<typeof materialSchema>;

export const EMPTY_MATERIAL: MaterialForm = {
  component_id: '',
  quantity: '',
  quantity_per: 'unit',
  unit: '',
  scrap_factor: '0',
  is_cost_only: false,
  is_optional: false,
  is_variable: false,
  notes: '',
};

export function materialToForm(m: StepMaterial): MaterialForm {
  return {
    component_id: String(m.component_id),
    quantity: plain(m.quantity),
    quantity_per: m.quantity_per,
    unit: m.unit,
    scrap_factor: plain(m.scrap_factor),
    is_cost_only: m.is_cost_only,
    is_optional: m.is_optional,
    is_variable: m.is_variable,
    notes: m.notes ?? '',
  };
}

/** A material line's body; a blank unit is the component's stocking unit (or, on a change, kept). */
export function materialBody(v: MaterialForm): StepMaterialInput & StepMaterialUpdate {
  return {
    component_id: Number(v.component_id),
    quantity: v.quantity.trim(),
    quantity_per: v.quantity_per,
    unit: v.unit.trim() || null,
    scrap_factor: v.scrap_factor.trim() || '0',
    is_cost_only: v.is_cost_only,
    is_optional: v.is_optional,
    is_variable: v.is_variable,
    notes: v.notes.trim() || null,
  };
}

export const applyTemplateSchema = z.object({
  template_id: z.string().min(1, 'Choose a template.'),
  print_minutes: minutes('the print time'),
});
export type ApplyTemplateForm = z.input<typeof applyTemplateSchema>;

/** The code of a template's print step (the one a print-time override names), if it has one. */
export function printStepCode(template: Pick<Routing, 'operations'> | undefined): string | null {
  const ops = template?.operations ?? [];
  const step =
    ops.find((o) => o.operation_type === 'FDM_PRINT' || o.operation_type === 'RESIN_PRINT') ?? ops.find((o) => o.operation_code.toUpperCase() === 'PRINT');
  return step?.operation_code ?? null;
}

export function applyTemplateBody(v: ApplyTemplateForm, productId: number, template: Pick<Routing, 'operations'> | undefined): TemplateApply {
  const code = printStepCode(template);
  const minutesPerUnit = v.print_minutes.trim();
  return {
    template_id: Number(v.template_id),
    product_id: productId,
    overrides: code && minutesPerUnit ? [{ operation_code: code, run_minutes: minutesPerUnit }] : [],
  };
}

// ---------------------------------------------------------------- calls

export const routingApi = {
  /** Every version of a product's routing, active or not. */
  ofProduct: (productId: number, signal?: AbortSignal) => api.get<Routing[]>('/routings/', { product_id: productId, active_only: false }, signal),
  templates: (signal?: AbortSignal) => api.get<Routing[]>('/routings/', { templates_only: true }, signal),
  create: (body: RoutingCreate) => api.post<Routing>('/routings/', body),
  update: (id: number, body: RoutingUpdate) => api.put<Routing>(`/routings/${id}`, body),
  addStep: (routingId: number, body: StepInput) => api.post<RoutingStep>(`/routings/${routingId}/operations`, body),
  updateStep: (id: number, body: StepUpdate) => api.put<RoutingStep>(`/routings/operations/${id}`, body),
  deleteStep: (id: number) => api.del<void>(`/routings/operations/${id}`),
  materials: (stepId: number, signal?: AbortSignal) => api.get<StepMaterial[]>(`/routings/operations/${stepId}/materials`, undefined, signal),
  addMaterial: (stepId: number, body: StepMaterialInput) => api.post<StepMaterial>(`/routings/operations/${stepId}/materials`, body),
  updateMaterial: (id: number, body: StepMaterialUpdate) => api.put<StepMaterial>(`/routings/materials/${id}`, body),
  deleteMaterial: (id: number) => api.del<void>(`/routings/materials/${id}`),
  operationTypes: (signal?: AbortSignal) => api.get<OperationType[]>('/operation-types', undefined, signal),
  seedTemplates: () => api.post<TemplateSeedResult>('/routings/seed-templates'),
  applyTemplate: (body: TemplateApply) => api.post<TemplateApplied>('/routings/apply-template', body),
  /** New sequence numbers, one PUT per moved step, in order (each PUT changes only `sequence`). */
  async reorder(changes: readonly { id: number; sequence: number }[]): Promise<void> {
    for (const c of changes) await api.put<RoutingStep>(`/routings/operations/${c.id}`, { sequence: c.sequence } satisfies StepUpdate);
  },
};
