import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const user = (account_type: 'admin' | 'operator') => ({
  id: account_type === 'admin' ? 1 : 2,
  email: `${account_type}@example.com`,
  first_name: 'Ada',
  last_name: 'Admin',
  full_name: 'Ada Admin',
  account_type,
  status: 'active',
  last_login_at: null,
  created_at: '2026-01-20T12:00:00Z',
});

const lot = {
  id: 7,
  lot_number: 'PLA-2026-0007',
  product_id: 3,
  product_sku: 'PLA-BLK',
  product_name: 'PLA Black',
  vendor_id: 1,
  purchase_order_id: 2,
  vendor_lot_number: 'V-88',
  quantity_received: '1000.000',
  quantity_consumed: '250.000',
  quantity_remaining: '750.000',
  notes: null,
  status: 'active',
  inspection_status: 'passed',
  received_date: '2026-11-20',
  expiration_date: null,
};

/** Answers the lots list; records the URLs asked. */
function stubServer() {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      asked.push(url);
      const path = url.pathname.replace(/^\/api\/v1/, '');
      let body: unknown = { detail: 'Not Found' };
      let status = 404;
      if (path === '/admin/traceability/lots') {
        status = 200;
        const items = url.searchParams.get('status') === 'recalled' ? [] : [lot];
        body = { items, total: items.length, offset: Number(url.searchParams.get('offset')), limit: Number(url.searchParams.get('limit')) };
      }
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return asked;
}

function renderAt(path: string, who: 'admin' | 'operator') {
  localStorage.setItem('adminUser', JSON.stringify(user(who)));
  return render(
    <MemoryRouter initialEntries={[path]}>
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

describe('traceability lists', () => {
  it('operators get only Trace and Recall impact, even at ?tab=lots', async () => {
    const asked = stubServer();
    renderAt('/admin/quality/traceability?tab=lots', 'operator');
    const tabs = await screen.findByRole('tablist', { name: 'Traceability views' });
    expect(within(tabs).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Trace', 'Recall impact']);
    expect(screen.getByText('Start with a number')).toBeInTheDocument();
    expect(asked.some((u) => u.pathname.includes('/admin/traceability/'))).toBe(false);
  });

  it('admins page through lots with a status filter and open one in the trace view', async () => {
    const asked = stubServer();
    renderAt('/admin/quality/traceability?tab=lots', 'admin');
    const table = await screen.findByRole('region', { name: 'Material lots' });
    const row = (await within(table).findByText('PLA-2026-0007')).closest('tr')!;
    expect(await within(row).findByText('PLA-BLK')).toBeInTheDocument();
    expect(within(row).getByText('750')).toBeInTheDocument();
    expect(within(row).getByText('Vendor lot V-88')).toBeInTheDocument();
    // The list names the item itself: no lookup per item.
    expect(asked.some((x) => x.pathname.includes('/items'))).toBe(false);
    const first = asked.find((u) => u.pathname.endsWith('/admin/traceability/lots'))!;
    expect(Object.fromEntries(first.searchParams)).toEqual({ limit: '25', offset: '0' });

    const u = userEvent.setup();
    await u.selectOptions(within(table).getByLabelText('Lot status'), 'recalled');
    expect(await within(table).findByText('No results match')).toBeInTheDocument();
    expect(asked.filter((x) => x.pathname.endsWith('/admin/traceability/lots')).at(-1)!.searchParams.get('status')).toBe('recalled');
    await u.selectOptions(within(table).getByLabelText('Lot status'), '');

    await u.click(await screen.findByRole('link', { name: 'Trace PLA-2026-0007 backward' }));
    expect(await screen.findByLabelText('Serial, lot or spool number')).toHaveValue('PLA-2026-0007');
    expect(screen.getByRole('tab', { name: 'Trace' })).toHaveAttribute('aria-selected', 'true');
  });
});
