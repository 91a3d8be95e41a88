import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import {
  characteristicsFor,
  duplicateCodes,
  EMPTY_CHARACTERISTIC,
  EMPTY_PLAN,
  inspectionBody,
  inspectionSchema,
  limitsText,
  measurementsBody,
  photoProblem,
  planBody,
  planSchema,
  snakeField,
  withinSpec,
  type PlanCharacteristic,
  type QualityPlan,
} from './qualityApi';

type Schema = { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
const errorsOf = (schema: Schema, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
};

const wall = { ...EMPTY_CHARACTERISTIC, code: 'WALL', characteristic: 'Wall thickness', nominal: '2.0', lower_limit: '1.8', upper_limit: '2.2', unit: 'mm' };
const surf = { ...EMPTY_CHARACTERISTIC, code: 'SURF', characteristic: 'Surface', characteristic_type: 'attribute' as const, acceptance_criteria: 'No stringing', severity: 'minor' as const };
const plan = { ...EMPTY_PLAN, code: 'QP-1', name: 'Bracket', product_id: '7', characteristics: [wall, surf] };

const char = (over: Partial<PlanCharacteristic>): PlanCharacteristic => ({
  id: 1,
  code: null,
  characteristic: 'x',
  characteristic_type: 'variable',
  nominal: null,
  lower_limit: null,
  upper_limit: null,
  unit: null,
  acceptance_criteria: null,
  sequence: 0,
  severity: 'major',
  routing_operation_id: null,
  ...over,
});

describe('the plan editor', () => {
  it('checks what the server checks: lower not above upper, attributes without limits, codes used once', () => {
    expect(errorsOf(planSchema, plan)).toEqual({});
    expect(errorsOf(planSchema, { ...plan, characteristics: [{ ...wall, lower_limit: '3', upper_limit: '2' }] })).toEqual({
      'characteristics.0.lower_limit': 'The lower limit cannot be above the upper.',
    });
    expect(errorsOf(planSchema, { ...plan, characteristics: [{ ...surf, nominal: '1' }] })).toEqual({
      'characteristics.0.characteristic_type': 'An attribute characteristic has no nominal, limits or unit.',
    });
    expect(errorsOf(planSchema, { ...plan, characteristics: [wall, { ...surf, code: 'WALL' }] })).toEqual({
      'characteristics.0.code': 'Code WALL is used twice.',
      'characteristics.1.code': 'Code WALL is used twice.',
    });
    expect(errorsOf(planSchema, { ...plan, product_id: '', version: '0', characteristics: [{ ...wall, characteristic: ' ', nominal: 'two' }] })).toEqual({
      product_id: 'Choose the product it inspects.',
      version: 'A whole number, 1 or more.',
      'characteristics.0.characteristic': 'Name what is checked.',
      'characteristics.0.nominal': 'Enter a number.',
    });
  });

  it('sends the characteristics in table order, attributes without limits, blanks as null', () => {
    const body = planBody(planSchema.parse(plan));
    expect(body).toMatchObject({ code: 'QP-1', product_id: 7, version: 1, revision: '1.0', effective_date: null, notes: null, is_active: true });
    expect(body.characteristics).toEqual([
      { code: 'WALL', characteristic: 'Wall thickness', characteristic_type: 'variable', nominal: '2.0', lower_limit: '1.8', upper_limit: '2.2', unit: 'mm', acceptance_criteria: null, sequence: 0, severity: 'major', routing_operation_id: null },
      { code: 'SURF', characteristic: 'Surface', characteristic_type: 'attribute', nominal: null, lower_limit: null, upper_limit: null, unit: null, acceptance_criteria: 'No stringing', sequence: 1, severity: 'minor', routing_operation_id: null },
    ]);
    // A PATCH leaves unchanged characteristics alone (they would be replaced).
    expect(planBody(planSchema.parse(plan), false)).not.toHaveProperty('characteristics');
  });

  it('reads the server errors: nested names in snake case, the codes a duplicate refusal names', () => {
    expect(snakeField('characteristics.0.lowerLimit')).toBe('characteristics.0.lower_limit');
    expect(snakeField('body.characteristics.1.characteristic_type')).toBe('characteristics.1.characteristic_type');
    expect(duplicateCodes(new ApiError(400, 'duplicate characteristic code(s) within the plan: A, B'))).toEqual(['A', 'B']);
    expect(duplicateCodes(new ApiError(400, 'something else'))).toEqual([]);
  });
});

describe('the inspection form', () => {
  it('judges a measured value against its limits as it is typed', () => {
    expect(withinSpec('2.05', '1.8', '2.2')).toBe(true);
    expect(withinSpec('2.6', '1.8', '2.2')).toBe(false);
    expect(withinSpec('1.8', '1.8', null)).toBe(true);
    expect(withinSpec('1.7', '1.8', null)).toBe(false);
    expect(withinSpec('', '1.8', '2.2')).toBeNull();
    expect(withinSpec('abc', '1.8', '2.2')).toBeNull();
    expect(withinSpec('2', null, null)).toBeNull();
    expect(limitsText('1.80', '2.20', 'mm')).toBe('1.8 – 2.2 mm');
    expect(limitsText(null, '5', null)).toBe('≤ 5');
  });

  it('answers an operation’s own characteristics in process, all of them for the order', () => {
    const p = { characteristics: [char({ id: 2, sequence: 1, routing_operation_id: 40 }), char({ id: 1, sequence: 0 })] } as QualityPlan;
    expect(characteristicsFor(p, 40, true).map((c) => c.id)).toEqual([2]);
    expect(characteristicsFor(p, 41, true)).toEqual([]);
    expect(characteristicsFor(p, null, false).map((c) => c.id)).toEqual([1, 2]);
    expect(characteristicsFor(null, 40, true)).toEqual([]);
  });

  it('sends only what was answered, with the plan’s limits and links, and no defect with a pass', () => {
    const chars = [char({ id: 1, code: 'WALL', characteristic: 'Wall', lower_limit: '1.8', upper_limit: '2.2', unit: 'mm' }), char({ id: 2, code: 'SURF', characteristic: 'Surface', characteristic_type: 'attribute' }), char({ id: 3 })];
    const answers = { c1: { value: ' 2.05 ' }, c2: { conforms: 'no' }, c3: { value: '' } };
    expect(measurementsBody(chars, answers)).toEqual([
      { characteristic: 'Wall', quality_plan_characteristic_id: 1, characteristic_code: 'WALL', sequence: 0, measured_value: '2.05', nominal: null, lower_limit: '1.8', upper_limit: '2.2', unit: 'mm' },
      { characteristic: 'Surface', quality_plan_characteristic_id: 2, characteristic_code: 'SURF', sequence: 1, conforms: false },
    ]);
    const base = { quantity_passed: '', quantity_failed: '2', defect_reason_id: '5', operation_id: '9', failure_reason: 'shifted', notes: '', answers: {} };
    const schema = inspectionSchema(true);
    expect(inspectionBody(schema.parse({ ...base, result: 'passed' }), [])).toMatchObject({ result: 'passed', defect_reason_id: null, failure_reason: null, operation_id: 9, quantity_failed: '2', measurements: null });
    expect(inspectionBody(schema.parse({ ...base, result: 'failed' }), [])).toMatchObject({ result: 'failed', defect_reason_id: 5, failure_reason: 'shifted' });
    expect(inspectionBody(inspectionSchema(false).parse({ ...base, operation_id: '', result: 'pending', notes: 'again' }), [])).toEqual({ result: 'pending', notes: 'again' });
  });

  it('takes PNG, JPEG, WebP and GIF photos up to 25 MB', () => {
    expect(photoProblem({ name: 'a.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(photoProblem({ name: 'a.webp', type: 'image/webp', size: 25 * 1024 * 1024 })).toBeNull();
    expect(photoProblem({ name: 'a.txt', type: 'text/plain', size: 10 })).toBe('a.txt is not a PNG, JPEG, WebP or GIF image.');
    expect(photoProblem({ name: 'big.jpg', type: 'image/jpeg', size: 25 * 1024 * 1024 + 1 })).toBe('big.jpg is larger than 25 MB.');
  });
});
