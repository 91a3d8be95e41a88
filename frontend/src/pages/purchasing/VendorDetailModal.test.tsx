import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { VendorDetailModal } from './VendorDetailModal';

afterEach(() => vi.unstubAllGlobals());

const VENDOR = {
  id: 3,
  code: 'VND-003',
  name: 'Filament Supply',
  contact_name: 'Jo',
  email: 'sales@filament.example',
  phone: null,
  website: null,
  address: null,
  address_line1: null,
  address_line2: null,
  city: null,
  state: null,
  postal_code: null,
  country: null,
  payment_terms: 'Net 30',
  account_number: null,
  tax_id: null,
  lead_time_days: 5,
  rating: 4,
  notes: null,
  is_active: true,
  po_count: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

const entry = (itemId: number, sku: string, overrides: Record<string, unknown> = {}) => ({
  id: itemId * 10,
  vendor_id: 3,
  item_id: itemId,
  item_sku: sku,
  item_name: `${sku} name`,
  vendor_sku: null,
  last_price: '20.0000',
  purchase_unit: 'KG',
  lead_time_days: 7,
  is_preferred: false,
  last_ordered_at: null,
  ...overrides,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The vendor's reads answered; writes recorded and answered by `write` (200 with the first entry by default). */
function stubFetch(entries: unknown[], write: (c: Call, n: number) => Response | undefined = () => undefined) {
  const writes: Call[] = [];
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      if (method === 'GET') {
        if (url.pathname === '/api/v1/vendors/3') return json(VENDOR);
        if (url.pathname === '/api/v1/vendors/3/items') return json(entries);
        if (url.pathname === '/api/v1/vendors/3/metrics')
          return json({ vendor_id: 3, total_pos: 1, placed_pos: 1, received_pos: 1, total_spend: '55.00', avg_lead_time_days: null, on_time_rate: null, last_order_date: null });
        if (url.pathname === '/api/v1/items')
          return json({
            items: [
              { id: 31, sku: 'PLA', name: 'PLA name' },
              { id: 32, sku: 'NUT', name: 'Nut' },
            ],
            total: 2,
          });
        return json({ detail: 'Not Found' }, 404);
      }
      const call = { method, path: url.pathname.replace('/api/v1', ''), body: init.body ? JSON.parse(String(init.body)) : undefined };
      writes.push(call);
      return write(call, writes.length) ?? json(entry(31, 'PLA'));
    }),
  );
  return writes;
}

function open() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <VendorDetailModal vendorId={3} onClose={() => undefined} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const detail = () => screen.findByRole('dialog', { name: 'VND-003 · Filament Supply' });

describe("a vendor's price list", () => {
  it('shows an empty list and adds an item, with a 422 on its field first', async () => {
    const writes = stubFetch([], (_c, n) =>
      n === 1
        ? new Response(
            JSON.stringify({ error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'purchase_unit', message: "Unknown unit of measure 'ROLL'" }] } }),
            { status: 422, headers: { 'Content-Type': 'application/json' } },
          )
        : new Response(JSON.stringify(entry(32, 'NUT')), { status: 201, headers: { 'Content-Type': 'application/json' } }),
    );
    const user = open();
    const modal = await detail();
    expect(await within(modal).findByText(/No items yet/)).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Add item' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to the price list' });
    await within(dialog).findByRole('option', { name: 'NUT · Nut' });
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    expect(await within(dialog).findByText('Choose an item.')).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText(/^Item/), '32');
    await user.type(within(dialog).getByLabelText('Vendor SKU'), 'B-12');
    await user.type(within(dialog).getByLabelText('Price'), '0.15');
    const unit = within(dialog).getByLabelText('Unit');
    await user.selectOptions(unit, 'ROLL');
    await user.click(within(dialog).getByLabelText('Preferred vendor for this item'));
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    expect(await within(dialog).findByText("Unknown unit of measure 'ROLL'")).toBeInTheDocument();
    expect(unit).toHaveAttribute('aria-invalid', 'true');

    await user.selectOptions(unit, 'PK');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    expect(await screen.findByText('Item added')).toBeInTheDocument();
    await detail();
    expect(writes.map((w) => [w.method, w.path])).toEqual([
      ['POST', '/vendors/3/items'],
      ['POST', '/vendors/3/items'],
    ]);
    expect(writes[1]?.body).toEqual({ product_id: 32, vendor_sku: 'B-12', unit_cost: '0.15', purchase_unit: 'PK', lead_time_days: null, is_preferred: true });
  });

  it("changes an entry by its item's id, does not offer an item already listed, and shows a refusal in the dialog", async () => {
    const writes = stubFetch([entry(31, 'PLA', { vendor_sku: 'F-PLA' })], (_c, n) =>
      n === 1 ? new Response(JSON.stringify({ detail: 'Vendor item not found' }), { status: 404, headers: { 'Content-Type': 'application/json' } }) : undefined,
    );
    const user = open();
    const modal = await detail();
    const table = await within(modal).findByRole('table', { name: 'Price list' });
    expect(within(table).getByText('$20.00')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Edit PLA' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit PLA on the price list' });
    expect(within(dialog).queryByLabelText(/^Item/)).toBeNull();
    const price = within(dialog).getByLabelText('Price');
    expect(price).toHaveValue('20');
    await user.clear(price);
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await within(dialog).findByText('The price can be changed but not removed.')).toBeInTheDocument();
    expect(writes).toEqual([]);

    await user.type(price, '18.75');
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await within(dialog).findByText('Vendor item not found')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await screen.findByText('Price saved')).toBeInTheDocument();
    expect(writes.at(-1)).toEqual({
      method: 'PUT',
      path: '/vendors/3/items/31',
      body: { vendor_sku: 'F-PLA', unit_cost: '18.75', purchase_unit: 'KG', lead_time_days: 7, is_preferred: false },
    });

    await user.click(within(await detail()).getByRole('button', { name: 'Add item' }));
    const add = screen.getByRole('dialog', { name: 'Add to the price list' });
    await within(add).findByRole('option', { name: 'NUT · Nut' });
    expect(within(add).queryByRole('option', { name: 'PLA · PLA name' })).toBeNull();
  });

  it('marks the preferred vendor, and removes an item only once confirmed', async () => {
    const writes = stubFetch([entry(31, 'PLA'), entry(32, 'NUT', { is_preferred: true })], (c) =>
      c.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    const user = open();
    const table = await within(await detail()).findByRole('table', { name: 'Price list' });
    const nutRow = within(table).getByRole('row', { name: /NUT name/ });
    expect(within(nutRow).getByText('Preferred')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Make preferred for NUT' })).toBeNull();
    await user.click(within(table).getByRole('button', { name: 'Make preferred for PLA' }));
    expect(await screen.findByText('Preferred vendor set')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Remove NUT' }));
    let confirm = screen.getByRole('alertdialog', { name: 'Remove NUT?' });
    expect(confirm).toHaveTextContent("NUT · NUT name comes off Filament Supply's price list, and the item has no preferred vendor");
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(writes).toHaveLength(1);
    await user.click(within(table).getByRole('button', { name: 'Remove NUT' }));
    confirm = screen.getByRole('alertdialog', { name: 'Remove NUT?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove item' }));
    expect(await screen.findByText('Item removed')).toBeInTheDocument();
    expect(writes).toEqual([
      { method: 'PUT', path: '/vendors/3/items/31', body: { is_preferred: true } },
      { method: 'DELETE', path: '/vendors/3/items/32', body: undefined },
    ]);
  });
});
