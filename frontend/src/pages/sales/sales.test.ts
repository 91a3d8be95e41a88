import { describe, expect, it } from 'vitest';
import {
  addressBody,
  addressSchema,
  addressValues,
  canChangeAddress,
  canEditQuote,
  isoToLocal,
  quoteEditBody,
  quoteEditSchema,
  quoteEditValues,
  shippingDetailsBody,
  shippingDetailsSchema,
  shippingDetailsValues,
  type Quote,
  type SalesOrder,
  SHIPPING_EVENT_SOURCES,
  SHIPPING_EVENT_TYPES,
  canConvert,
  createSalesOrderBody,
  localToIso,
  noteBody,
  noteSchema,
  createSalesOrderSchema,
  orderMoves,
  paymentBody,
  paymentSchema,
  quoteBody,
  quoteMoves,
  quoteSchema,
  quoteStatusSchema,
  shipBody,
  shipSchema,
  trackingBody,
  trackingSchema,
  type CreateSalesOrderForm,
  type QuoteForm,
  type StatusTransitions,
  type TrackingForm,
} from './salesApi';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('create sales order form', () => {
  const good: CreateSalesOrderForm = { customer_id: '4', lines: [{ product_id: '7', quantity: '3' }], shipping_cost: '5.50', due_date: '2026-12-31', customer_notes: ' gift ', shipping_address_line1: '', shipping_city: '', shipping_state: '', shipping_zip: '' };

  it('accepts a customer and lines, and sends no prices', () => {
    expect(createSalesOrderSchema.safeParse(good).success).toBe(true);
    expect(createSalesOrderBody(good)).toEqual({
      customer_id: 4,
      lines: [{ product_id: 7, quantity: 3 }],
      shipping_cost: '5.50',
      due_date: '2026-12-31',
      customer_notes: 'gift',
      source: 'manual',
    });
  });

  it('sends nulls for what is left empty', () => {
    const body = createSalesOrderBody({ ...good, customer_id: '', shipping_cost: '', due_date: '', customer_notes: '' });
    expect(body.customer_id).toBeNull();
    expect(body.shipping_cost).toBeNull();
    expect(body.due_date).toBeNull();
    expect(body).not.toHaveProperty('shipping_address_line1');
  });

  it('sends a typed ship-to address', () => {
    const body = createSalesOrderBody({ ...good, shipping_address_line1: ' 1 Main St ', shipping_city: 'Springfield', shipping_state: 'IL', shipping_zip: '' });
    expect(body).toMatchObject({ shipping_address_line1: '1 Main St', shipping_city: 'Springfield', shipping_state: 'IL', shipping_zip: null });
  });

  it('refuses no lines, a missing item and quantities outside 1..10000', () => {
    expect(messages(createSalesOrderSchema.safeParse({ ...good, lines: [] }))).toEqual({ lines: 'Add at least one line.' });
    const r = createSalesOrderSchema.safeParse({
      ...good,
      lines: [
        { product_id: '', quantity: '1' },
        { product_id: '2', quantity: '0' },
        { product_id: '2', quantity: '10001' },
        { product_id: '2', quantity: '1.5' },
      ],
    });
    expect(messages(r)).toEqual({
      'lines.0.product_id': 'Choose an item.',
      'lines.1.quantity': 'Enter a whole quantity from 1 to 10000.',
      'lines.2.quantity': 'Enter a whole quantity from 1 to 10000.',
      'lines.3.quantity': 'Enter a whole quantity from 1 to 10000.',
    });
  });

  it('refuses a bad shipping cost and date', () => {
    expect(messages(createSalesOrderSchema.safeParse({ ...good, shipping_cost: '-1', due_date: '31/12/2026' }))).toEqual({
      shipping_cost: 'Enter a shipping cost, 0 or more.',
      due_date: 'Enter a date like 2026-12-31.',
    });
  });
});

describe('ship form', () => {
  it('needs a carrier and a service; the tracking number is optional', () => {
    expect(shipBody({ carrier: ' UPS ', service: 'Ground', tracking_number: '' })).toEqual({ carrier: 'UPS', service: 'Ground', tracking_number: null });
    expect(messages(shipSchema.safeParse({ carrier: ' ', service: '', tracking_number: '' }))).toEqual({
      carrier: 'Enter the carrier.',
      service: 'Enter the service.',
    });
  });
});

describe('payment form', () => {
  const good = { amount: '10.25', payment_method: 'cash' as const, transaction_id: '', check_number: '', notes: '' };
  it('takes a positive amount in cents and a known method', () => {
    expect(paymentSchema().safeParse(good).success).toBe(true);
    expect(paymentBody(3, { ...good, check_number: ' 1001 ' })).toEqual({
      sales_order_id: 3,
      amount: '10.25',
      payment_method: 'cash',
      transaction_id: null,
      check_number: '1001',
      notes: null,
    });
    expect(messages(paymentSchema().safeParse({ ...good, amount: '0' }))).toEqual({ amount: 'Enter an amount greater than 0, in cents at most.' });
    expect(messages(paymentSchema().safeParse({ ...good, amount: '1.234' }))).toEqual({ amount: 'Enter an amount greater than 0, in cents at most.' });
    expect(messages(paymentSchema().safeParse({ ...good, payment_method: 'gold' }))).toEqual({ payment_method: 'Choose how it was paid.' });
  });
  it('refunds no more than was paid', () => {
    expect(paymentSchema(10).safeParse({ ...good, amount: '10.00' }).success).toBe(true);
    expect(messages(paymentSchema(10).safeParse({ ...good, amount: '10.01' }))).toEqual({ amount: 'At most 10 can be refunded.' });
  });
});

describe('quote forms', () => {
  const good: QuoteForm = {
    product_id: '',
    product_name: 'Custom bracket',
    quantity: '2',
    unit_price: '12.50',
    customer_id: '',
    customer_email: 'a@example.com',
    shipping_cost: '',
    valid_days: '30',
    customer_notes: '',
  };
  it('builds the body', () => {
    expect(quoteSchema.safeParse(good).success).toBe(true);
    expect(quoteBody(good)).toEqual({
      product_id: null,
      product_name: 'Custom bracket',
      quantity: 2,
      unit_price: '12.50',
      customer_id: null,
      customer_email: 'a@example.com',
      shipping_cost: null,
      valid_days: 30,
      customer_notes: null,
    });
  });
  it('refuses a missing name, bad price, e-mail and validity', () => {
    expect(messages(quoteSchema.safeParse({ ...good, product_name: ' ', unit_price: '0', customer_email: 'nope', valid_days: '400' }))).toEqual({
      product_name: 'Enter what is quoted.',
      unit_price: 'Enter a unit price greater than 0, in cents at most.',
      customer_email: 'Enter a valid e-mail address.',
      valid_days: 'Valid for 1 to 365 days.',
    });
  });
  it('asks why a quote is rejected', () => {
    expect(messages(quoteStatusSchema.safeParse({ status: 'rejected', rejection_reason: '' }))).toEqual({ rejection_reason: 'Say why it was rejected.' });
    expect(quoteStatusSchema.safeParse({ status: 'approved', rejection_reason: '' }).success).toBe(true);
  });
  it('converts approved or accepted quotes only, and offers the moves of each status', () => {
    expect(canConvert({ status: 'approved' })).toBe(true);
    expect(canConvert({ status: 'accepted' })).toBe(true);
    expect(canConvert({ status: 'pending' })).toBe(false);
    expect(quoteMoves('converted')).toEqual([]);
    expect(quoteMoves('pending')).toContain('approved');
  });
});

describe('order moves', () => {
  it('follows the server table, leaving cancel to its own button', () => {
    const t: StatusTransitions = {
      statuses: ['pending', 'confirmed', 'cancelled'],
      transitions: { pending: { allowed_transitions: ['confirmed', 'cancelled'], is_terminal: false } },
      terminal_statuses: ['cancelled'],
    };
    expect(orderMoves(t, 'pending')).toEqual(['confirmed']);
    expect(orderMoves(t, 'shipped')).toEqual([]);
    expect(orderMoves(undefined, 'pending')).toEqual([]);
  });
});

describe('order note', () => {
  it('trims the note and sends empty details as null', () => {
    const v = { title: '  Called the customer  ', description: '   ' };
    expect(noteSchema.safeParse(v).success).toBe(true);
    expect(noteBody(v)).toEqual({ title: 'Called the customer', description: null });
    expect(noteBody({ title: 'x', description: ' by Friday ' })).toEqual({ title: 'x', description: 'by Friday' });
  });
  it('requires a note of at most 255 characters and details of at most 2000 (the server limits)', () => {
    expect(messages(noteSchema.safeParse({ title: '   ', description: '' }))).toEqual({ title: 'Write the note.' });
    expect(noteSchema.safeParse({ title: 'a'.repeat(255), description: 'b'.repeat(2000) }).success).toBe(true);
    expect(messages(noteSchema.safeParse({ title: 'a'.repeat(256), description: 'b'.repeat(2001) }))).toEqual({
      title: 'Keep the note under 255 characters; put the rest in the details.',
      description: 'Keep the details under 2000 characters.',
    });
  });
});

describe('tracking update', () => {
  const now = () => new Date('2026-11-24T12:00:00Z');
  const schema = trackingSchema(now);
  const good: TrackingForm = { event_type: 'in_transit', event_at: '', location: ' Memphis ', description: '', source: 'manual' };

  it('offers every event type and source of the document, in order', () => {
    expect(SHIPPING_EVENT_TYPES).toEqual(['label_created', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'delivery_attempted', 'exception', 'returned_to_sender']);
    expect(SHIPPING_EVENT_SOURCES).toEqual(['manual', 'carrier']);
  });
  it('builds the body: empty time is now (null), a local time becomes an instant', () => {
    expect(schema.safeParse(good).success).toBe(true);
    expect(trackingBody(good)).toEqual({ event_type: 'in_transit', event_at: null, location: 'Memphis', description: null, source: 'manual' });
    const at = trackingBody({ ...good, event_at: '2026-11-24T09:30' }).event_at;
    expect(at).toBe(new Date(2026, 10, 24, 9, 30).toISOString());
  });
  it('refuses an unknown type, a time in the future, a bad time and long text', () => {
    expect(
      messages(
        schema.safeParse({ event_type: 'lost', event_at: '2026-11-25T09:00', location: 'x'.repeat(256), description: 'y'.repeat(2001), source: 'pigeon' }),
      ),
    ).toEqual({
      event_type: 'Choose what happened.',
      event_at: 'The event cannot be in the future.',
      location: 'Keep the location under 255 characters.',
      description: 'Keep the description under 2000 characters.',
      source: 'Choose who reported it.',
    });
    expect(messages(schema.safeParse({ ...good, event_at: 'yesterday' }))).toEqual({ event_at: 'Enter a date and time.' });
  });
  it('reads only datetime-local values', () => {
    expect(localToIso('2026-11-24T09:30')).toBe(new Date(2026, 10, 24, 9, 30).toISOString());
    expect(localToIso('2026-11-24T09:30:15')).toBe(new Date(2026, 10, 24, 9, 30, 15).toISOString());
    expect(localToIso('2026-11-24')).toBeNull();
    expect(localToIso('2026-13-40T99:99')).toBeNull();
    expect(localToIso('')).toBeNull();
  });
});

describe('quote edit form', () => {
  const quote = {
    id: 4,
    quote_number: 'Q-2026-0004',
    status: 'approved',
    product_name: 'Bracket',
    description: null,
    quantity: 3,
    unit_price: '12.50',
    shipping_cost: '0.00',
    color: 'Red',
    customer_notes: null,
    admin_notes: 'rush',
    shipping_name: null,
    shipping_address_line1: '1 Main St',
    shipping_address_line2: null,
    shipping_city: 'Springfield',
    shipping_state: null,
    shipping_zip: null,
    shipping_country: 'USA',
    shipping_phone: null,
  } as unknown as Quote;

  it('is offered for every status but converted (the server refuses only that)', () => {
    expect(canEditQuote({ status: 'pending' })).toBe(true);
    expect(canEditQuote({ status: 'rejected' })).toBe(true);
    expect(canEditQuote({ status: 'cancelled' })).toBe(true);
    expect(canEditQuote({ status: 'converted' })).toBe(false);
  });
  it('starts from the quote and sends only the fields of its input, empty as null', () => {
    const v = quoteEditValues(quote);
    expect(v).toMatchObject({ product_name: 'Bracket', quantity: '3', unit_price: '12.50', description: '', color: 'Red', shipping_city: 'Springfield' });
    expect(quoteEditSchema.safeParse(v).success).toBe(true);
    expect(quoteEditBody({ ...v, quantity: ' 5 ', color: '  ' })).toEqual({
      product_name: 'Bracket',
      description: null,
      quantity: 5,
      unit_price: '12.50',
      shipping_cost: '0.00',
      color: null,
      customer_notes: null,
      admin_notes: 'rush',
      shipping_name: null,
      shipping_address_line1: '1 Main St',
      shipping_address_line2: null,
      shipping_city: 'Springfield',
      shipping_state: null,
      shipping_zip: null,
      shipping_country: 'USA',
      shipping_phone: null,
    });
  });
  it('refuses a missing name, quantities outside 1..10000, a bad price and long text', () => {
    const v = quoteEditValues(quote);
    expect(messages(quoteEditSchema.safeParse({ ...v, product_name: ' ', quantity: '10001', unit_price: 'abc', color: 'x'.repeat(51) }))).toEqual({
      product_name: 'Enter what is quoted.',
      quantity: 'Enter a whole quantity from 1 to 10000.',
      unit_price: 'Enter a unit price greater than 0, in cents at most.',
      color: 'Keep the color under 50 characters.',
    });
  });
});

describe('order address', () => {
  const order = (status: string, extra: Record<string, unknown> = {}) => ({ status, shipped_at: null, user_id: 7, ...extra }) as unknown as SalesOrder;
  const admin = { id: 1, admin: true };
  const owner = { id: 7, admin: false };
  const other = { id: 8, admin: false };

  it('may be changed by the owner or an admin until the order ships', () => {
    expect(canChangeAddress(order('pending'), admin)).toBe(true);
    expect(canChangeAddress(order('confirmed'), owner)).toBe(true);
    expect(canChangeAddress(order('pending'), other)).toBe(false);
    expect(canChangeAddress(order('pending'), null)).toBe(false);
    for (const s of ['shipped', 'delivered', 'completed', 'cancelled']) expect(canChangeAddress(order(s), admin)).toBe(false);
    expect(canChangeAddress(order('confirmed', { shipped_at: '2026-11-24T10:00:00Z' }), admin)).toBe(false);
  });
  it('needs a street; the rest is optional, trimmed, empty as null', () => {
    const v = addressValues({ shipping_address_line1: '1 Main St', shipping_address_line2: null, shipping_city: 'Springfield', shipping_state: null, shipping_zip: null, shipping_country: 'USA' });
    expect(addressBody({ ...v, shipping_address_line1: ' 2 Elm St ', shipping_zip: ' 62701 ' })).toEqual({
      shipping_address_line1: '2 Elm St',
      shipping_address_line2: null,
      shipping_city: 'Springfield',
      shipping_state: null,
      shipping_zip: '62701',
      shipping_country: 'USA',
    });
    expect(messages(addressSchema.safeParse({ ...v, shipping_address_line1: '  ', shipping_city: 'c'.repeat(256) }))).toEqual({
      shipping_address_line1: 'Enter the street.',
      shipping_city: 'Keep the city under 255 characters.',
    });
  });
});

describe('shipping details', () => {
  it('starts from the order, shipped_at in local time, and sends it as an instant', () => {
    const at = new Date(2026, 10, 24, 9, 30).toISOString();
    const v = shippingDetailsValues({ carrier: 'UPS', tracking_number: null, shipped_at: at });
    expect(v).toEqual({ carrier: 'UPS', tracking_number: '', shipped_at: '2026-11-24T09:30' });
    expect(shippingDetailsSchema.safeParse(v).success).toBe(true);
    expect(shippingDetailsBody({ ...v, tracking_number: ' 1Z9 ' })).toEqual({ carrier: 'UPS', tracking_number: '1Z9', shipped_at: at });
    expect(shippingDetailsBody({ carrier: '', tracking_number: '1Z9', shipped_at: '' })).toEqual({ carrier: null, tracking_number: '1Z9', shipped_at: null });
  });
  it('refuses a bad time and an empty form', () => {
    expect(messages(shippingDetailsSchema.safeParse({ carrier: 'UPS', tracking_number: '', shipped_at: 'soon' }))).toEqual({ shipped_at: 'Enter a date and time.' });
    expect(messages(shippingDetailsSchema.safeParse({ carrier: ' ', tracking_number: '', shipped_at: '' }))).toEqual({
      carrier: 'Enter the carrier, the tracking number or when it shipped.',
    });
  });
  it('reads an instant back as a datetime-local value', () => {
    expect(isoToLocal(null)).toBe('');
    expect(isoToLocal('nonsense')).toBe('');
    expect(isoToLocal(new Date(2026, 0, 2, 3, 4).toISOString())).toBe('2026-01-02T03:04');
  });
});
