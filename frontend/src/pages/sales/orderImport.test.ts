import { describe, expect, it } from 'vitest';
import { createdNumbers, customerBadge, errorColumn, formatName, importLabel, importQuery, outcomeBadge, orderProblem, readyCount, reportLine, showsCustomer, SOURCE_OPTIONS, type OrderImportOrder, type OrderImportReport } from './orderImport';

function order(o: Partial<OrderImportOrder>): OrderImportOrder {
  return {
    order_id: '1001',
    first_row: 2,
    line_count: 1,
    units: 1,
    customer_email: 'a@shop.test',
    customer_name: null,
    customer: 'new',
    subtotal: '10.00',
    tax_amount: '0.00',
    shipping_cost: '0.00',
    grand_total: '10.00',
    outcome: 'ready',
    order_number: null,
    errors: [],
    ...o,
  };
}

function report(r: Partial<OrderImportReport>): OrderImportReport {
  return {
    total_rows: 3,
    orders_found: 3,
    created: 2,
    skipped: 1,
    customers_created: 2,
    errors: [],
    warnings: [],
    orders: [],
    truncated: false,
    detected_format: 'strata',
    source: 'manual',
    applied: false,
    message: 'ok',
    ...r,
  };
}

describe('order import helpers', () => {
  it('sends create_customers always and source only when chosen', () => {
    expect(importQuery({ createCustomers: true })).toEqual({ create_customers: true });
    expect(importQuery({ createCustomers: false, source: '' })).toEqual({ create_customers: false });
    expect(importQuery({ createCustomers: true, source: 'etsy' })).toEqual({ create_customers: true, source: 'etsy' });
  });

  it('offers detection first and every shop the server knows', () => {
    expect(SOURCE_OPTIONS[0]).toEqual({ value: '', label: 'Detect from file' });
    expect(SOURCE_OPTIONS.map((o) => o.value).slice(1)).toEqual(['manual', 'shopify', 'squarespace', 'woocommerce', 'etsy', 'tiktok']);
  });

  it('counts ready orders from the whole report, not only the listed ones', () => {
    expect(readyCount(report({ created: 140, orders: [order({})] }))).toBe(140);
    expect(readyCount(report({ created: 0 }))).toBe(0);
    // An applied report has nothing left to import.
    expect(readyCount(report({ created: 2, applied: true }))).toBe(0);
  });

  it('labels the import button', () => {
    expect(importLabel(0)).toBe('Import 0 orders');
    expect(importLabel(1)).toBe('Import 1 order');
    expect(importLabel(12)).toBe('Import 12 orders');
  });

  it('badges outcomes and customers, unknown values readable', () => {
    expect(outcomeBadge('ready')).toEqual({ label: 'Ready', tone: 'success' });
    expect(outcomeBadge('invalid').tone).toBe('danger');
    expect(outcomeBadge('duplicate').label).toBe('Already imported');
    expect(outcomeBadge('later')).toEqual({ label: 'Later', tone: 'neutral' });
    expect(customerBadge('none')).toEqual({ label: 'Not linked', tone: 'warning' });
    expect(customerBadge('existing').label).toBe('Existing');
  });

  it('lists the created order numbers in file order', () => {
    const r = report({
      applied: true,
      orders: [
        order({ order_id: '1', outcome: 'created', order_number: 'SO-2026-0001' }),
        order({ order_id: '2', outcome: 'invalid', errors: ['Unknown SKU'] }),
        order({ order_id: '3', outcome: 'duplicate', order_number: 'SO-2026-0000' }),
        order({ order_id: '4', outcome: 'created', order_number: 'SO-2026-0002' }),
      ],
    });
    expect(createdNumbers(r)).toEqual(['SO-2026-0001', 'SO-2026-0002']);
  });

  it('names formats and blank columns', () => {
    expect(formatName('strata')).toBe('Strata template');
    expect(formatName('woocommerce')).toBe('WooCommerce');
    expect(formatName('other')).toBe('other');
    expect(errorColumn({ row: 3, field: 'Product SKU', reason: 'x' })).toBe('Product SKU');
    expect(errorColumn({ row: 3, field: 'product_sku', reason: 'x' })).toBe('Product SKU');
    expect(errorColumn({ row: 3, field: 'order_id', reason: 'x' })).toBe('Order ID');
    expect(errorColumn({ row: 3, field: 'customer_email', reason: 'x' })).toBe('Customer Email');
    expect(errorColumn({ row: 3, field: null, reason: 'x' })).toBe('—');
    expect(errorColumn({ row: 3, field: ' ', reason: 'x' })).toBe('—');
  });

  it('makes an order problem readable', () => {
    expect(orderProblem("row 6: product_sku: Product SKU 'NOPE' not found")).toBe("Row 6: Product SKU 'NOPE' not found");
    expect(orderProblem('row 4: quantity: must be a whole number')).toBe('Row 4, Quantity: must be a whole number');
    expect(orderProblem('Cancelled in the shop')).toBe('Cancelled in the shop');
  });

  it('ends the server sentence before the format', () => {
    expect(reportLine(report({ message: '2 of 3 orders can be imported' }))).toBe('2 of 3 orders can be imported. Format: Strata template.');
    expect(reportLine(report({ message: 'Done.', detected_format: 'shopify' }))).toBe('Done. Format: Shopify.');
  });

  it('hides the "not linked" customer of an order that is not imported', () => {
    expect(showsCustomer(order({ customer: 'none', outcome: 'invalid' }))).toBe(false);
    expect(showsCustomer(order({ customer: 'none', outcome: 'ready' }))).toBe(true);
    expect(showsCustomer(order({ customer: 'existing', outcome: 'duplicate' }))).toBe(true);
  });
});
