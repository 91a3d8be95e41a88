/**
 * Production calls (CONTRACT 5.12, 6.2): production orders and their operations, work
 * centers, dispatch and the command center; routings are in `manufacturing/routingApi.ts`.
 * Their query keys (`queryKeys.production`, `.printers`, `.commandCenter`) start with the
 * resource, so live updates can invalidate them.
 */
import { z } from 'zod';
import { api } from '../../api/client';
import { localInputToIso } from '../../lib/localTime';
import type { Api, ListQuery, RequestBody } from '../../api/model';

export type ProductionOrderRow = Api<'/production-orders/', 'get'>[number];
export type ProductionOrder = Api<'/production-orders/{id}', 'get'>;
export type ProductionOperation = ProductionOrder['operations'][number];
export type ProductionMaterial = ProductionOrder['materials'][number];
export type OrderStatus = ProductionOrder['status'];
export type QcStatus = ProductionOrder['qc_status'];
export type ProductionOrderQuery = ListQuery<'/production-orders/'>;
export type ProductionOrderCreate = RequestBody<'/production-orders/', 'post'>;
export type ProductionComplete = NonNullable<RequestBody<'/production-orders/{id}/complete', 'post'>>;
export type WorkCenter = Api<'/work-centers/', 'get'>[number];
export type WorkCenterCreate = RequestBody<'/work-centers/', 'post'>;
export type WorkCenterType = WorkCenter['center_type'];
export type ActiveWorkMap = Api<'/printers/active-work', 'get'>;
/** What one printer is running, with its id (the route answers them keyed by printer). */
export type ActiveWork = ActiveWorkMap['printers'][string] & { printer_id: number };
export type DispatchSuggestion = Api<'/dispatch/suggestions', 'get'>[number];
export type CommandSummary = Api<'/command-center/summary', 'get'>;
export type ActionItem = Api<'/command-center/action-items', 'get'>[number];
export type CommandResources = Api<'/command-center/resources', 'get'>;
export type CostBreakdown = Api<'/production-orders/{id}/cost-breakdown', 'get'>;
export type CostFigures = CostBreakdown['estimated'];
export type MaterialAvailability = Api<'/production-orders/{id}/material-availability', 'get'>;
export type AvailabilityLine = MaterialAvailability['materials'][number];
export type AvailabilityStatus = AvailabilityLine['status'];
export type OrderCompatibility = Api<'/production-orders/{id}/compatibility', 'get'>;
export type OperationCompatibility = OrderCompatibility['operations'][number];
export type CompatibilityIssue = OperationCompatibility['issues'][number];
export type PrinterCheck = Api<'/production-orders/{id}/check-resource-compatibility', 'get'>;

export const ORDER_STATUSES: readonly OrderStatus[] = ['draft', 'released', 'in_progress', 'on_hold', 'short', 'complete', 'cancelled', 'split', 'scrapped'];
export const CENTER_TYPES: readonly WorkCenterType[] = ['printer_pool', 'post_processing', 'qc', 'packing', 'assembly', 'other'];

export type Tone = 'success' | 'info' | 'warning' | 'danger' | 'neutral';
export const ORDER_TONE: Record<string, Tone> = {
  draft: 'neutral',
  released: 'info',
  in_progress: 'info',
  on_hold: 'warning',
  short: 'warning',
  complete: 'success',
  cancelled: 'neutral',
  split: 'neutral',
  scrapped: 'danger',
};
export const OPERATION_TONE: Record<string, Tone> = { pending: 'neutral', queued: 'info', running: 'warning', complete: 'success', skipped: 'neutral' };
export const QC_TONE: Record<string, Tone> = { not_required: 'neutral', pending: 'warning', passed: 'success', failed: 'danger', waived: 'neutral' };

/** The statuses each status may move to (CONTRACT 6.2, rules.rs `allowed_transitions`). */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  draft: ['released', 'cancelled'],
  released: ['in_progress', 'on_hold', 'cancelled', 'split'],
  in_progress: ['on_hold', 'complete', 'cancelled', 'split', 'short'],
  on_hold: ['released', 'in_progress', 'cancelled'],
  short: ['complete', 'cancelled'],
  complete: [],
  cancelled: [],
  split: [],
  scrapped: [],
};

export type OrderAction = 'release' | 'start' | 'hold' | 'consume' | 'complete' | 'short' | 'scrap' | 'qc' | 'inspect' | 'split' | 'schedule' | 'cancel' | 'delete';

/** Statuses whose plan can still change (the server refuses `Cannot update {status} production order` otherwise). */
const SCHEDULABLE: readonly OrderStatus[] = ['draft', 'released', 'in_progress', 'on_hold'];

/** What the order page offers for an order, in button order (6.2 plus the scrap, QC and delete rules). */
export function orderActions(o: Pick<ProductionOrder, 'status' | 'qc_status'> & { operations?: readonly unknown[] }): OrderAction[] {
  const next = ORDER_TRANSITIONS[o.status] ?? [];
  const out: OrderAction[] = [];
  if (next.includes('released')) out.push('release');
  if (next.includes('in_progress')) out.push('start');
  if (o.status === 'in_progress') out.push('consume');
  if (next.includes('complete')) out.push('complete');
  if (next.includes('short')) out.push('short');
  if (next.includes('on_hold')) out.push('hold');
  if (o.status === 'released' || o.status === 'in_progress') out.push('scrap');
  if (o.status === 'complete' && (o.qc_status === 'pending' || o.qc_status === 'failed')) out.push('qc');
  // An in-process inspection of one of the operations of a released or running order.
  if ((o.status === 'released' || o.status === 'in_progress') && (o.operations?.length ?? 0) > 0) out.push('inspect');
  // The server splits released orders only (nothing issued yet).
  if (o.status === 'released') out.push('split');
  if (SCHEDULABLE.includes(o.status)) out.push('schedule');
  if (next.includes('cancelled')) out.push('cancel');
  if (o.status === 'draft') out.push('delete');
  return out;
}

// ---------------------------------------------------------------- form rules (zod)

const decimal = /^\d+(\.\d{1,4})?$/;
const positive = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => decimal.test(v) && Number(v) > 0, `Enter ${what} greater than 0.`);
const zeroOrMore = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || decimal.test(v), `Enter ${what}, 0 or more.`);

export const createOrderSchema = z.object({
  product_id: z.string().min(1, 'Choose the product to make.'),
  quantity_ordered: positive('a quantity'),
  due_date: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), 'Enter a date like 2026-12-31.'),
  priority: z.string().refine((v) => ['1', '2', '3', '4', '5'].includes(v), 'Priority is 1 (highest) to 5.'),
  notes: z.string().trim().max(2000, 'Keep notes under 2000 characters.'),
});
export type CreateOrderForm = z.input<typeof createOrderSchema>;

export function createOrderBody(v: CreateOrderForm): ProductionOrderCreate {
  return {
    product_id: Number(v.product_id),
    quantity_ordered: v.quantity_ordered.trim(),
    due_date: v.due_date.trim() || null,
    priority: Number(v.priority),
    notes: v.notes.trim() || null,
  };
}

/**
 * Completion: good plus scrapped must be positive, within the ordered quantity; scrap needs a
 * reason. Less than ordered needs "close short", unless the order was already accepted short.
 */
export function completeSchema(ordered: number, acceptedShort = false) {
  return z
    .object({
      quantity_completed: zeroOrMore('the good quantity'),
      quantity_scrapped: zeroOrMore('the scrapped quantity'),
      scrap_reason: z.string(),
      force_close_short: z.boolean(),
      notes: z.string().trim().max(2000, 'Keep notes under 2000 characters.'),
    })
    .superRefine((v, ctx) => {
      const good = Number(v.quantity_completed || 0);
      const scrap = Number(v.quantity_scrapped || 0);
      if (good + scrap <= 0) ctx.addIssue({ code: 'custom', path: ['quantity_completed'], message: 'Enter what was completed or scrapped.' });
      else if (good + scrap > ordered)
        ctx.addIssue({ code: 'custom', path: ['quantity_completed'], message: `Completed plus scrapped cannot exceed the ordered ${ordered}.` });
      else if (good + scrap < ordered && !v.force_close_short && !acceptedShort)
        ctx.addIssue({ code: 'custom', path: ['force_close_short'], message: `That is less than the ordered ${ordered}: tick "close short" to finish anyway.` });
      if (scrap > 0 && !v.scrap_reason) ctx.addIssue({ code: 'custom', path: ['scrap_reason'], message: 'Choose why parts were scrapped.' });
    });
}
export type CompleteForm = z.input<ReturnType<typeof completeSchema>>;

export function completeBody(v: CompleteForm): ProductionComplete {
  const scrap = v.quantity_scrapped.trim();
  return {
    quantity_completed: v.quantity_completed.trim() || '0',
    quantity_scrapped: scrap || '0',
    scrap_reason: Number(scrap || 0) > 0 ? v.scrap_reason : null,
    force_close_short: v.force_close_short,
    notes: v.notes.trim() || null,
    spools_used: [],
  };
}

/** Scrapping part or all of a released or running order. */
export function scrapSchema(remaining: number) {
  return z.object({
    scrap_reason: z.string().min(1, 'Choose a scrap reason.'),
    quantity_scrapped: positive('the quantity scrapped').refine((v) => Number(v) <= remaining, `At most ${remaining} can be scrapped.`),
    notes: z.string().trim().max(2000, 'Keep notes under 2000 characters.'),
    create_remake: z.boolean(),
  });
}
export type ScrapForm = z.input<ReturnType<typeof scrapSchema>>;

/**
 * The results the server takes: an operation of a released or running order is inspected
 * in process; a complete order gets its verdict (CONTRACT 6.2: waived while pending, sent
 * back for inspection after a failure; conditional is a pass with a deviation accepted).
 */
export function qcChoices(o: Pick<ProductionOrder, 'status' | 'qc_status'>): QcResult[] {
  if (o.status === 'released' || o.status === 'in_progress') return ['passed', 'failed', 'conditional', 'waived'];
  if (o.status !== 'complete') return [];
  if (o.qc_status === 'pending') return ['passed', 'failed', 'conditional', 'waived'];
  if (o.qc_status === 'failed') return ['passed', 'failed', 'conditional', 'pending'];
  return [];
}
export type QcResult = 'passed' | 'failed' | 'waived' | 'conditional' | 'pending';
export const QC_RESULT_LABEL: Record<QcResult, string> = { passed: 'Passed', failed: 'Failed', waived: 'Waived', conditional: 'Conditional', pending: 'Inspect again' };

/** Grams from a named spool: positive, and no more than the spool holds. */
export function consumeSchema(spools: { id: number; current_weight_kg: string | number }[]) {
  return z
    .object({
      spool_id: z
        .string()
        .trim()
        .regex(/^\d+$/, 'Choose the spool the filament came from.'),
      weight_consumed_g: positive('the grams used'),
    })
    .superRefine((v, ctx) => {
      const s = spools.find((x) => String(x.id) === v.spool_id);
      if (s && Number(v.weight_consumed_g) > Number(s.current_weight_kg))
        ctx.addIssue({ code: 'custom', path: ['weight_consumed_g'], message: `The spool has only ${Number(s.current_weight_kg)} g left.` });
    });
}
export type ConsumeForm = z.input<ReturnType<typeof consumeSchema>>;

export const workCenterSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, 'Enter a code.')
    .max(50, 'Keep the code under 50 characters.')
    .regex(/^[A-Za-z0-9._-]+$/, 'Letters, digits, dot, dash and underscore only.'),
  name: z.string().trim().min(1, 'Enter a name.').max(200, 'Keep the name under 200 characters.'),
  center_type: z.enum(CENTER_TYPES as [WorkCenterType, ...WorkCenterType[]], 'Choose a type.'),
  hourly_rate: zeroOrMore('an hourly rate'),
  description: z.string().trim().max(2000, 'Keep the description under 2000 characters.'),
  active: z.boolean(),
});
export type WorkCenterForm = z.input<typeof workCenterSchema>;

/** Splitting a released order: at least two positive parts that add up to the ordered quantity. */
export function splitSchema(ordered: number) {
  return z
    .object({ parts: z.array(z.object({ quantity: positive('a quantity') })).min(2, 'Split into at least two orders.') })
    .superRefine((v, ctx) => {
      const sum = v.parts.reduce((t, p) => t + (decimal.test(p.quantity.trim()) ? Number(p.quantity) : 0), 0);
      // Four decimals at most, so a rounded comparison is exact enough.
      if (Math.round(sum * 10_000) !== Math.round(ordered * 10_000))
        ctx.addIssue({ code: 'custom', path: ['parts'], message: `The parts add up to ${+sum.toFixed(4)}; they must add up to the ordered ${ordered}.` });
    });
}
export type SplitForm = z.input<ReturnType<typeof splitSchema>>;

export const scheduleSchema = z
  .object({
    scheduled_start: z.string().refine((v) => localInputToIso(v) !== null, 'Enter when work should start.'),
    scheduled_end: z.string().refine((v) => v.trim() === '' || localInputToIso(v) !== null, 'Enter a valid date and time.'),
  })
  .refine((v) => !v.scheduled_end.trim() || (localInputToIso(v.scheduled_end) ?? '') > (localInputToIso(v.scheduled_start) ?? ''), {
    path: ['scheduled_end'],
    message: 'The planned end must come after the start.',
  });
export type ScheduleForm = z.input<typeof scheduleSchema>;

// ---------------------------------------------------------------- calls

const key = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
const once = (k?: string) => ({ headers: { 'Idempotency-Key': k ?? key() } });

export const productionApi = {
  list: (q: ProductionOrderQuery, signal?: AbortSignal) => api.get<ProductionOrderRow[]>('/production-orders/', { ...q }, signal),
  get: (id: number, signal?: AbortSignal) => api.get<ProductionOrder>(`/production-orders/${id}`, undefined, signal),
  create: (body: ProductionOrderCreate) => api.post<ProductionOrder>('/production-orders/', body, once()),
  remove: (id: number) => api.del<unknown>(`/production-orders/${id}`),
  release: (id: number) => api.post<ProductionOrder>(`/production-orders/${id}/release`, undefined, once()),
  start: (id: number) => api.post<ProductionOrder>(`/production-orders/${id}/start`, undefined, once()),
  hold: (id: number, notes?: string) => api.post<ProductionOrder>(`/production-orders/${id}/hold`, undefined, { query: { notes: notes || undefined } }),
  acceptShort: (id: number, notes?: string) => api.post<ProductionOrder>(`/production-orders/${id}/accept-short`, undefined, { query: { notes: notes || undefined } }),
  cancel: (id: number, notes?: string) => api.post<ProductionOrder>(`/production-orders/${id}/cancel`, undefined, { ...once(), query: { notes: notes || undefined } }),
  /** One key per opened dialog: a double click or a retry posts once. */
  consumeSpool: (id: number, spoolId: number, grams: string, k: string) =>
    api.post<ProductionOrder>(`/production-orders/${id}/consume-spool`, { spool_id: spoolId, weight_consumed_g: grams }, once(k)),
  complete: (id: number, body: ProductionComplete, k: string) => api.post<ProductionOrder>(`/production-orders/${id}/complete`, body, once(k)),
  scrap: (id: number, v: ScrapForm, k: string) =>
    api.post<ProductionOrder>(`/production-orders/${id}/scrap`, undefined, {
      ...once(k),
      query: { scrap_reason: v.scrap_reason, quantity_scrapped: v.quantity_scrapped.trim(), notes: v.notes.trim() || undefined, create_remake: v.create_remake },
    }),
  split: (id: number, v: SplitForm, k: string) =>
    api.post<Api<'/production-orders/{id}/split', 'post'>>(`/production-orders/${id}/split`, { splits: v.parts.map((p) => ({ quantity: p.quantity.trim() })) }, once(k)),
  schedule: (id: number, v: ScheduleForm) =>
    api.put<ProductionOrder>(`/production-orders/${id}/schedule`, { scheduled_start: localInputToIso(v.scheduled_start), scheduled_end: localInputToIso(v.scheduled_end) }),
  startOperation: (orderId: number, opId: number, printerId?: number | null) =>
    api.post<ProductionOperation>(`/production-orders/${orderId}/operations/${opId}/start`, { printer_id: printerId ?? null }),
  completeOperation: (orderId: number, opId: number) => api.post<ProductionOperation>(`/production-orders/${orderId}/operations/${opId}/complete`, {}),
  skipOperation: (orderId: number, opId: number) => api.post<ProductionOperation>(`/production-orders/${orderId}/operations/${opId}/skip`),
  workCenters: (activeOnly: boolean, signal?: AbortSignal) => api.get<WorkCenter[]>('/work-centers/', { active_only: activeOnly }, signal),
  createWorkCenter: (body: WorkCenterCreate) => api.post<WorkCenter>('/work-centers/', body, once()),
  updateWorkCenter: (id: number, body: WorkCenterCreate) => api.put<WorkCenter>(`/work-centers/${id}`, body),
  activeWork: async (signal?: AbortSignal): Promise<ActiveWork[]> => {
    const { printers } = await api.get<ActiveWorkMap>('/printers/active-work', undefined, signal);
    return Object.entries(printers).map(([id, work]) => ({ ...work, printer_id: Number(id) }));
  },
  suggestions: (signal?: AbortSignal) => api.get<DispatchSuggestion[]>('/dispatch/suggestions', undefined, signal),
  /** Accepts a dispatch suggestion: POST its `accept_path` with the printer. */
  accept: (s: DispatchSuggestion) => api.post<ProductionOperation>(s.accept_path.replace(/^\/api\/v1/, ''), { printer_id: s.printer_id }),
  summary: (signal?: AbortSignal) => api.get<CommandSummary>('/command-center/summary', undefined, signal),
  actionItems: (signal?: AbortSignal) => api.get<ActionItem[]>('/command-center/action-items', undefined, signal),
  resources: (signal?: AbortSignal) => api.get<CommandResources>('/command-center/resources', undefined, signal),
  costBreakdown: (id: number, signal?: AbortSignal) => api.get<CostBreakdown>(`/production-orders/${id}/cost-breakdown`, undefined, signal),
  /** Stores the order's estimate from its plan (it needs operations) and answers the new breakdown. */
  estimateCost: (id: number) => api.post<CostBreakdown>(`/production-orders/${id}/estimate-cost`, undefined, once()),
  materialAvailability: (id: number, signal?: AbortSignal) => api.get<MaterialAvailability>(`/production-orders/${id}/material-availability`, undefined, signal),
  compatibility: (id: number, signal?: AbortSignal) => api.get<OrderCompatibility>(`/production-orders/${id}/compatibility`, undefined, signal),
  /** Whether the order's materials can print on a printer: errors only (warnings never refuse). */
  checkPrinter: (id: number, printerId: number, signal?: AbortSignal) =>
    api.get<PrinterCheck>(`/production-orders/${id}/check-resource-compatibility`, { resource_id: printerId, is_printer: true }, signal),
  operationCompatibility: (orderId: number, opId: number, signal?: AbortSignal) =>
    api.get<OperationCompatibility>(`/production-orders/${orderId}/operations/${opId}/compatibility`, undefined, signal),
  newKey: key,
};

/**
 * How often the floor views refetch on their own. Changes arrive through the live
 * subscription (`api/live.ts` invalidates these queries on each event); this interval
 * only covers what no event announces (time passing makes an order late) and a socket
 * that cannot connect.
 */
export const LIVE_INTERVAL = 60_000;
