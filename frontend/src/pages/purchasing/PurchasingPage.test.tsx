import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

function vendor(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    code: `VND-${String(id).padStart(3, '0')}`,
    name: `Vendor ${String(id).padStart(2, '0')}`,
    contact_name: null,
    email: null,
    phone: '555-0100',
    website: null,
    address: null,
    address_line1: null,
    address_line2: null,
    city: null,
    state: null,
    postal_code: null,
    country: null,
    payment_terms: null,
    account_number: null,
    tax_id: null,
    lead_time_days: null,
    rating: null,
    notes: null,
    is_active: true,
    po_count: id === 2 ? 2 : 0,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Write {
  method: string;
  path: string;
  body: unknown;
}

/**
 * An in-memory /vendors/ route (40 vendors, paged and sorted by sort_by/sort_order); every
 * request is recorded in `lists`, writes in `writes` and answered by `write`.
 */
function serveVendors(write: (w: Write, n: number) => Response = () => json(200, {})) {
  const all = Array.from({ length: 40 }, (_, i) => vendor(i + 1));
  const lists: URL[] = [];
  const writes: Write[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      if (method !== 'GET') {
        const w = { method, path: url.pathname.replace('/api/v1', ''), body: init.body ? JSON.parse(String(init.body)) : undefined };
        writes.push(w);
        return write(w, writes.length);
      }
      if (url.pathname === '/api/v1/vendors/') {
        lists.push(url);
        const by = (url.searchParams.get('sort_by') ?? 'name') as 'code' | 'name';
        const dir = url.searchParams.get('sort_order') === 'desc' ? -1 : 1;
        const rows = [...all].sort((a, b) => String(a[by]).localeCompare(String(b[by])) * dir);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 50);
        const items = rows.slice(offset, offset + limit);
        return json(200, { items, pagination: { total: rows.length, offset, limit, returned: items.length } });
      }
      const one = /^\/api\/v1\/vendors\/(\d+)$/.exec(url.pathname);
      if (one) return json(200, all[Number(one[1]) - 1]);
      return json(404, { detail: 'Not Found' });
    }),
  );
  return { lists, writes };
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Vendors list', () => {
  it('sorts on the server by the sortable columns, back to page 1, and can include inactive vendors', async () => {
    const { lists } = serveVendors();
    const user = renderAt('/admin/purchasing?tab=vendors&page=2');
    await screen.findByText('Vendor 26');
    expect(lists.at(-1)?.searchParams.get('offset')).toBe('25');
    expect(lists.at(-1)?.searchParams.get('active_only')).toBe('true');

    await user.click(screen.getByRole('button', { name: /^Code/ }));
    await screen.findByText('Vendor 01');
    let last = lists.at(-1)!;
    expect([last.searchParams.get('sort_by'), last.searchParams.get('sort_order'), last.searchParams.get('offset')]).toEqual(['code', 'asc', '0']);

    await user.click(screen.getByRole('button', { name: /^Code/ }));
    await screen.findByText('Vendor 40');
    last = lists.at(-1)!;
    expect([last.searchParams.get('sort_by'), last.searchParams.get('sort_order')]).toEqual(['code', 'desc']);
    expect(within(screen.getAllByRole('row')[1]!).getByText('Vendor 40')).toBeInTheDocument();

    // The location column sorts by city, the field the server knows.
    await user.click(screen.getByRole('button', { name: /^Location/ }));
    await vi.waitFor(() => expect(lists.at(-1)?.searchParams.get('sort_by')).toBe('city'));
    for (const name of ['Vendor', 'Email', 'Rating']) expect(screen.getByRole('button', { name: new RegExp(`^${name}`) })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Phone/ })).toBeNull();

    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await vi.waitFor(() => expect(lists.at(-1)?.searchParams.get('active_only')).toBe('false'));
  });
});

describe('Vendor dialog', () => {
  it('creates a vendor: the name is required, 422s land on their fields, a 400 shows in the form', async () => {
    const { writes } = serveVendors((w, n) =>
      n === 1
        ? json(422, {
            error: 'VALIDATION_ERROR',
            message: 'Request validation failed',
            details: { errors: [{ field: 'email', message: 'value is not a valid email address', type: 'value_error' }] },
          })
        : n === 2
          ? json(400, { detail: "Vendor code 'FIL' already exists" })
          : json(201, vendor(41, w.body as Record<string, unknown>)),
    );
    const user = renderAt('/admin/purchasing?tab=vendors');
    await screen.findByText('Vendor 01');
    await user.click(screen.getByRole('button', { name: 'New vendor' }));
    const dialog = screen.getByRole('dialog', { name: 'New vendor' });
    const create = within(dialog).getByRole('button', { name: 'Create vendor' });
    await user.click(create);
    expect(await within(dialog).findByText('Enter a name.')).toBeInTheDocument();
    expect(writes).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Name/), 'Filament Supply');
    const email = within(dialog).getByLabelText('Email');
    await user.type(email, 'sales@filament.example');
    await user.type(within(dialog).getByLabelText('Lead time (days)'), '5');
    await user.selectOptions(within(dialog).getByLabelText('Rating'), '4');
    await user.click(create);
    expect(await within(dialog).findByText('value is not a valid email address')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('Please correct the highlighted fields.')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Code/), 'fil');
    await user.click(create);
    expect(await within(dialog).findByText("Vendor code 'FIL' already exists")).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(/^Code/));
    await user.click(create);
    expect(await screen.findByText('Vendor created')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'New vendor' })).toBeNull();
    expect(writes.map((w) => [w.method, w.path])).toEqual([
      ['POST', '/vendors/'],
      ['POST', '/vendors/'],
      ['POST', '/vendors/'],
    ]);
    expect(writes[1]?.body).toMatchObject({ code: 'FIL', name: 'Filament Supply', email: 'sales@filament.example', lead_time_days: 5, rating: 4 });
    expect(writes[2]?.body).toMatchObject({ code: null, name: 'Filament Supply' });
    expect(writes[2]?.body).not.toHaveProperty('is_active');
  });

  it('edits a vendor: the form starts from the vendor, a blank field is cleared', async () => {
    const { writes } = serveVendors(() => json(200, vendor(1, { rating: 5 })));
    const user = renderAt('/admin/purchasing?tab=vendors');
    await screen.findByText('Vendor 01');
    await user.click(screen.getByRole('button', { name: 'Edit VND-001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit vendor' });
    const phone = await within(dialog).findByLabelText('Phone');
    expect(phone).toHaveValue('555-0100');
    await user.clear(phone);
    await user.selectOptions(within(dialog).getByLabelText('Rating'), '5');
    await user.click(within(dialog).getByLabelText('Active'));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Vendor saved')).toBeInTheDocument();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ method: 'PUT', path: '/vendors/1', body: { code: 'VND-001', name: 'Vendor 01', phone: null, rating: 5, is_active: false } });
  });
});

describe('Deleting a vendor', () => {
  it('says a vendor with purchase orders is deactivated, asks first and shows the server’s message', async () => {
    const { writes } = serveVendors(() => json(200, { message: 'Vendor VND-002 deactivated (has 2 POs)' }));
    const user = renderAt('/admin/purchasing?tab=vendors');
    await screen.findByText('Vendor 02');
    expect(screen.getByRole('button', { name: 'Delete VND-001' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deactivate VND-002' }));
    let confirm = screen.getByRole('alertdialog', { name: 'Deactivate VND-002?' });
    expect(confirm).toHaveTextContent('has 2 purchase orders, so it is deactivated');
    expect(confirm).toHaveTextContent('A vendor with purchase orders is deactivated rather than deleted.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(writes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Deactivate VND-002' }));
    confirm = screen.getByRole('alertdialog', { name: 'Deactivate VND-002?' });
    await user.click(within(confirm).getByRole('button', { name: 'Deactivate vendor' }));
    expect(await screen.findByText('Vendor VND-002 deactivated (has 2 POs)')).toBeInTheDocument();
    expect(screen.getByText('Vendor deactivated')).toBeInTheDocument();
    expect(writes).toEqual([{ method: 'DELETE', path: '/vendors/2', body: undefined }]);
  });
});

describe('Linked purchase order', () => {
  it('opens the order `?po=` names (a link from another page), and closes it for good', async () => {
    const po = { id: 7, po_number: 'PO-2026-007', vendor_id: 3, vendor_name: 'Filament Supply', status: 'draft', order_date: null, expected_date: null, shipped_date: null, received_date: null, tracking_number: null, carrier: null, subtotal: '0.00', tax_amount: '0.00', shipping_cost: '0.00', total_amount: '0.00', payment_method: null, payment_reference: null, document_url: null, notes: null, created_by: 1, created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z', lines: [] };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://localhost').pathname.replace('/api/v1', '');
        if (path === '/purchase-orders/7') return json(200, po);
        if (path === '/purchase-orders/7/events') return json(200, { items: [] });
        if (path === '/purchase-orders/7/documents') return json(200, []);
        if (path === '/purchase-orders/') return json(200, { items: [], pagination: { total: 0, offset: 0, limit: 25, returned: 0 } });
        return json(404, { detail: 'Not Found' });
      }),
    );
    const user = renderAt('/admin/purchasing?po=7');
    const dialog = await screen.findByRole('dialog', { name: 'Purchase order PO-2026-007' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The link's parameter is gone: the list does not open it again.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
