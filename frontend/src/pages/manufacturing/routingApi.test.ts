import { describe, expect, it } from 'vitest';
import {
  EMPTY_MATERIAL,
  EMPTY_STEP,
  applyTemplateBody,
  applyTemplateSchema,
  groupOperationTypes,
  labourCost,
  materialBody,
  materialSchema,
  moveId,
  printStepCode,
  resequence,
  routingMinutes,
  stepBody,
  stepSchema,
  stepsInOrder,
  type OperationType,
} from './routingApi';

type Schema = { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
const errorsOf = (schema: Schema, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
};

const type = (code: string, category: OperationType['category'], sort_order: number): OperationType => ({
  id: sort_order,
  code,
  label: code,
  description: null,
  category,
  consume_stages: ['any'],
  is_qc: false,
  is_system: true,
  is_active: true,
  sort_order,
  default_work_center_id: null,
  created_at: '',
  updated_at: '',
});

describe('operation types', () => {
  it('are grouped by category in process order, each by sort order; no category is Other', () => {
    const groups = groupOperationTypes([
      type('PACK_SHIP', 'shipping', 80),
      type('RESIN_PRINT', 'print', 20),
      type('CUSTOM', null, 5),
      type('FDM_PRINT', 'print', 10),
      type('QUALITY_CONTROL', 'quality', 40),
    ]);
    expect(groups.map((g) => [g.label, g.types.map((t) => t.code)])).toEqual([
      ['Print', ['FDM_PRINT', 'RESIN_PRINT']],
      ['Quality', ['QUALITY_CONTROL']],
      ['Shipping', ['PACK_SHIP']],
      ['Other', ['CUSTOM']],
    ]);
  });
});

describe('step order', () => {
  const steps = [
    { id: 3, sequence: 30 },
    { id: 1, sequence: 10 },
    { id: 2, sequence: 20 },
  ];
  it('sorts steps by sequence', () => {
    expect(stepsInOrder(steps).map((s) => s.id)).toEqual([1, 2, 3]);
  });
  it('moves an id to a position, up or down, and ignores unknown ids', () => {
    expect(moveId([1, 2, 3], 1, 2)).toEqual([2, 3, 1]);
    expect(moveId([1, 2, 3], 3, 0)).toEqual([3, 1, 2]);
    expect(moveId([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
    expect(moveId([1, 2, 3], 9, 0)).toEqual([1, 2, 3]);
  });
  it('renumbers by tens and sends only the steps whose number changes', () => {
    expect(resequence(steps, [2, 1, 3])).toEqual([
      { id: 2, sequence: 10 },
      { id: 1, sequence: 20 },
    ]);
    expect(resequence([{ id: 1, sequence: 5 }, { id: 2, sequence: 40 }], [1, 2])).toEqual([
      { id: 1, sequence: 10 },
      { id: 2, sequence: 20 },
    ]);
    expect(resequence(steps, [1, 2, 3])).toEqual([]);
  });
});

describe('totals', () => {
  it('adds setup to run (which includes wait and move) and sums the step costs', () => {
    expect(routingMinutes({ total_setup_time_minutes: '7.00', total_run_time_minutes: '65.50' })).toEqual({ setup: 7, run: 65.5, total: 72.5 });
    expect(labourCost([{ calculated_cost: '1.10' }, { calculated_cost: '2.20' }])).toBe(3.3);
  });
});

describe('step form', () => {
  const ok = { ...EMPTY_STEP, operation_code: 'print', work_center_id: '4', run_minutes: '45.5' };
  it('needs a work center and a code or a type; minutes, units and scrap are checked', () => {
    expect(errorsOf(stepSchema, ok)).toEqual({});
    expect(errorsOf(stepSchema, { ...ok, operation_code: '', operation_type: 'FDM_PRINT' })).toEqual({});
    expect(errorsOf(stepSchema, { ...ok, operation_code: '' })).toHaveProperty('operation_code', 'Enter a code or choose an operation type.');
    expect(errorsOf(stepSchema, { ...ok, work_center_id: '' })).toHaveProperty('work_center_id', 'Choose a work center.');
    expect(errorsOf(stepSchema, { ...ok, setup_minutes: '-1' })).toHaveProperty('setup_minutes');
    expect(errorsOf(stepSchema, { ...ok, wait_minutes: '1.234' })).toHaveProperty('wait_minutes');
    expect(errorsOf(stepSchema, { ...ok, units_per_cycle: '0' })).toHaveProperty('units_per_cycle');
    expect(errorsOf(stepSchema, { ...ok, scrap_rate_percent: '101' })).toHaveProperty('scrap_rate_percent');
  });
  it('builds the body: blanks to the server on a new step, a cleared type is null on a change', () => {
    const added = stepBody({ ...ok, operation_name: ' ', setup_minutes: '' }, false);
    expect(added).toMatchObject({ operation_code: 'print', work_center_id: 4, setup_minutes: '0', run_minutes: '45.5', units_per_cycle: 1, notes: null });
    expect(added.operation_type).toBeUndefined();
    expect(added.operation_name).toBeUndefined();
    expect(stepBody(ok, true).operation_type).toBeNull();
    expect(stepBody({ ...ok, operation_type: 'FDM_PRINT' }, true).operation_type).toBe('FDM_PRINT');
  });
});

describe('material form', () => {
  const ok = { ...EMPTY_MATERIAL, component_id: '12', quantity: '35.5' };
  it('needs a component and a positive quantity; scrap is 0-100', () => {
    expect(errorsOf(materialSchema, ok)).toEqual({});
    expect(errorsOf(materialSchema, { ...ok, component_id: '' })).toHaveProperty('component_id', 'Choose a component.');
    expect(errorsOf(materialSchema, { ...ok, quantity: '0' })).toHaveProperty('quantity');
    expect(errorsOf(materialSchema, { ...ok, scrap_factor: '150' })).toHaveProperty('scrap_factor');
    expect(errorsOf(materialSchema, { ...ok, quantity_per: 'week' })).toHaveProperty('quantity_per');
  });
  it('builds the body with a blank unit left to the component', () => {
    expect(materialBody({ ...ok, quantity_per: 'batch', is_cost_only: true })).toEqual({
      component_id: 12,
      quantity: '35.5',
      quantity_per: 'batch',
      unit: null,
      scrap_factor: '0',
      is_cost_only: true,
      is_optional: false,
      is_variable: false,
      notes: null,
    });
  });
});

describe('apply template', () => {
  const template = {
    operations: [
      { operation_code: 'PRINT', operation_type: 'FDM_PRINT' },
      { operation_code: 'QC', operation_type: 'QUALITY_CONTROL' },
    ],
  } as never;
  it("overrides the print step's run time when a print time is given", () => {
    expect(printStepCode(template)).toBe('PRINT');
    expect(applyTemplateBody({ template_id: '5', print_minutes: '42' }, 9, template)).toEqual({
      template_id: 5,
      product_id: 9,
      overrides: [{ operation_code: 'PRINT', run_minutes: '42' }],
    });
    expect(applyTemplateBody({ template_id: '5', print_minutes: '' }, 9, template).overrides).toEqual([]);
  });
  it('has no print override for a template without a print step', () => {
    const noPrint = { operations: [{ operation_code: 'PACK', operation_type: 'PACK_SHIP' }] } as never;
    expect(printStepCode(noPrint)).toBeNull();
    expect(applyTemplateBody({ template_id: '5', print_minutes: '42' }, 9, noPrint).overrides).toEqual([]);
  });
  it('needs a template; the print time is optional minutes', () => {
    expect(errorsOf(applyTemplateSchema, { template_id: '', print_minutes: '' })).toHaveProperty('template_id', 'Choose a template.');
    expect(errorsOf(applyTemplateSchema, { template_id: '1', print_minutes: 'soon' })).toHaveProperty('print_minutes');
  });
});
