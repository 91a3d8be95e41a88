import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };
const operator = { id: 7, email: 'otto@example.com', full_name: 'Otto Operator', account_type: 'operator', status: 'active' };

type Order = Record<string, unknown>;

const salesOrder = (status: string, extra: Order = {}): Order => ({
  id: 9,
  order_number: 'SO-2026-0009',
  user_id: 7,
  customer_name: 'Olive Cash',
  status,
  fulfillment_state: status === 'shipped' ? 'shipped' : 'blocked',
  payment_status: 'pending',
  source: 'manual',
  rush_level: 'standard',
  created_at: '2026-11-24T12:00:00Z',
  due_date: null,
  subtotal: '37.50',
  shipping_cost: '0.00',
  tax_amount: '0.00',
  grand_total: '37.50',
  fulfillment: { lines_ready: 0, lines_total: 1 },
  fulfillment_percent: 0,
  lines: [],
  shipping_address_line1: '12 Harbor Rd',
  shipping_address_line2: null,
  shipping_city: 'Portland',
  shipping_state: 'ME',
  shipping_zip: '04101',
  shipping_country: 'USA',
  carrier: null,
  tracking_number: null,
  shipped_at: null,
  is_cancellable: status === 'pending',
  payment_method: null,
  payment_transaction_id: null,
  ...extra,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Patch {
  path: string;
  key: string | null;
  body: Record<string, unknown>;
}

/** A route a test adds (`POST /api/v1/…`); it answers, or undefined to fall through. */
type Extra = (method: string, path: string, p: Patch, order: Order) => Response | undefined;

/** The order's page routes; PATCHes go to `patch`, which may change the order or refuse; `extra` answers first. */
function serve(user: typeof admin, start: Order, patch: (p: Patch, order: Order) => Response, extra?: Extra) {
  let order = start;
  const patches: Patch[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      if (extra) {
        const p = { path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body: (init.body ? JSON.parse(String(init.body)) : {}) as Record<string, unknown> };
        const res = extra(method, url.pathname, p, order);
        if (res) {
          if (method !== 'GET') patches.push(p);
          if (method !== 'GET' && res.ok) order = (await res.clone().json()) as Order;
          return res;
        }
      }
      if (init.method === 'PATCH') {
        const p = { path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body: JSON.parse(String(init.body)) as Record<string, unknown> };
        patches.push(p);
        const res = patch(p, order);
        if (res.ok) order = (await res.clone().json()) as Order;
        return res;
      }
      switch (url.pathname) {
        case '/api/v1/auth/me':
          return json(200, user);
        case '/api/v1/sales-orders/9':
          return json(200, order);
        case '/api/v1/sales-orders/status-transitions':
          return json(200, { statuses: [], transitions: {}, terminal_statuses: [] });
        case '/api/v1/sales-orders/9/required-orders':
          return json(200, { production_orders: [] });
        case '/api/v1/sales-orders/9/blocking-issues':
          return json(200, {
            can_ship: false,
            blocking_issues: ['Line 1 is not reserved'],
            status_summary: { can_fulfill: false, blocking_count: 1, estimated_ready_date: '2026-12-20', days_until_ready: 4 },
            line_issues: [],
            order_issues: [],
            resolution_actions: [{ priority: 1, action: 'Complete WO-2026-0003', impact: '2 still to make', reference_type: 'production_order', reference_id: 3 }],
          });
        case '/api/v1/sales-orders/9/material-requirements':
          return json(200, { requirements: [] });
        case '/api/v1/sales-orders/9/events':
        case '/api/v1/sales-orders/9/shipping-events':
          return json(200, []);
        case '/api/v1/payments':
        case '/api/v1/shipments/':
          return json(200, { items: [], total: 0 });
        case '/api/v1/invoices':
        case '/api/v1/notifications':
          return json(200, []);
        case '/api/v1/notifications/unread-count':
          return json(200, { unread_count: 0 });
        case '/api/v1/payments/order/9/summary':
          return json(200, { total_paid: '0', total_refunded: '0', balance_due: '37.50' });
        default:
          return json(404, { detail: 'Not Found' });
      }
    }),
  );
  return patches;
}

function renderOrder(user: typeof admin) {
  localStorage.setItem('adminUser', JSON.stringify(user));
  return render(
    <MemoryRouter initialEntries={['/admin/orders/9']}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('order page: change address', () => {
  it("starts from the order's address, shows the server's 400 in the form, then saves and shows the new address", async () => {
    let refuse = true;
    const patches = serve(admin, salesOrder('confirmed'), (p, order) => {
      if (refuse) {
        refuse = false;
        return json(400, { detail: 'Cannot change the address of a shipped order' });
      }
      return json(200, { ...order, ...Object.fromEntries(Object.entries(p.body).filter(([, v]) => v !== null)) });
    });
    renderOrder(admin);
    const user = userEvent.setup();
    expect(await screen.findByTestId('ship-to')).toHaveTextContent('12 Harbor Rd');

    await user.click(screen.getByRole('button', { name: 'Change address' }));
    const dialog = screen.getByRole('dialog', { name: 'Change address · SO-2026-0009' });
    const street = within(dialog).getByLabelText(/^Street/);
    expect(street).toHaveValue('12 Harbor Rd');
    expect(within(dialog).getByLabelText(/Postal code/)).toHaveValue('04101');
    await user.clear(street);
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await within(dialog).findByText('Enter the street.')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user.type(street, ' 3 Pier St ');
    const city = within(dialog).getByLabelText(/City/);
    await user.clear(city);
    await user.type(city, 'Bath');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await within(dialog).findByText('Cannot change the address of a shipped order')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('Address changed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByTestId('ship-to')).toHaveTextContent(/3 Pier St.*Bath ME 04101/s));
    expect(patches.map((p) => [p.path, p.body])).toEqual(
      Array(2).fill([
        '/api/v1/sales-orders/9/address',
        { shipping_address_line1: '3 Pier St', shipping_address_line2: null, shipping_city: 'Bath', shipping_state: 'ME', shipping_zip: '04101', shipping_country: 'USA' },
      ]),
    );
    expect(patches[0]?.key).toBeTruthy();
  });

  it("is offered to the order's owner, but not shipping details (admins only)", async () => {
    serve(operator, salesOrder('pending'), () => json(500, {}));
    renderOrder(operator);
    expect(await screen.findByRole('button', { name: 'Change address' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Shipping details' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invoices' })).not.toBeInTheDocument();
  });

  it('is hidden once the order has shipped', async () => {
    serve(admin, salesOrder('shipped', { carrier: 'UPS', tracking_number: '1Z1', shipped_at: '2026-11-25T15:00:00Z' }), () => json(500, {}));
    renderOrder(admin);
    expect(await screen.findByTestId('ship-to')).toHaveTextContent('12 Harbor Rd');
    expect(screen.queryByRole('button', { name: 'Change address' })).not.toBeInTheDocument();
  });
});

describe('order page: ready to ship?', () => {
  it('lists what blocks the order, when it should be ready and the next steps, linked to where they are done', async () => {
    serve(admin, salesOrder('confirmed'), () => json(500, {}));
    renderOrder(admin);
    expect(await screen.findByTestId('ship-readiness')).toHaveTextContent('Line 1 is not reserved');
    expect(screen.getByTestId('estimated-ready')).toHaveTextContent('2026-12-20 (in 4 days)');
    const steps = screen.getByRole('list', { name: 'Next steps' });
    const link = within(steps).getByRole('link', { name: 'Complete WO-2026-0003' });
    expect(link).toHaveAttribute('href', '/admin/production/3');
    expect(steps).toHaveTextContent('2 still to make');
  });
});

describe('order page: shipping details', () => {
  it('lets an admin record the carrier, tracking number and ship date of an order', async () => {
    const patches = serve(admin, salesOrder('shipped', { carrier: 'UPS', tracking_number: null, shipped_at: null }), (p, order) =>
      json(200, { ...order, ...Object.fromEntries(Object.entries(p.body).filter(([, v]) => v !== null)) }),
    );
    renderOrder(admin);
    const user = userEvent.setup();
    expect(await screen.findByTestId('shipping-details')).toHaveTextContent('UPS');

    await user.click(screen.getByRole('button', { name: 'Shipping details' }));
    const dialog = screen.getByRole('dialog', { name: 'Shipping details · SO-2026-0009' });
    expect(within(dialog).getByLabelText(/Carrier/)).toHaveValue('UPS');
    await user.type(within(dialog).getByLabelText(/Tracking number/), '1Z999');
    await user.type(within(dialog).getByLabelText(/Shipped at/), '2026-11-24T09:30');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Shipping details saved')).toBeInTheDocument();
    const at = new Date(2026, 10, 24, 9, 30).toISOString();
    expect(patches.map((p) => [p.path, p.body])).toEqual([['/api/v1/sales-orders/9/shipping', { carrier: 'UPS', tracking_number: '1Z999', shipped_at: at }]]);
    await vi.waitFor(() => expect(screen.getByTestId('shipping-details')).toHaveTextContent(/UPS · tracking 1Z999 · shipped/));
  });

  it('is not offered on a cancelled order (the server refuses it)', async () => {
    serve(admin, salesOrder('cancelled'), () => json(500, {}));
    renderOrder(admin);
    await screen.findByTestId('ship-to');
    expect(screen.queryByRole('button', { name: 'Shipping details' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change address' })).not.toBeInTheDocument();
  });
});

describe('order page: invoices', () => {
  it('shows an admin the invoices card with "Create invoice" once the order is confirmed', async () => {
    serve(admin, salesOrder('confirmed'), () => json(500, {}));
    renderOrder(admin);
    expect(await screen.findByRole('heading', { name: 'Invoices' })).toBeInTheDocument();
    expect(await screen.findByText(/Not invoiced yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create invoice' })).toBeInTheDocument();
  });
});

describe('order page: messages', () => {
  it("lists the order's conversations for an operator too, and marks messages in the history", async () => {
    const thread = {
      thread_id: '6f1c8f0e-1111-4a51-9d2b-000000000001',
      thread_subject: 'Where is my order?',
      sales_order_id: 9,
      order_number: 'SO-2026-0009',
      customer_name: 'Olive Cash',
      message_count: 2,
      unread_count: 1,
      last_message_at: '2026-11-25T12:00:00Z',
      last_message_preview: 'Any news?',
      last_sender_name: 'Olive Cash',
      awaiting_reply: true,
    };
    const event = { id: 5, event_type: 'message', title: 'Message from Olive Cash: Where is my order?', description: 'Any news?', created_at: '2026-11-25T12:00:00Z' };
    serve(operator, salesOrder('confirmed'), () => json(500, {}), (method, path) => {
      if (method !== 'GET') return undefined;
      if (path === '/api/v1/sales-orders/9/events') return json(200, { items: [event] });
      if (path !== '/api/v1/notifications') return undefined;
      return json(200, [thread]);
    });
    renderOrder(operator);
    expect(await screen.findByRole('heading', { name: 'Messages' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Conversations about the order' });
    expect(within(list).getByRole('link', { name: 'Where is my order?' })).toHaveAttribute('href', `/admin/messages?thread=${thread.thread_id}`);
    expect(within(list).getByText('1 unread')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Message customer' })).toBeInTheDocument();
    const history = await screen.findByRole('list', { name: 'Order history' });
    expect(within(history).getByText('Message')).toHaveClass('badge');
  });
});

const line = (extra: Order = {}): Order => ({
  id: 31,
  line_number: 1,
  product_id: 4,
  product_sku: 'PLA-BLK',
  product_name: 'Black widget',
  quantity: 5,
  unit_price: '7.50',
  total: '37.50',
  discount: '0.00',
  quantity_allocated: '2',
  quantity_shipped: '0',
  shipped_quantity: '0',
  is_ready: false,
  location_id: null,
  notes: null,
  ...extra,
});

describe('order page: edit and remove lines', () => {
  it("shows a line priced by the customer's price level with its struck-through list price", async () => {
    serve(operator, salesOrder('confirmed', { lines: [line({ unit_price: '8.50', list_price: '10.00', price_level_name: 'Wholesale' })] }), () => json(500, {}));
    renderOrder(operator);
    const level = await screen.findByText(/Wholesale/);
    expect(level).toHaveTextContent('(list $10.00, Wholesale)');
    expect(within(level).getByText('$10.00').tagName).toBe('S');
    expect(level.closest('td')).toHaveTextContent('$8.50');
  });

  it('edits a line: the reason is required, a refusal lands on its field, and only what changed is sent', async () => {
    let refuse = true;
    const patches = serve(admin, salesOrder('confirmed', { lines: [line()] }), (_p, order) => {
      if (refuse) {
        refuse = false;
        return json(422, { detail: 'Validation failed', details: { errors: [{ field: 'lines.0.newQuantity', message: 'Cannot go below the 4 already made' }] } });
      }
      return json(200, { ...order, subtotal: '22.50', grand_total: '22.50', lines: [line({ quantity: 3, total: '22.50' })] });
    });
    renderOrder(admin);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit line 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit line 1 · SO-2026-0009' });
    const quantity = within(dialog).getByLabelText(/^Quantity/);
    expect(quantity).toHaveValue('5');
    expect(within(dialog).getByLabelText(/^Unit price/)).toHaveValue('7.50');
    await user.clear(quantity);
    await user.type(quantity, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save line' }));
    expect(await within(dialog).findByText('Say why the line changes.')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Reason/), ' Customer asked for fewer ');
    await user.click(within(dialog).getByRole('button', { name: 'Save line' }));
    expect(await within(dialog).findByText('Cannot go below the 4 already made')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save line' }));
    expect(await screen.findByText('Line changed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(patches.map((p) => [p.path, p.body])).toEqual(
      Array(2).fill(['/api/v1/sales-orders/9/lines', { lines: [{ line_id: 31, new_quantity: 3, reason: 'Customer asked for fewer' }] }]),
    );
    expect(patches[0]?.key).toBeTruthy();
    await vi.waitFor(() => expect(screen.getByRole('table', { name: 'Lines' })).toHaveTextContent('$22.50'));
  });

  it('adds a line: an item and a reason are required, a blank price is not sent, the order comes back with it', async () => {
    const posts = serve(admin, salesOrder('confirmed', { lines: [line()] }), () => json(500, {}), (method, path, _p, order) => {
      if (method === 'GET' && path === '/api/v1/items')
        return json(200, { items: [{ id: 44, sku: 'PETG-RED', name: 'Red hook' }], total: 1 });
      if (method === 'POST' && path === '/api/v1/sales-orders/9/lines')
        return json(201, {
          ...order,
          subtotal: '45.50',
          grand_total: '45.50',
          lines: [line(), line({ id: 32, line_number: 2, product_id: 44, product_sku: 'PETG-RED', product_name: 'Red hook', quantity: 2, unit_price: '4.00', total: '8.00' })],
        });
      return undefined;
    });
    renderOrder(admin);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add line' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a line · SO-2026-0009' });
    await user.click(within(dialog).getByRole('button', { name: 'Add line' }));
    expect(await within(dialog).findByText('Choose an item.')).toBeInTheDocument();
    expect(await within(dialog).findByText('Say why the line is added.')).toBeInTheDocument();
    await within(dialog).findByRole('option', { name: 'PETG-RED · Red hook' });
    await user.selectOptions(within(dialog).getByLabelText(/^Item/), '44');
    const quantity = within(dialog).getByLabelText(/^Quantity/);
    await user.clear(quantity);
    await user.type(quantity, '2');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Customer called');
    await user.click(within(dialog).getByRole('button', { name: 'Add line' }));
    expect(await screen.findByText('Line added')).toBeInTheDocument();
    expect(posts.map((p) => [p.path, p.body])).toEqual([['/api/v1/sales-orders/9/lines', { product_id: 44, quantity: 2, reason: 'Customer called' }]]);
    expect(posts[0]?.key).toBeTruthy();
    await vi.waitFor(() => expect(screen.getByRole('table', { name: 'Lines' })).toHaveTextContent('Red hook'));
  });

  it("asks before removing a line and shows the server's refusal in the dialog", async () => {
    const patches = serve(admin, salesOrder('pending', { lines: [line()] }), () => json(500, {}), (method, path) =>
      method === 'DELETE' && path === '/api/v1/sales-orders/9/lines/31' ? json(400, { detail: 'Cannot remove the last line from an order. Cancel the order instead.' }) : undefined,
    );
    renderOrder(admin);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove line 1' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove line 1?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove line' }));
    expect(await within(dialog).findByText('Cannot remove the last line from an order. Cancel the order instead.')).toBeInTheDocument();
    expect(patches.map((p) => p.path)).toEqual(['/api/v1/sales-orders/9/lines/31']);
  });

  it('is not offered once the order is ready to ship, nor to operators', async () => {
    serve(admin, salesOrder('ready_to_ship', { lines: [line()] }), () => json(500, {}));
    const { unmount } = renderOrder(admin);
    expect(await screen.findByRole('button', { name: 'Close short' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit line 1' })).not.toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    localStorage.clear();

    serve(operator, salesOrder('confirmed', { lines: [line()] }), () => json(500, {}));
    renderOrder(operator);
    expect(await screen.findByText('PLA-BLK')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit line 1' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close short' })).not.toBeInTheDocument();
  });
});

const preview = (extra: Order = {}): Order => ({
  sales_order_id: 9,
  order_number: 'SO-2026-0009',
  status: 'in_production',
  can_close: true,
  blocking_reason: null,
  lines: [
    { line_id: 31, product_id: 4, product_sku: 'PLA-BLK', product_name: 'Black widget', ordered_qty: '5', shipped_qty: '0', reserved_qty: '2', achievable_qty: '2', will_adjust: true, reason: '3 not made' },
    { line_id: 32, product_id: 5, product_sku: 'PLA-RED', product_name: 'Red widget', ordered_qty: '1', shipped_qty: '0', reserved_qty: '1', achievable_qty: '1', will_adjust: false, reason: 'Fully reserved' },
  ],
  production_orders: [{ id: 3, po_number: 'WO-2026-0003', status: 'in_progress', ordered: '5', completed: '2', action: 'cancel' }],
  all_pos_resolved: false,
  unresolved_pos: ['WO-2026-0003'],
  new_subtotal: '22.50',
  new_grand_total: '22.50',
  invoiced: '7.50',
  ...extra,
});

describe('order page: close short', () => {
  it('shows what each line will ship, the production orders cancelled and the new total, then posts the reason', async () => {
    const patches = serve(admin, salesOrder('in_production', { lines: [line()] }), () => json(500, {}), (method, path, _p, order) => {
      if (method === 'GET' && path === '/api/v1/sales-orders/9/close-short-preview') return json(200, preview());
      if (method === 'POST' && path === '/api/v1/sales-orders/9/close-short') return json(200, { ...order, status: 'ready_to_ship', grand_total: '22.50' });
      return undefined;
    });
    renderOrder(admin);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Close short' }));
    const dialog = screen.getByRole('dialog', { name: 'Close short · SO-2026-0009' });
    const lines = await within(dialog).findByRole('table', { name: 'Lines after closing short' });
    const rows = within(lines).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/PLA-BLK.*5.*0.*2.*2.*3 not made/);
    expect(rows[1]).toHaveClass('so-shrinks');
    expect(rows[2]).not.toHaveClass('so-shrinks');
    expect(within(dialog).getByRole('table', { name: 'Production orders cancelled' })).toHaveTextContent(/WO-2026-0003.*2\/5.*Cancel/);
    expect(within(dialog).getByTestId('close-short-total')).toHaveTextContent('$22.50');
    expect(within(dialog).getByLabelText('After closing short')).toHaveTextContent(/Invoiced\s*\$7\.50/);

    await user.click(within(dialog).getByRole('button', { name: 'Close short' }));
    expect(await within(dialog).findByText('Say why the order closes short.')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Reason/), 'Customer takes what is ready');
    await user.click(within(dialog).getByRole('button', { name: 'Close short' }));
    expect(await screen.findByText('Closed short')).toBeInTheDocument();
    expect(patches.map((p) => [p.path, p.body])).toEqual([['/api/v1/sales-orders/9/close-short', { reason: 'Customer takes what is ready' }]]);
    expect(patches[0]?.key).toBeTruthy();
  });

  it('says why it cannot close and keeps the submit disabled', async () => {
    serve(admin, salesOrder('confirmed', { lines: [line()] }), () => json(500, {}), (method, path) =>
      method === 'GET' && path === '/api/v1/sales-orders/9/close-short-preview'
        ? json(200, preview({ can_close: false, blocking_reason: 'Nothing is short: every line can ship in full.' }))
        : undefined,
    );
    renderOrder(admin);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Close short' }));
    const dialog = screen.getByRole('dialog', { name: 'Close short · SO-2026-0009' });
    expect(await within(dialog).findByTestId('close-short-blocked')).toHaveTextContent('Nothing is short: every line can ship in full.');
    expect(within(dialog).getByRole('button', { name: 'Close short' })).toBeDisabled();
  });
});
