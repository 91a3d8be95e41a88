import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { PoDetailModal } from './PoDetailModal';

afterEach(() => vi.unstubAllGlobals());

const line = (id: number, n: number, sku: string, qty: string, cost: string, unit: string) => ({
  id,
  line_number: n,
  product_id: id * 10,
  product_sku: sku,
  product_name: `${sku} name`,
  product_unit: 'G',
  quantity_ordered: qty,
  quantity_received: '0.0000',
  quantity_remaining: qty,
  unit_cost: cost,
  purchase_unit: unit,
  line_total: '40.00',
  notes: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
});

const PO = {
  id: 7,
  po_number: 'PO-2026-007',
  vendor_id: 3,
  vendor_name: 'Filament Supply',
  status: 'draft',
  order_date: null,
  expected_date: '2026-12-01',
  shipped_date: null,
  received_date: null,
  tracking_number: null,
  carrier: null,
  subtotal: '55.00',
  tax_amount: '0.00',
  shipping_cost: '0.00',
  total_amount: '55.00',
  payment_method: null,
  payment_reference: null,
  document_url: null,
  notes: null,
  created_by: 1,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  lines: [line(11, 1, 'PLA', '2.0000', '20.0000', 'KG'), line(12, 2, 'NUT', '10.0000', '1.5000', 'EA')],
};

interface Call {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status: number; body: unknown } | undefined;

/** The order's reads answered; writes recorded and answered by `write` (200 with {} by default). */
function stubFetch(po: typeof PO, write: (c: Call, n: number) => Answer = () => undefined) {
  const writes: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (method === 'GET') {
        if (url.pathname === '/api/v1/purchase-orders/7') return json(po);
        if (url.pathname === '/api/v1/vendors/')
          return json({
            items: [
              { id: 3, code: 'VND-003', name: 'Filament Supply' },
              { id: 4, code: 'VND-004', name: 'Bolt Depot' },
            ],
            pagination: { total: 2, offset: 0, limit: 500, returned: 2 },
          });
        if (url.pathname === '/api/v1/items') return json({ items: [{ id: 31, sku: 'GLUE', name: 'Glue' }], total: 1 });
        return json([]);
      }
      const call = { method, path: url.pathname.replace('/api/v1', ''), body: init.body ? JSON.parse(String(init.body)) : undefined };
      writes.push(call);
      const a = write(call, writes.length);
      return json(a?.body ?? { ...PO.lines[0], product_sku: 'GLUE' }, a?.status ?? 200);
    }),
  );
  return writes;
}

function open() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <PoDetailModal poId={7} onClose={() => undefined} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const detail = () => screen.findByRole('dialog', { name: 'Purchase order PO-2026-007' });

describe('editing a draft purchase order', () => {
  it("changes the header: vendor, expected date, shipping and notes; a set date cannot go blank", async () => {
    const writes = stubFetch(PO, () => ({ status: 200, body: PO }));
    const user = open();
    await user.click(await within(await detail()).findByRole('button', { name: 'Edit details' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit PO-2026-007' });
    await within(dialog).findByRole('option', { name: 'VND-004 · Bolt Depot' });
    await user.selectOptions(within(dialog).getByLabelText('Vendor'), '4');
    const expected = within(dialog).getByLabelText('Expected date');
    await user.clear(expected);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('An expected date can be changed but not removed.')).toBeInTheDocument();
    expect(writes).toEqual([]);

    await user.type(expected, '2026-12-24');
    const shipping = within(dialog).getByLabelText('Shipping cost');
    await user.clear(shipping);
    await user.type(shipping, '5.50');
    await user.type(within(dialog).getByLabelText('Notes'), 'Rush');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await detail();
    expect(writes).toEqual([{ method: 'PUT', path: '/purchase-orders/7', body: { vendor_id: 4, expected_date: '2026-12-24', shipping_cost: '5.50', tax_amount: '0', notes: 'Rush' } }]);
  });

  it('adds a line, with a 422 on its field first', async () => {
    const writes = stubFetch(PO, (_c, n) =>
      n === 1
        ? { status: 422, body: { error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'quantity_ordered', message: 'The quantity is too large' }] } } }
        : undefined,
    );
    const user = open();
    await user.click(await within(await detail()).findByRole('button', { name: 'Add line' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a line to PO-2026-007' });
    await within(dialog).findByRole('option', { name: 'GLUE · Glue' });
    await user.click(within(dialog).getByRole('button', { name: 'Add line' }));
    expect(await within(dialog).findByText('Choose an item.')).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText('Item'), '31');
    const qty = within(dialog).getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '99999999999');
    const cost = within(dialog).getByLabelText('Unit cost');
    await user.clear(cost);
    await user.type(cost, '2.5');
    await user.click(within(dialog).getByRole('button', { name: 'Add line' }));
    expect(await within(dialog).findByText('The quantity is too large')).toBeInTheDocument();
    expect(qty).toHaveAttribute('aria-invalid', 'true');

    await user.clear(qty);
    await user.type(qty, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Add line' }));
    await detail();
    expect(writes.map((w) => w.body)).toEqual([
      { product_id: 31, quantity_ordered: '99999999999', unit_cost: '2.5', purchase_unit: null, notes: '' },
      { product_id: 31, quantity_ordered: '3', unit_cost: '2.5', purchase_unit: null, notes: '' },
    ]);
    expect(writes[1]?.path).toBe('/purchase-orders/7/lines');
  });

  it("changes a line's quantity and cost, and removes one only once confirmed", async () => {
    const writes = stubFetch(PO);
    const user = open();
    await user.click(await within(await detail()).findByRole('button', { name: 'Edit line 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit line 1 of PO-2026-007' });
    const qty = within(dialog).getByLabelText('Quantity');
    expect(qty).toHaveValue('2');
    expect(within(dialog).getByLabelText('Unit')).toHaveValue('KG');
    await user.clear(qty);
    await user.type(qty, '5');
    const cost = within(dialog).getByLabelText('Unit cost');
    await user.clear(cost);
    await user.type(cost, '19.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save line' }));

    await user.click(await within(await detail()).findByRole('button', { name: 'Remove line 2' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove line 2?' });
    expect(confirm).toHaveTextContent('NUT · NUT name is removed from PO-2026-007.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(writes).toHaveLength(1);
    await user.click(within(await detail()).getByRole('button', { name: 'Remove line 2' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove line' }));
    await vi.waitFor(() => expect(writes).toHaveLength(2));
    expect(writes).toEqual([
      { method: 'PUT', path: '/purchase-orders/7/lines/11', body: { quantity_ordered: '5', unit_cost: '19.5', purchase_unit: 'KG', notes: '' } },
      { method: 'DELETE', path: '/purchase-orders/7/lines/12', body: undefined },
    ]);
  });

  it("shows the server's 400 when the order is no longer a draft", async () => {
    stubFetch(PO, () => ({ status: 400, body: { error: 'BAD_REQUEST', message: "Cannot modify lines on PO in 'ordered' status" } }));
    const user = open();
    await user.click(await within(await detail()).findByRole('button', { name: 'Edit line 2' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit line 2 of PO-2026-007' });
    await user.click(within(dialog).getByRole('button', { name: 'Save line' }));
    expect(await within(dialog).findByText("Cannot modify lines on PO in 'ordered' status")).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await detail()).getByRole('button', { name: 'Remove line 1' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove line' }));
    expect(await within(await detail()).findByText("Cannot modify lines on PO in 'ordered' status")).toBeInTheDocument();
  });

  it('offers no editing once the order is placed', async () => {
    stubFetch({ ...PO, status: 'ordered' });
    open();
    const dialog = await detail();
    await within(dialog).findByRole('button', { name: 'Receive' });
    for (const name of ['Edit details', 'Add line', 'Edit line 1', 'Remove line 1']) expect(within(dialog).queryByRole('button', { name })).toBeNull();
  });
});
