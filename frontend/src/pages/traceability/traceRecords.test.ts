import { describe, expect, it, vi } from 'vitest';
import type { UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../api/errors';
import { applyServerErrors } from '../../lib/forms';
import {
  canConsume,
  consumptionPayload,
  consumptionSchema,
  EMPTY_LOT_FORM,
  EMPTY_PROFILE,
  LOT_FORM_FIELDS,
  lotEditPayload,
  lotFormSchema,
  lotPayload,
  lotStatusMoves,
  profilePayload,
  profileSchema,
  serialMovePayload,
  serialMoves,
  unitsFormSchema,
  unitsPayload,
  type LotFormValues,
} from './traceRecords';

describe('serial moves', () => {
  it('offers only the moves the server allows', () => {
    const to = (s: Parameters<typeof serialMoves>[0]) => serialMoves(s).map((m) => m.to);
    expect(to('manufactured')).toEqual(['in_stock', 'scrapped']);
    expect(to('in_stock')).toEqual(['scrapped']);
    expect(to('sold')).toEqual(['returned']);
    expect(to('shipped')).toEqual(['returned']);
    expect(to('returned')).toEqual(['in_stock', 'scrapped']);
    expect(to('scrapped')).toEqual([]);
  });

  it('asks before scrapping and wants a reason for a return', () => {
    expect(serialMoves('in_stock')[0]).toMatchObject({ to: 'scrapped', confirm: true });
    const back = serialMoves('shipped')[0]!;
    expect(back.reason).toBe(true);
    expect(serialMovePayload(back, '  Cracked lid ')).toEqual({ status: 'returned', return_reason: 'Cracked lid' });
    expect(serialMovePayload(serialMoves('manufactured')[0]!, 'ignored')).toEqual({ status: 'in_stock' });
  });
});

describe('lot payloads', () => {
  const form = (over: Partial<LotFormValues>): LotFormValues => ({ ...EMPTY_LOT_FORM, product_id: '4', quantity_received: ' 500 ', ...over });

  it('leaves blanks out so the server numbers and dates the lot', () => {
    expect(lotPayload(form({}))).toEqual({ product_id: 4, quantity_received: '500' });
  });

  it('sends every filled field', () => {
    expect(
      lotPayload(
        form({ lot_number: ' RESIN-2026-0001 ', vendor_id: '9', vendor_lot_number: 'V-7', received_date: '2026-11-20', expiration_date: '2027-11-20', unit_cost: '0.02', notes: 'Dry' }),
      ),
    ).toEqual({
      product_id: 4,
      quantity_received: '500',
      lot_number: 'RESIN-2026-0001',
      vendor_id: 9,
      vendor_lot_number: 'V-7',
      received_date: '2026-11-20',
      expiration_date: '2027-11-20',
      unit_cost: '0.02',
      notes: 'Dry',
    });
  });

  it('refuses a missing item, a zero quantity, a negative cost and an expiry before receipt', () => {
    const r = lotFormSchema.safeParse(form({ product_id: '', quantity_received: '0', unit_cost: '-1', received_date: '2026-11-20', expiration_date: '2026-11-01' }));
    expect(r.success).toBe(false);
    const fields = r.error!.issues.map((i) => i.path.join('.')).sort();
    expect(fields).toEqual(['expiration_date', 'product_id', 'quantity_received', 'unit_cost']);
  });

  it('edits send only what changed and clear with null', () => {
    const lot = { expiration_date: '2027-01-01', vendor_lot_number: 'V-1', inspection_status: 'pending' as const, notes: 'old' };
    expect(lotEditPayload(lot, { expiration_date: '2027-01-01', vendor_lot_number: 'V-1', inspection_status: 'pending', notes: 'old' })).toEqual({});
    expect(lotEditPayload(lot, { expiration_date: '', vendor_lot_number: 'V-1', inspection_status: 'passed', notes: ' ' })).toEqual({
      expiration_date: null,
      inspection_status: 'passed',
      notes: null,
    });
  });

  it('status changes never offer the current status or depleted', () => {
    expect(lotStatusMoves('active')).toEqual(['quarantine', 'expired', 'recalled']);
    expect(lotStatusMoves('quarantine')).toEqual(['active', 'expired', 'recalled']);
    expect(lotStatusMoves('depleted')).toEqual(['active', 'quarantine', 'expired', 'recalled']);
  });

  it('only active lots that did not fail inspection can be drawn', () => {
    expect(canConsume({ status: 'active', inspection_status: 'passed' })).toBe(true);
    expect(canConsume({ status: 'quarantine', inspection_status: 'passed' })).toBe(false);
    expect(canConsume({ status: 'active', inspection_status: 'failed' })).toBe(false);
  });
});

describe('consumptions', () => {
  it('refuses more than is left', () => {
    const schema = consumptionSchema(100);
    expect(schema.safeParse({ production_order_id: '3', quantity_consumed: '100', serial_number_id: '', notes: '' }).success).toBe(true);
    const over = schema.safeParse({ production_order_id: '3', quantity_consumed: '101', serial_number_id: '', notes: '' });
    expect(over.error!.issues[0]!.message).toBe('Only 100 left in this lot');
  });

  it('builds the body with the optional unit', () => {
    expect(consumptionPayload(7, { production_order_id: '3', quantity_consumed: '25', serial_number_id: '', notes: '' })).toEqual({
      production_order_id: 3,
      material_lot_id: 7,
      quantity_consumed: '25',
    });
    expect(consumptionPayload(7, { production_order_id: '3', quantity_consumed: '25', serial_number_id: '12', notes: 'Shot 2' })).toMatchObject({
      serial_number_id: 12,
      notes: 'Shot 2',
    });
  });
});

describe('units and profiles', () => {
  it('numbers 1 to 1000 units', () => {
    const base = { product_id: '5', production_order_id: '', status: 'manufactured' as const };
    expect(unitsFormSchema.safeParse({ ...base, quantity: '0' }).success).toBe(false);
    expect(unitsFormSchema.safeParse({ ...base, quantity: '1001' }).success).toBe(false);
    expect(unitsFormSchema.safeParse({ ...base, quantity: '2.5' }).success).toBe(false);
    expect(unitsPayload({ ...base, quantity: '2' })).toEqual({ product_id: 5, quantity: 2, status: 'manufactured' });
    expect(unitsPayload({ ...base, quantity: '2', production_order_id: '8' })).toMatchObject({ production_order_id: 8 });
  });

  it('keeps records 1 to 36500 days and sends blanks as null', () => {
    expect(profileSchema.safeParse({ ...EMPTY_PROFILE, customer_id: '2', record_retention_days: '0' }).success).toBe(false);
    expect(profileSchema.safeParse({ ...EMPTY_PROFILE, customer_id: '2' }).success).toBe(true);
    expect(profilePayload({ ...EMPTY_PROFILE, customer_id: '2', requires_coc: true, compliance_standards: ' AS9100 ' })).toEqual({
      customer_id: 2,
      traceability_level: 'lot',
      requires_coc: true,
      requires_coa: false,
      requires_first_article: false,
      record_retention_days: 2555,
      custom_serial_prefix: null,
      compliance_standards: 'AS9100',
      notes: null,
    });
  });
});

describe('server errors', () => {
  it('puts 422 field errors next to the fields and the rest in the banner', () => {
    const setError = vi.fn() as unknown as UseFormSetError<LotFormValues>;
    const err = new ApiError(422, 'Validation failed', { quantity_received: 'must be greater than 0', location_id: 'unknown location' });
    const banner = applyServerErrors(err, setError, LOT_FORM_FIELDS);
    expect(setError).toHaveBeenCalledWith('quantity_received', { type: 'server', message: 'must be greater than 0' }, { shouldFocus: true });
    expect(banner).toContain('location_id: unknown location');
  });

  it('shows a plain refusal (a duplicate number) as the banner', () => {
    const setError = vi.fn() as unknown as UseFormSetError<LotFormValues>;
    const banner = applyServerErrors(new ApiError(400, "Lot number 'X' already exists"), setError, LOT_FORM_FIELDS);
    expect(banner).toBe("Lot number 'X' already exists");
    expect(setError).not.toHaveBeenCalled();
  });
});
