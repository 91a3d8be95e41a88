import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import type { SupplyDemand } from './planningApi';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

const timeline = (product_id: number, sku: string): SupplyDemand => ({
  product_id,
  product_sku: sku,
  product_name: `${sku} name`,
  current_on_hand: '12',
  current_available: '10',
  safety_stock: '4',
  entries: [
    { date: '2026-12-01', entry_type: 'on_hand', source_type: 'inventory', source_id: null, source_code: null, quantity: '10', running_balance: '10' },
    { date: '2026-12-05', entry_type: 'demand', source_type: 'sales_order', source_id: 3, source_code: 'SO-2026-003', quantity: '8', running_balance: '2' },
    { date: '2026-12-09', entry_type: 'supply', source_type: 'planned_order', source_id: 7, source_code: 'PLN-7', quantity: '5', running_balance: '7' },
  ],
  projected_shortage_date: '2026-12-05',
  days_of_supply: 4,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serve() {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace('/api/v1', '');
      if (path === '/mrp/runs') return json(200, { runs: [], last_successful_run: null });
      if (path === '/mrp/exceptions') return json(200, []);
      if (path === '/vendors/') return json(200, { items: [], pagination: { total: 0, offset: 0, limit: 500, returned: 0 } });
      if (path === '/mrp/planned-orders') {
        const items = [{ id: 7, order_type: 'purchase', product_id: 101, product_sku: 'PLA-BLK', product_name: 'Black PLA', quantity: '5', due_date: '2026-12-09', start_date: '2026-12-06', vendor_id: null, source_demand_type: 'safety_stock', source_demand_id: null, mrp_run_id: 1, status: 'planned', is_late: false, converted_to_po_id: null, converted_to_mo_id: null, notes: null, created_at: '2026-12-01T00:00:00Z', firmed_at: null, released_at: null }];
        return json(200, { items, total: 1, page: 1, page_size: 25 });
      }
      if (path === '/items') return json(200, { items: [{ id: 202, sku: 'PETG-RED', name: 'Red PETG' }], total: 1 });
      const sd = /^\/mrp\/supply-demand\/(\d+)$/.exec(path);
      if (sd) {
        asked.push(url);
        return json(200, timeline(Number(sd[1]), sd[1] === '202' ? 'PETG-RED' : 'PLA-BLK'));
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return asked;
}

function renderAt(path: string) {
  localStorage.setItem('adminUser', JSON.stringify(admin));
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

describe('supply and demand', () => {
  it('opens from a planned order: the shortage, the days of supply and the chart of the item', async () => {
    const asked = serve();
    const user = renderAt('/admin/planning');
    await user.click(await screen.findByRole('button', { name: 'Supply and demand of PLA-BLK' }));
    const section = await screen.findByRole('region', { name: 'Supply and demand' });
    expect(await within(section).findByRole('heading', { name: /PLA-BLK/ })).toBeInTheDocument();
    expect(asked.at(-1)?.pathname).toBe('/api/v1/mrp/supply-demand/101');
    expect(asked.at(-1)?.searchParams.get('days_ahead')).toBe('60');
    expect(within(section).getByText('Projected shortage').closest('.stat')).toHaveTextContent('Dec 5');
    expect(within(section).getByText('Days of supply').closest('.stat')).toHaveTextContent('4');
    expect(await within(section).findByRole('img', { name: /below the safety stock of 4 from Dec 5/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Supply & demand' })).toHaveAttribute('aria-current', 'page');

    await user.selectOptions(within(section).getByRole('combobox', { name: 'Window' }), '90');
    await vi.waitFor(() => expect(asked.at(-1)?.searchParams.get('days_ahead')).toBe('90'));
  });

  it('finds any item by search', async () => {
    const asked = serve();
    const user = renderAt('/admin/planning?tab=supply-demand');
    const section = await screen.findByRole('region', { name: 'Supply and demand' });
    expect(within(section).getByText('Choose an item')).toBeInTheDocument();
    expect(await within(section).findByRole('option', { name: 'PLA-BLK · Black PLA' })).toBeInTheDocument();
    await user.type(within(section).getByRole('searchbox', { name: 'Or find any item' }), 'petg');
    await user.click(await within(section).findByRole('button', { name: /PETG-RED/ }));
    expect(await within(section).findByRole('heading', { name: /PETG-RED/ })).toBeInTheDocument();
    expect(asked.at(-1)?.pathname).toBe('/api/v1/mrp/supply-demand/202');
  });
});
