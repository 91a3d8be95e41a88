import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { AddressDialog, NoteDialog, PaymentDetailsDialog, TrackingDialog } from './OrderDetailDialogs';
import { PaymentDialog } from './PaymentDialog';
import { ShipDialog } from './ShipDialog';
import type { SalesOrder } from './salesApi';

afterEach(() => vi.unstubAllGlobals());

interface Post {
  path: string;
  key: string | null;
  body: unknown;
}

function stubFetch(answer: (path: string) => unknown) {
  const posts: Post[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (init.method === 'POST') posts.push({ path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(answer(url.pathname)), { status: init.method === 'POST' ? 201 : 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return posts;
}

function wrap(node: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>{node}</ToastProvider>
    </QueryClientProvider>,
  );
}

describe('ship dialog', () => {
  it('asks for a carrier, then posts carrier, service and tracking with an Idempotency-Key', async () => {
    const posts = stubFetch(() => ({ message: 'ok', carrier: 'UPS', service: 'Ground', tracking_number: '1Z', shipped_at: '2026-11-24T00:00:00Z', sales_order_id: 9 }));
    const onClose = vi.fn();
    wrap(<ShipDialog order={{ id: 9, order_number: 'SO-2026-0009' }} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    const carrier = within(dialog).getByLabelText(/Carrier/);
    await user.clear(carrier);
    await user.click(within(dialog).getByRole('button', { name: 'Ship order' }));
    expect(await within(dialog).findByText('Enter the carrier.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.type(carrier, 'UPS');
    const service = within(dialog).getByLabelText(/Service/);
    await user.clear(service);
    await user.type(service, 'Ground');
    await user.type(within(dialog).getByLabelText(/Tracking number/), '1Z');
    await user.click(within(dialog).getByRole('button', { name: 'Ship order' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toHaveLength(1);
    expect(posts[0]?.path).toBe('/api/v1/sales-orders/9/ship');
    expect(posts[0]?.body).toEqual({ carrier: 'UPS', service: 'Ground', tracking_number: '1Z' });
    expect(posts[0]?.key).toMatch(/.{8,}/);
  });
});

describe('payment dialog', () => {
  it('refuses a refund above what was paid, then posts the refund', async () => {
    const posts = stubFetch(() => ({ id: 1, payment_number: 'PAY-2026-0001', order_number: 'SO-2026-0009' }));
    const onClose = vi.fn();
    wrap(<PaymentDialog mode="refund" orderId={9} orderLabel="SO-2026-0009" maxRefund={20} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    const amount = within(dialog).getByLabelText(/Amount/);
    await user.type(amount, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    expect(await within(dialog).findByText('At most 20 can be refunded.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/payments/refund', { sales_order_id: 9, amount: '20', payment_method: 'cash', transaction_id: null, check_number: null, notes: null }],
    ]);
    expect(posts[0]?.key).toBeTruthy();
  });
});

describe('note dialog', () => {
  it('requires a note, shows the server\'s 422 on the field, then posts the trimmed note', async () => {
    const posts: Post[] = [];
    let refuse = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        if (init.method !== 'POST') return new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } });
        posts.push({ path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body: JSON.parse(String(init.body)) });
        if (refuse) {
          refuse = false;
          const body = { error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'title', message: 'Say something useful', type: 'value_error' }] } };
          return new Response(JSON.stringify(body), { status: 422, headers: { 'Content-Type': 'application/json' } });
        }
        return new Response(JSON.stringify({ id: 3, event_type: 'note', title: 'Called', description: null }), { status: 201, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const onClose = vi.fn();
    wrap(<NoteDialog order={{ id: 9, order_number: 'SO-2026-0009' }} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    const note = within(dialog).getByLabelText(/^Note/);
    await user.type(note, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Add note' }));
    expect(await within(dialog).findByText('Write the note.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.clear(note);
    await user.type(note, '  Called the customer ');
    await user.click(within(dialog).getByRole('button', { name: 'Add note' }));
    expect(await within(dialog).findByText('Say something useful')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Add note' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/sales-orders/9/events', { title: 'Called the customer', description: null }],
      ['/api/v1/sales-orders/9/events', { title: 'Called the customer', description: null }],
    ]);
    expect(posts[0]?.key).toBeTruthy();
  });
});

describe('tracking dialog', () => {
  it('offers the event types as a select and posts the update', async () => {
    const posts = stubFetch(() => ({ id: 1, event_type: 'delivered', source: 'carrier' }));
    const onClose = vi.fn();
    wrap(<TrackingDialog order={{ id: 9, order_number: 'SO-2026-0009' }} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    const type = within(dialog).getByRole('combobox', { name: /Event/ });
    expect(within(type).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual([
      'label_created',
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'delivered',
      'delivery_attempted',
      'exception',
      'returned_to_sender',
    ]);
    await user.selectOptions(type, 'delivered');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Reported by/ }), 'carrier');
    await user.type(within(dialog).getByLabelText(/Location/), 'Springfield');
    await user.click(within(dialog).getByRole('button', { name: 'Record update' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/sales-orders/9/shipping-events', { event_type: 'delivered', event_at: null, location: 'Springfield', description: null, source: 'carrier' }],
    ]);
    expect(posts[0]?.key).toBeTruthy();
  });
});

describe('payment details dialog', () => {
  it("shows the server's 400 when the status disagrees with the payments, then saves the overdue flag", async () => {
    const patches: { path: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        if (init.method !== 'PATCH') return new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } });
        const body = JSON.parse(String(init.body)) as { payment_status: string };
        patches.push({ path: url.pathname, body });
        if (body.payment_status === 'paid') {
          const detail = "Payment status follows the order's payments: 0.00 of 43.30 is paid, so it is 'pending', not 'paid'. Record a payment or refund on Payments to change it";
          return new Response(JSON.stringify({ detail }), { status: 400, headers: { 'Content-Type': 'application/json' } });
        }
        return new Response(JSON.stringify({ id: 9, order_number: 'SO-2026-0009', payment_status: 'overdue' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const order = { id: 9, order_number: 'SO-2026-0009', payment_status: 'pending', payment_method: null, payment_transaction_id: 'etsy-1' } as unknown as SalesOrder;
    const onClose = vi.fn();
    wrap(<PaymentDetailsDialog order={order} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByLabelText(/Transaction reference/)).toHaveValue('etsy-1');
    const status = within(dialog).getByRole('combobox', { name: /Payment status/ });
    await user.selectOptions(status, 'paid');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/so it is 'pending', not 'paid'/)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    await user.selectOptions(status, 'overdue');
    await user.type(within(dialog).getByLabelText(/Method/), ' Etsy Payments ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/sales-orders/9/payment', { payment_status: 'paid', payment_method: null, payment_transaction_id: 'etsy-1' }],
      ['/api/v1/sales-orders/9/payment', { payment_status: 'overdue', payment_method: 'Etsy Payments', payment_transaction_id: 'etsy-1' }],
    ]);
  });
});

describe('address dialog', () => {
  it("puts the server's 422 on its field and keeps the dialog open", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
        if (init.method !== 'PATCH') return new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } });
        const body = { error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'shipping_zip', message: 'Text contains hidden characters', type: 'value_error' }] } };
        return new Response(JSON.stringify(body), { status: 422, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const order = { id: 9, order_number: 'SO-2026-0009', shipping_address_line1: '1 Main St', shipping_city: 'Springfield' } as unknown as SalesOrder;
    const onClose = vi.fn();
    wrap(<AddressDialog order={order} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Postal code/), '62701');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await vi.waitFor(() => expect(within(dialog).getByLabelText(/Postal code/)).toHaveAccessibleDescription('Text contains hidden characters'));
    expect(onClose).not.toHaveBeenCalled();
  });
});
