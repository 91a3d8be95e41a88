import { describe, expect, it } from 'vitest';
import {
  NEXT_STATUSES,
  parseWeights,
  vendorCreateSchema,
  vendorFormValues,
  vendorItemCreateSchema,
  vendorItemFormValues,
  vendorItemUpdateSchema,
  vendorUpdateSchema,
  type VendorItem,
} from './purchasingApi';

describe('purchasing helpers', () => {
  it('reads spool weights in grams', () => {
    expect(parseWeights('1000, 750')).toEqual([1000, 750]);
    expect(parseWeights('')).toEqual([]);
    expect(parseWeights('1000, x')).toBeNull();
    expect(parseWeights('0')).toBeNull();
  });
  it('offers the moves of the contract', () => {
    expect(NEXT_STATUSES.draft).toEqual(['ordered', 'cancelled']);
    expect(NEXT_STATUSES.closed).toEqual([]);
  });
});

/** The issues of a failed parse, as `{ field: message }`. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('vendor form', () => {
  const typed = {
    ...vendorFormValues(null),
    code: ' fil-1 ',
    name: ' Filament Supply ',
    email: ' Orders@Filament.Example ',
    city: 'Austin',
    lead_time_days: '7',
    rating: '4',
    notes: '  ',
  };

  it('creates with a blank code left to the server, blanks as null and no active flag', () => {
    expect(vendorCreateSchema.parse({ ...typed, code: '  ' })).toEqual({
      code: null,
      name: 'Filament Supply',
      contact_name: null,
      email: 'orders@filament.example',
      phone: null,
      website: null,
      address_line1: null,
      address_line2: null,
      city: 'Austin',
      state: null,
      postal_code: null,
      country: null,
      payment_terms: null,
      account_number: null,
      tax_id: null,
      lead_time_days: 7,
      rating: 4,
      notes: null,
    });
    expect(vendorCreateSchema.parse(typed).code).toBe('FIL-1');
  });

  it('edits every field: blank clears, the code and the name cannot go blank, active is sent', () => {
    const body = vendorUpdateSchema.parse({ ...typed, rating: '', is_active: false });
    expect(body).toMatchObject({ code: 'FIL-1', name: 'Filament Supply', rating: null, lead_time_days: 7, is_active: false, phone: null });
    expect(problems(vendorUpdateSchema.safeParse({ ...typed, code: ' ', name: '' }))).toEqual({
      code: 'A code can be changed but not removed.',
      name: 'Enter a name.',
    });
  });

  it('refuses a bad email, lead time and rating field by field', () => {
    expect(problems(vendorCreateSchema.safeParse({ ...typed, email: 'nope', lead_time_days: '1.5', rating: '6' }))).toEqual({
      email: 'Enter an email address like orders@vendor.com.',
      lead_time_days: 'Enter a whole number of days from 0 to 3650.',
      rating: 'Choose a rating from 1 to 5.',
    });
    expect(problems(vendorCreateSchema.safeParse({ ...typed, lead_time_days: '3651', postal_code: 'x'.repeat(21) }))).toEqual({
      lead_time_days: 'Enter a whole number of days from 0 to 3650.',
      postal_code: 'Keep the postal code under 20 characters.',
    });
  });

  it('fills the form from a vendor', () => {
    const values = vendorFormValues({
      id: 3,
      code: 'VND-003',
      name: 'Bolt Depot',
      contact_name: null,
      email: 'b@bolts.example',
      phone: null,
      website: null,
      address: null,
      address_line1: '1 Main St',
      address_line2: null,
      city: null,
      state: null,
      postal_code: null,
      country: 'US',
      payment_terms: 'Net 30',
      account_number: null,
      tax_id: null,
      lead_time_days: 0,
      rating: null,
      notes: null,
      is_active: false,
      po_count: 2,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    });
    expect(values).toMatchObject({ code: 'VND-003', address_line1: '1 Main St', lead_time_days: '0', rating: '', contact_name: '', is_active: false });
  });
});

describe('price list form', () => {
  const entry: VendorItem = {
    id: 5,
    vendor_id: 3,
    item_id: 31,
    item_sku: 'PLA',
    item_name: 'PLA black',
    vendor_sku: 'F-PLA',
    last_price: '20.5000',
    purchase_unit: 'KG',
    lead_time_days: null,
    is_preferred: false,
    last_ordered_at: null,
  };

  it('adds an item: the item is required, blanks are null, the price has at most 4 decimals', () => {
    const values = vendorItemFormValues(null);
    expect(problems(vendorItemCreateSchema.safeParse({ ...values, unit_cost: '1.23456' }))).toEqual({
      product_id: 'Choose an item.',
      unit_cost: 'Enter a price of 0 or more, with at most 4 decimal places.',
    });
    expect(vendorItemCreateSchema.parse({ ...values, product_id: '31', unit_cost: ' 2.5 ', lead_time_days: '10', is_preferred: true })).toEqual({
      product_id: 31,
      vendor_sku: null,
      unit_cost: '2.5',
      purchase_unit: null,
      lead_time_days: 10,
      is_preferred: true,
    });
  });

  it('changes an entry without its item; a value once set can change but not be removed', () => {
    const schema = vendorItemUpdateSchema(entry);
    const values = vendorItemFormValues(entry);
    expect(values).toEqual({ product_id: '31', vendor_sku: 'F-PLA', unit_cost: '20.5', purchase_unit: 'KG', lead_time_days: '', is_preferred: false });
    expect(schema.parse({ ...values, unit_cost: '19', is_preferred: true })).toEqual({
      vendor_sku: 'F-PLA',
      unit_cost: '19',
      purchase_unit: 'KG',
      lead_time_days: null,
      is_preferred: true,
    });
    expect(problems(schema.safeParse({ ...values, vendor_sku: ' ', unit_cost: '' }))).toEqual({
      vendor_sku: "The vendor's SKU can be changed but not removed.",
      unit_cost: 'The price can be changed but not removed.',
    });
  });
});
