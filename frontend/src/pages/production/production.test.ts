import { describe, expect, it } from 'vitest';
import { splitActionItems } from '../commandCenter/CommandCenterPage';
import { workCenterBody } from '../manufacturing/WorkCenterDialog';
import {
  completeBody,
  completeSchema,
  consumeSchema,
  createOrderBody,
  createOrderSchema,
  orderActions,
  qcChoices,
  scheduleSchema,
  splitSchema,
  scrapSchema,
  workCenterSchema,
} from './productionApi';
import { isoToLocalInput, localInputToIso } from '../../lib/localTime';
import { inspectionSchema } from '../quality/qualityApi';

type Schema = { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
const errorsOf = (schema: Schema, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('create order dialog', () => {
  const ok = { product_id: '7', quantity_ordered: '10', due_date: '', priority: '3', notes: '' };
  it('accepts a product and quantity and builds the body (blanks as null)', () => {
    expect(errorsOf(createOrderSchema, ok)).toEqual({});
    expect(createOrderBody({ ...ok, due_date: '2026-12-31', notes: ' rush ' })).toEqual({
      product_id: 7,
      quantity_ordered: '10',
      due_date: '2026-12-31',
      priority: 3,
      notes: 'rush',
    });
    expect(createOrderBody(ok).due_date).toBeNull();
  });
  it('needs a product, a positive quantity, a real date and priority 1 to 5', () => {
    expect(errorsOf(createOrderSchema, { ...ok, product_id: '' })).toHaveProperty('product_id', 'Choose the product to make.');
    expect(errorsOf(createOrderSchema, { ...ok, quantity_ordered: '0' })).toHaveProperty('quantity_ordered');
    expect(errorsOf(createOrderSchema, { ...ok, quantity_ordered: '-2' })).toHaveProperty('quantity_ordered');
    expect(errorsOf(createOrderSchema, { ...ok, quantity_ordered: 'ten' })).toHaveProperty('quantity_ordered');
    expect(errorsOf(createOrderSchema, { ...ok, due_date: '31/12/2026' })).toHaveProperty('due_date');
    expect(errorsOf(createOrderSchema, { ...ok, priority: '9' })).toHaveProperty('priority');
  });
});

describe('complete dialog', () => {
  const schema = completeSchema(10);
  const ok = { quantity_completed: '9', quantity_scrapped: '1', scrap_reason: 'warping', force_close_short: false, notes: '' };
  it('accepts good plus scrapped equal to the ordered quantity, with a reason for the scrap', () => {
    expect(errorsOf(schema, ok)).toEqual({});
    expect(completeBody(ok)).toEqual({
      quantity_completed: '9',
      quantity_scrapped: '1',
      scrap_reason: 'warping',
      force_close_short: false,
      notes: null,
      spools_used: [],
    });
  });
  it('asks for a scrap reason only when something was scrapped', () => {
    expect(errorsOf(schema, { ...ok, scrap_reason: '' })).toHaveProperty('scrap_reason');
    expect(errorsOf(schema, { ...ok, quantity_completed: '10', quantity_scrapped: '0', scrap_reason: '' })).toEqual({});
    expect(completeBody({ ...ok, quantity_scrapped: '0' }).scrap_reason).toBeNull();
  });
  it('refuses more than ordered, nothing at all, and a short close unless ticked', () => {
    expect(errorsOf(schema, { ...ok, quantity_completed: '10' })).toHaveProperty('quantity_completed', 'Completed plus scrapped cannot exceed the ordered 10.');
    expect(errorsOf(schema, { ...ok, quantity_completed: '0', quantity_scrapped: '0' })).toHaveProperty('quantity_completed');
    expect(errorsOf(schema, { ...ok, quantity_completed: '5' })).toHaveProperty('force_close_short');
    expect(errorsOf(schema, { ...ok, quantity_completed: '5', force_close_short: true })).toEqual({});
    expect(errorsOf(schema, { ...ok, quantity_scrapped: '-1' })).toHaveProperty('quantity_scrapped');
  });
  it('closes an order accepted short with what was made, without the tick', () => {
    expect(errorsOf(completeSchema(10, true), { ...ok, quantity_completed: '5' })).toEqual({});
  });
});

describe('scrap dialog', () => {
  const schema = scrapSchema(4);
  it('needs a reason and a positive quantity up to what remains', () => {
    expect(errorsOf(schema, { scrap_reason: 'warping', quantity_scrapped: '4', notes: '', create_remake: true })).toEqual({});
    expect(errorsOf(schema, { scrap_reason: '', quantity_scrapped: '4', notes: '', create_remake: true })).toHaveProperty('scrap_reason', 'Choose a scrap reason.');
    expect(errorsOf(schema, { scrap_reason: 'x', quantity_scrapped: '5', notes: '', create_remake: true })).toHaveProperty('quantity_scrapped', 'At most 4 can be scrapped.');
    expect(errorsOf(schema, { scrap_reason: 'x', quantity_scrapped: '0', notes: '', create_remake: false })).toHaveProperty('quantity_scrapped');
  });
});

describe('QC dialog', () => {
  const base = { quantity_passed: '', quantity_failed: '', defect_reason_id: '', operation_id: '', failure_reason: '', notes: '', answers: {} };
  it('takes the five results; waived and conditional need notes, as the server says', () => {
    const final = inspectionSchema(false);
    expect(errorsOf(final, { ...base, result: 'passed' })).toEqual({});
    expect(errorsOf(final, { ...base, result: 'failed' })).toEqual({});
    expect(errorsOf(final, { ...base, result: 'conditional' })).toEqual({ notes: 'Say what deviation is accepted.' });
    expect(errorsOf(final, { ...base, result: 'waived', notes: ' ' })).toEqual({ notes: 'Say why QC is waived.' });
    expect(errorsOf(final, { ...base, result: 'ok' })).toHaveProperty('result');
  });

  it('needs the operation of an in-process inspection, and numbers for quantities and measurements', () => {
    expect(errorsOf(inspectionSchema(true), { ...base, result: 'passed' })).toEqual({ operation_id: 'Choose the operation inspected.' });
    expect(errorsOf(inspectionSchema(true), { ...base, result: 'passed', operation_id: '4' })).toEqual({});
    expect(errorsOf(inspectionSchema(false), { ...base, result: 'passed', quantity_passed: '-1', answers: { c1: { value: 'abc' } } })).toEqual({
      quantity_passed: 'Enter a quantity, 0 or more.',
      'answers.c1.value': 'Enter a number.',
    });
  });
});

describe('spool picker', () => {
  const schema = consumeSchema([{ id: 3, current_weight_kg: '250' }]);
  it('needs a spool and positive grams the spool still holds', () => {
    expect(errorsOf(schema, { spool_id: '3', weight_consumed_g: '120.5' })).toEqual({});
    expect(errorsOf(schema, { spool_id: '', weight_consumed_g: '10' })).toHaveProperty('spool_id');
    expect(errorsOf(schema, { spool_id: 'SP-1', weight_consumed_g: '10' })).toHaveProperty('spool_id', 'Choose the spool the filament came from.');
    expect(errorsOf(schema, { spool_id: '3', weight_consumed_g: '0' })).toHaveProperty('weight_consumed_g');
    expect(errorsOf(schema, { spool_id: '3', weight_consumed_g: '251' })).toHaveProperty('weight_consumed_g', 'The spool has only 250 g left.');
  });
});

describe('work center form', () => {
  const wc = { code: 'PRINT', name: 'Print farm', center_type: 'printer_pool', hourly_rate: '12.5', description: '', active: true };
  it('validates a work center and builds its body', () => {
    expect(errorsOf(workCenterSchema, wc)).toEqual({});
    expect(errorsOf(workCenterSchema, { ...wc, code: 'has space' })).toHaveProperty('code');
    expect(errorsOf(workCenterSchema, { ...wc, name: ' ' })).toHaveProperty('name', 'Enter a name.');
    expect(errorsOf(workCenterSchema, { ...wc, hourly_rate: '-1' })).toHaveProperty('hourly_rate');
    expect(errorsOf(workCenterSchema, { ...wc, center_type: 'oven' })).toHaveProperty('center_type');
    expect(workCenterBody({ ...wc, center_type: 'printer_pool', hourly_rate: '' })).toMatchObject({ hourly_rate: '0', description: null });
  });
});

describe('order actions (CONTRACT 6.2)', () => {
  it('offers what each status allows', () => {
    expect(orderActions({ status: 'draft', qc_status: 'not_required' })).toEqual(['release', 'schedule', 'cancel', 'delete']);
    expect(orderActions({ status: 'released', qc_status: 'not_required' })).toEqual(['start', 'hold', 'scrap', 'split', 'schedule', 'cancel']);
    expect(orderActions({ status: 'in_progress', qc_status: 'not_required' })).toEqual(['consume', 'complete', 'short', 'hold', 'scrap', 'schedule', 'cancel']);
    expect(orderActions({ status: 'short', qc_status: 'not_required' })).toEqual(['complete', 'cancel']);
    expect(orderActions({ status: 'on_hold', qc_status: 'not_required' })).toEqual(['release', 'start', 'schedule', 'cancel']);
    expect(orderActions({ status: 'complete', qc_status: 'pending' })).toEqual(['qc']);
    expect(orderActions({ status: 'complete', qc_status: 'passed' })).toEqual([]);
    expect(orderActions({ status: 'cancelled', qc_status: 'not_required' })).toEqual([]);
  });

  it('offers waive while QC is pending and inspect-again after a failure; in process, any verdict of a step', () => {
    expect(qcChoices({ status: 'complete', qc_status: 'pending' })).toEqual(['passed', 'failed', 'conditional', 'waived']);
    expect(qcChoices({ status: 'complete', qc_status: 'failed' })).toEqual(['passed', 'failed', 'conditional', 'pending']);
    expect(qcChoices({ status: 'complete', qc_status: 'passed' })).toEqual([]);
    expect(qcChoices({ status: 'in_progress', qc_status: 'not_required' })).toEqual(['passed', 'failed', 'conditional', 'waived']);
    expect(qcChoices({ status: 'draft', qc_status: 'not_required' })).toEqual([]);
  });

  it('offers an in-process inspection of a released or running order that has operations', () => {
    expect(orderActions({ status: 'in_progress', qc_status: 'not_required', operations: [{}] })).toContain('inspect');
    expect(orderActions({ status: 'released', qc_status: 'not_required', operations: [{}] })).toContain('inspect');
    expect(orderActions({ status: 'in_progress', qc_status: 'not_required', operations: [] })).not.toContain('inspect');
    expect(orderActions({ status: 'complete', qc_status: 'pending', operations: [{}] })).toEqual(['qc']);
  });

  it('splits into two or more positive parts that add up to the order', () => {
    const split = splitSchema(10);
    expect(errorsOf(split, { parts: [{ quantity: '6' }, { quantity: '4' }] })).toEqual({});
    expect(errorsOf(split, { parts: [{ quantity: '10' }] })).toEqual({ parts: 'Split into at least two orders.' });
    expect(errorsOf(split, { parts: [{ quantity: '6' }, { quantity: '3' }] })).toEqual({ parts: 'The parts add up to 9; they must add up to the ordered 10.' });
    expect(errorsOf(split, { parts: [{ quantity: '10' }, { quantity: '0' }] })['parts.1.quantity']).toBe('Enter a quantity greater than 0.');
    expect(errorsOf(splitSchema(1.5), { parts: [{ quantity: '0.75' }, { quantity: '0.75' }] })).toEqual({});
  });

  it('schedules a start with an optional end after it, sent as instants', () => {
    expect(errorsOf(scheduleSchema, { scheduled_start: '', scheduled_end: '' })).toEqual({ scheduled_start: 'Enter when work should start.' });
    expect(errorsOf(scheduleSchema, { scheduled_start: '2030-01-10T08:00', scheduled_end: '2030-01-10T07:00' })).toEqual({
      scheduled_end: 'The planned end must come after the start.',
    });
    expect(errorsOf(scheduleSchema, { scheduled_start: '2030-01-10T08:00', scheduled_end: '' })).toEqual({});
    expect(localInputToIso('2030-01-10T08:00')).toBe(new Date(2030, 0, 10, 8, 0).toISOString());
    expect(isoToLocalInput(new Date(2030, 0, 10, 8, 5).toISOString())).toBe('2030-01-10T08:05');
    expect(isoToLocalInput(null)).toBe('');
  });
});

describe('list and board helpers', () => {
  it('splits late and blocked orders from the other action items', () => {
    const item = (kind: string) => ({ kind, severity: 'high', production_order_id: 1, production_order_code: 'WO', printer_id: null, message: kind });
    const { lateOrBlocked, other } = splitActionItems([item('late'), item('qc_pending'), item('waiting_for_material'), item('printer_error'), item('blocked')]);
    expect(lateOrBlocked.map((i) => i.kind)).toEqual(['late', 'waiting_for_material', 'blocked']);
    expect(other.map((i) => i.kind)).toEqual(['qc_pending', 'printer_error']);
  });
});
