import { describe, expect, it } from 'vitest';
import { EMPTY_TRANSACTION, toTransactionBody, transactionFormSchema, type TransactionFormValues } from './TransactionFormModal';

const form = (v: Partial<TransactionFormValues>) => ({ ...EMPTY_TRANSACTION, sku: 'fg-1', quantity: '5', ...v });
const errorsOf = (v: Partial<TransactionFormValues>) => {
  const r = transactionFormSchema.safeParse(form(v));
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('transaction form validation', () => {
  it('accepts a receipt and builds the API body (SKU upper-cased, blanks as null)', () => {
    const r = transactionFormSchema.safeParse(form({ cost_per_unit: '2.50', location_id: '3', lot_number: ' L-1 ' }));
    expect(r.success).toBe(true);
    if (!r.success) return;
    expect(r.data.sku).toBe('FG-1');
    expect(toTransactionBody(r.data, 42)).toEqual({
      product_id: 42,
      transaction_type: 'receipt',
      quantity: '5',
      location_id: 3,
      to_location_id: null,
      cost_per_unit: '2.50',
      reason: null,
      lot_number: 'L-1',
      notes: null,
    });
  });

  it('requires an item and a positive quantity with at most four decimals', () => {
    expect(errorsOf({ sku: ' ' })).toHaveProperty('sku', 'Enter the item’s SKU.');
    expect(errorsOf({ quantity: '' })).toHaveProperty('quantity', 'Enter a quantity.');
    expect(errorsOf({ quantity: '0' })).toHaveProperty('quantity', 'Enter a quantity greater than 0.');
    expect(errorsOf({ quantity: '-2', transaction_type: 'issue' })).toHaveProperty('quantity', 'Enter a quantity greater than 0.');
    expect(errorsOf({ quantity: '1.00001' })).toHaveProperty('quantity', 'Enter a number with at most 4 decimal places.');
    expect(errorsOf({ quantity: 'ten' })).toHaveProperty('quantity');
    expect(errorsOf({ cost_per_unit: '-1' })).toHaveProperty('cost_per_unit');
  });

  it('needs a different destination for a transfer', () => {
    expect(errorsOf({ transaction_type: 'transfer' })).toHaveProperty('to_location_id', 'Choose where the stock goes.');
    expect(errorsOf({ transaction_type: 'transfer', location_id: '2', to_location_id: '2' })).toHaveProperty(
      'to_location_id',
      'Choose a different destination.',
    );
    const ok = transactionFormSchema.parse(form({ transaction_type: 'transfer', location_id: '1', to_location_id: '2', cost_per_unit: '9' }));
    // A transfer moves stock at its cost: no unit cost is sent.
    expect(toTransactionBody(ok, 1)).toMatchObject({ to_location_id: 2, cost_per_unit: null });
  });

  it('needs a reason and a non-zero quantity (either sign) for an adjustment', () => {
    expect(errorsOf({ transaction_type: 'adjustment' })).toHaveProperty('reason', 'Choose why the stock is adjusted.');
    expect(errorsOf({ transaction_type: 'adjustment', reason: 'damaged', quantity: '0' })).toHaveProperty(
      'quantity',
      'An adjustment must change the quantity.',
    );
    expect(errorsOf({ transaction_type: 'adjustment', reason: 'damaged', quantity: '-3' })).toEqual({});
  });
});
