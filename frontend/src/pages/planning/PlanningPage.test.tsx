import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import type { MrpException, PlannedOrder, ReleaseResult } from './planningApi';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };
const operator = { ...admin, id: 2, email: 'otto@example.com', account_type: 'operator' };

function planned(id: number, overrides: Partial<PlannedOrder> = {}): PlannedOrder {
  return {
    id,
    order_type: 'purchase',
    product_id: 100 + id,
    product_sku: `PLA-${id}`,
    product_name: `Filament ${id}`,
    quantity: '5.0000',
    due_date: '2026-12-10',
    start_date: '2026-12-07',
    vendor_id: 3,
    source_demand_type: 'sales_order',
    source_demand_id: 12,
    mrp_run_id: 9,
    status: 'planned',
    is_late: false,
    converted_to_po_id: null,
    converted_to_mo_id: null,
    notes: null,
    created_at: '2026-11-28T08:00:00Z',
    firmed_at: null,
    released_at: null,
    ...overrides,
  };
}

const ORDERS = [
  planned(1, { is_late: true, start_date: '2026-11-20', source_demand_type: 'safety_stock', source_demand_id: null }),
  planned(2, { vendor_id: null }),
  planned(3, { order_type: 'production', vendor_id: null, product_sku: 'WIDGET', product_name: 'Widget' }),
  planned(4, { status: 'released', converted_to_po_id: 77 }),
];

const EXCEPTIONS: MrpException[] = [
  { id: 1, mrp_run_id: 9, product_id: 101, kind: 'late', message: 'PLA-1: release 7 days late', due_date: '2026-11-20', quantity: '5', planned_order_id: 1 },
  { id: 2, mrp_run_id: 9, product_id: 500, kind: 'no_vendor', message: 'GLUE: needs buying and has no vendor', due_date: null, quantity: null, planned_order_id: null },
];

const RUN = {
  id: 9,
  run_date: '2026-11-28T08:00:00Z',
  planning_horizon_days: 30,
  status: 'completed',
  orders_processed: 2,
  components_analyzed: 4,
  shortages_found: 3,
  planned_orders_created: 4,
  exceptions_found: 2,
  error_message: null,
  completed_at: '2026-11-28T08:00:01Z',
};

const VENDORS = [
  { id: 3, code: 'VND-003', name: 'Filament Co' },
  { id: 5, code: 'VND-005', name: 'Bolt Depot' },
];

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Write {
  method: string;
  path: string;
  body: unknown;
}

const released = (planned_order_id: number, po: [number, string] | null, wo: [number, string] | null = null): ReleaseResult => ({
  planned_order_id,
  order_type: po ? 'purchase' : 'production',
  created_purchase_order_id: po?.[0] ?? null,
  created_purchase_order_code: po?.[1] ?? null,
  created_production_order_id: wo?.[0] ?? null,
  created_production_order_code: wo?.[1] ?? null,
});

/** The planning routes in memory; every planned-orders request in `lists`, every write in `writes` and answered by `write`. */
function serve({ orders = ORDERS, runs = [RUN], write = () => json(200, {}) }: { orders?: PlannedOrder[]; runs?: unknown[]; write?: (w: Write) => Response } = {}) {
  const lists: URL[] = [];
  const writes: Write[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace('/api/v1', '');
      const method = init.method ?? 'GET';
      if (method !== 'GET') {
        const w = { method, path, body: init.body ? JSON.parse(String(init.body)) : undefined };
        writes.push(w);
        return write(w);
      }
      if (path === '/mrp/runs') return json(200, { runs, last_successful_run: runs.length ? RUN.run_date : null });
      if (path === '/mrp/exceptions') return json(200, runs.length ? EXCEPTIONS : []);
      if (path === '/vendors/') return json(200, { items: VENDORS, pagination: { total: VENDORS.length, offset: 0, limit: 500, returned: VENDORS.length } });
      if (path === '/mrp/planned-orders') {
        lists.push(url);
        const type = url.searchParams.get('order_type');
        const status = url.searchParams.get('status');
        const items = orders.filter((o) => (!type || o.order_type === type) && (!status || o.status === status));
        return json(200, { items, total: items.length, page: Number(url.searchParams.get('page') ?? 1), page_size: Number(url.searchParams.get('page_size') ?? 25) });
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return { lists, writes };
}

function renderAt(path: string, user: typeof admin = admin) {
  localStorage.setItem('adminUser', JSON.stringify(user));
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const table = () => screen.findByRole('region', { name: 'Planned orders' });
const rowOf = async (code: string) => {
  const t = await table();
  const cell = await within(t).findByText(code);
  return cell.closest('tr')!;
};

describe('Planning page', () => {
  it('shows the last run, the planned orders with late ones flagged and the exceptions, and filters on the server', async () => {
    const { lists } = serve();
    const user = renderAt('/admin/planning');
    expect(await screen.findByRole('heading', { name: 'Planning', level: 1 })).toBeInTheDocument();
    const summary = await screen.findByRole('region', { name: 'Last MRP run' });
    expect(await within(summary).findByText('Planned orders created')).toBeInTheDocument();
    expect(within(summary).getByText('Shortages').nextSibling).toHaveTextContent('3');
    expect(screen.getByRole('button', { name: 'Run MRP' })).toBeInTheDocument();

    const late = await rowOf('PLN-1');
    expect(within(late).getByText('Late')).toBeInTheDocument();
    expect(await within(late).findByText(/release 7 days late/)).toBeInTheDocument();
    expect(within(late).getByText('Filament Co')).toBeInTheDocument();
    expect(within(await rowOf('PLN-2')).getByText('No vendor')).toBeInTheDocument();
    expect(within(await rowOf('PLN-3')).getByText('In house')).toBeInTheDocument();
    expect(within(await rowOf('PLN-4')).getByRole('link', { name: 'View PO' })).toHaveAttribute('href', '/admin/purchasing?po=77');
    expect(within(await rowOf('PLN-4')).queryByRole('button', { name: 'Release PLN-4' })).not.toBeInTheDocument();
    // Exceptions about no planned order are listed above the table.
    expect(screen.getByRole('region', { name: 'Exceptions of the last run' })).toHaveTextContent('GLUE: needs buying and has no vendor');

    expect(lists.at(-1)?.searchParams.get('exceptions_first')).toBe('true');
    expect(lists.at(-1)?.searchParams.get('page_size')).toBe('25');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'make');
    await vi.waitFor(() => expect(lists.at(-1)?.searchParams.get('order_type')).toBe('production'));
    expect(await screen.findByText('PLN-3')).toBeInTheDocument();
    expect(screen.queryByText('PLN-1')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'firmed');
    await vi.waitFor(() => expect(lists.at(-1)?.searchParams.get('status')).toBe('firmed'));
    expect(lists.at(-1)?.searchParams.get('order_type')).toBe('production');
    expect(lists.at(-1)?.searchParams.get('page')).toBe('1');
  });

  it('releases a buy without a vendor only once one is chosen, then links to the draft purchase order', async () => {
    const { writes } = serve({ write: (w) => json(200, w.path === '/mrp/planned-orders/2/release' ? released(2, [30, 'PO-2026-030']) : {}) });
    const user = renderAt('/admin/planning');
    await user.click(within(await rowOf('PLN-2')).getByRole('button', { name: 'Release PLN-2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release PLN-2' });
    await user.click(within(dialog).getByRole('button', { name: 'Release' }));
    expect(await within(dialog).findByText('Choose the vendor to buy from.')).toBeInTheDocument();
    expect(writes).toHaveLength(0);
    await within(dialog).findByRole('option', { name: 'VND-005 · Bolt Depot' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Vendor/ }), '5');
    await user.type(within(dialog).getByRole('textbox', { name: 'Notes' }), 'rush');
    await user.click(within(dialog).getByRole('button', { name: 'Release' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writes).toEqual([{ method: 'POST', path: '/mrp/planned-orders/2/release', body: { vendor_id: 5, notes: 'rush' } }]);
    const panel = screen.getByRole('region', { name: 'Released as drafts' });
    expect(within(panel).getByRole('link', { name: 'PO-2026-030' })).toHaveAttribute('href', '/admin/purchasing?po=30');
    expect(await screen.findByText('Created PO-2026-030 as draft.')).toBeInTheDocument();
  });

  it('releases the selection in one request per vendor rule, and shows every created order', async () => {
    const { writes } = serve({
      write: (w) => {
        const ids = (w.body as { ids: number[] }).ids;
        return json(200, ids.map((id) => (id === 3 ? released(3, null, [8, 'WO-2026-0008']) : released(id, [30, 'PO-2026-030']))));
      },
    });
    const user = renderAt('/admin/planning');
    const t = await table();
    await within(t).findByText('PLN-1');
    expect(within(t).queryByRole('checkbox', { name: 'Select PLN-4' })).not.toBeInTheDocument();
    await user.click(within(t).getByRole('checkbox', { name: 'Select every releasable order on this page' }));
    expect(within(t).getByRole('checkbox', { name: 'Select PLN-2' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Release selected (3)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release 3 planned orders' });
    expect(dialog).toHaveTextContent('2 buys become draft purchase orders, one per vendor; 1 make becomes a draft production order.');
    await within(dialog).findByRole('option', { name: 'VND-005 · Bolt Depot' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Vendor for the 1 buy without one/ }), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Release 3' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writes.map((w) => [w.path, w.body])).toEqual([
      ['/mrp/planned-orders/release', { ids: [1, 3], notes: null }],
      ['/mrp/planned-orders/release', { ids: [2], vendor_id: 5, notes: null }],
    ]);
    const panel = screen.getByRole('region', { name: 'Released as drafts' });
    expect(within(panel).getByRole('link', { name: 'PO-2026-030' })).toHaveAttribute('href', '/admin/purchasing?po=30');
    expect(within(panel).getByRole('link', { name: 'WO-2026-0008' })).toHaveAttribute('href', '/admin/production/8');
    expect(panel).toHaveTextContent('from PLN-1, PLN-2');
    expect(screen.getByRole('button', { name: 'Release selected' })).toBeDisabled();
  });

  it('cancels a planned order only after the confirmation', async () => {
    const { writes } = serve({ write: () => json(200, { message: 'Planned order cancelled' }) });
    const user = renderAt('/admin/planning');
    await user.click(within(await rowOf('PLN-3')).getByRole('button', { name: 'Cancel PLN-3' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Cancel PLN-3?' });
    expect(confirm).toHaveTextContent('The suggestion to make 5 × WIDGET by 2026-12-10 is deleted.');
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(writes).toHaveLength(0);

    await user.click(within(await rowOf('PLN-3')).getByRole('button', { name: 'Cancel PLN-3' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Cancel PLN-3?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel planned order' }));
    await vi.waitFor(() => expect(writes).toEqual([{ method: 'DELETE', path: '/mrp/planned-orders/3', body: undefined }]));
    expect(await screen.findByText('PLN-3 (WIDGET) is no longer planned.')).toBeInTheDocument();
  });

  it('firms a planned order with a note', async () => {
    const { writes } = serve({ write: () => json(200, planned(1, { status: 'firmed' })) });
    const user = renderAt('/admin/planning');
    await user.click(within(await rowOf('PLN-1')).getByRole('button', { name: 'Firm PLN-1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Firm PLN-1' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Notes' }), 'customer confirmed');
    await user.click(within(dialog).getByRole('button', { name: 'Firm order' }));
    await vi.waitFor(() => expect(writes).toEqual([{ method: 'POST', path: '/mrp/planned-orders/1/firm', body: { notes: 'customer confirmed' } }]));
    expect(await screen.findByText('Planned order firmed')).toBeInTheDocument();
  });

  it('runs MRP from the dialog (admins): the horizon is checked, then the run is summed up', async () => {
    const { writes } = serve({ orders: [], runs: [], write: () => json(200, { ...RUN, planning_horizon_days: 45 }) });
    const user = renderAt('/admin/planning');
    expect(await screen.findByText('MRP has not run yet.')).toBeInTheDocument();
    const empty = await screen.findByText('Nothing is planned');
    expect(empty.parentElement).toHaveTextContent('Run MRP to plan what to buy and make');
    await user.click(screen.getAllByRole('button', { name: 'Run MRP' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Run MRP' });
    const horizon = within(dialog).getByRole('textbox', { name: /Planning horizon/ });
    expect(horizon).toHaveValue('30');
    expect(within(dialog).getByRole('checkbox', { name: 'Include draft orders' })).toBeChecked();
    await user.clear(horizon);
    await user.type(horizon, '400');
    await user.click(within(dialog).getByRole('button', { name: 'Run MRP' }));
    expect(await within(dialog).findByText('Enter a whole number of days from 1 to 365.')).toBeInTheDocument();
    await user.clear(horizon);
    await user.type(horizon, '45');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Regenerate planned orders' }));
    await user.click(within(dialog).getByRole('button', { name: 'Run MRP' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writes).toEqual([{ method: 'POST', path: '/mrp/run', body: { planning_horizon_days: 45, include_draft_orders: true, regenerate_planned: false } }]);
    expect(await screen.findByText('MRP run complete')).toBeInTheDocument();
    expect(screen.getByText('4 planned orders created from 2 open orders; 3 shortages, 2 exceptions.')).toBeInTheDocument();
  });

  it('offers operators the plan but not Run MRP', async () => {
    serve({ orders: [], runs: [] });
    renderAt('/admin/planning', operator);
    expect(await screen.findByText('Nothing is planned')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run MRP' })).not.toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Planning' })).toHaveAttribute('href', '/admin/planning');
  });
});
