import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { BuyList } from './BuyList';
import type { BuyList as BuyListData, BuyListItem } from './planningApi';

afterEach(() => vi.unstubAllGlobals());

function item(product_id: number, sku: string, vendor: [number, string] | null, value: string, extra: Partial<BuyListItem> = {}): BuyListItem {
  return {
    product_id,
    sku,
    name: `${sku} name`,
    unit: 'G',
    gross_demand: '600',
    on_hand: '100',
    allocated: '0',
    available: '100',
    incoming_qty: '0',
    projected: '100',
    safety_stock: '50',
    net_shortage: '550',
    suggested_qty: '1000',
    preferred_vendor_id: vendor?.[0] ?? null,
    preferred_vendor_name: vendor?.[1] ?? null,
    unit_cost: '0.0200',
    estimated_buy_value: value,
    earliest_need: '2026-12-08',
    incoming_details: [],
    ...extra,
  };
}

const LIST: BuyListData = {
  summary: { components_short: 4, total_estimated_buy_value: '61.50', open_sales_orders_included: 3, open_production_orders_included: 1, draft_incoming_qty: '200' },
  items: [
    item(1, 'PLA-BLK', [3, 'Filament Co'], '20.00', {
      incoming_qty: '300',
      incoming_details: [
        { purchase_order_id: 41, po_number: 'PO-2026-041', quantity: '200', expected_date: '2026-12-05', status: 'draft' },
        { purchase_order_id: 40, po_number: 'PO-2026-040', quantity: '100', expected_date: null, status: 'ordered' },
      ],
    }),
    item(2, 'PETG-RED', [3, 'Filament Co'], '19.25'),
    item(3, 'M3-BOLT', [5, 'Bolt Depot'], '12.25'),
    item(4, 'GLUE', null, '10.00'),
  ],
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serve(list: BuyListData = LIST) {
  const posts: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace('/api/v1', '');
      if (init.method === 'POST') {
        posts.push({ path, body: JSON.parse(String(init.body)) });
        return json(201, {
          purchase_orders: [
            { id: 50, po_number: 'PO-2026-050', vendor_id: 3, status: 'draft', total_amount: '39.25' },
            { id: 51, po_number: 'PO-2026-051', vendor_id: 9, status: 'draft', total_amount: '10.00' },
          ],
          skipped_item_ids: [],
          message: 'Created 2 purchase order(s)',
        });
      }
      if (path === '/buy-list') return json(200, list);
      if (path === '/vendors/') return json(200, { items: [{ id: 9, code: 'VND-009', name: 'Glue Barn' }], pagination: { total: 1, offset: 0, limit: 500, returned: 1 } });
      return json(404, { detail: 'Not Found' });
    }),
  );
  return posts;
}

function show() {
  render(
    <MemoryRouter>
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <BuyList />
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

describe('buy list', () => {
  it('groups the items by preferred vendor with a subtotal each, and marks draft incoming', async () => {
    serve();
    show();
    const table = await screen.findByRole('table', { name: 'Buy list' });
    const groups = within(table).getAllByRole('rowgroup').filter((g) => g.tagName === 'TBODY');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Filament Co', 'Bolt Depot', 'No preferred vendor']);
    const filament = groups[0]!;
    expect(within(filament).getByText('PLA-BLK')).toBeInTheDocument();
    expect(within(filament).getByText('PETG-RED')).toBeInTheDocument();
    expect(within(filament).getByRole('row', { name: /Subtotal Filament Co/ })).toHaveTextContent('$39.25');
    expect(within(groups[1]!).getByRole('row', { name: /Subtotal Bolt Depot/ })).toHaveTextContent('$12.25');
    const incoming = within(filament).getByRole('list', { name: 'Incoming PLA-BLK' });
    expect(within(incoming).getAllByRole('listitem')[0]).toHaveTextContent('PO-2026-041 200 by 2026-12-05 (draft)');
    expect(within(incoming).getAllByRole('listitem')[1]).not.toHaveTextContent('(draft)');
    expect(within(incoming).getByRole('link', { name: 'PO-2026-041' })).toHaveAttribute('href', '/admin/purchasing?po=41');
    expect(screen.getByText('Estimated buy value').closest('.stat')).toHaveTextContent('$61.50');
  });

  it('creates draft POs for the selected items (a vendor for those without one) and links to them', async () => {
    const posts = serve();
    const user = show();
    const table = await screen.findByRole('table', { name: 'Buy list' });
    expect(screen.getByRole('button', { name: 'Create POs' })).toBeDisabled();
    await user.click(within(table).getByRole('checkbox', { name: 'Select every item from Filament Co' }));
    expect(within(table).getByRole('checkbox', { name: 'Select PETG-RED' })).toBeChecked();
    await user.click(within(table).getByRole('checkbox', { name: 'Select GLUE' }));
    expect(screen.getByText('3 of 4 selected')).toBeInTheDocument();
    const vendor = screen.getByRole('combobox', { name: 'Vendor for 1 item without one' });
    await within(vendor).findByRole('option', { name: 'VND-009 · Glue Barn' });
    await user.selectOptions(vendor, '9');
    await user.click(screen.getByRole('button', { name: 'Create POs for 3 selected' }));
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ path: '/buy-list/purchase-orders', body: { item_ids: [1, 2, 4], vendor_id: 9 } });
    const panel = await screen.findByRole('region', { name: 'Draft purchase orders created' });
    expect(within(panel).getByRole('link', { name: 'PO-2026-050' })).toHaveAttribute('href', '/admin/purchasing?po=50');
    expect(within(panel).getByRole('link', { name: 'PO-2026-051' })).toHaveAttribute('href', '/admin/purchasing?po=51');
    expect(panel).toHaveTextContent('Created 2 purchase order(s)');
    expect(within(table).getByRole('checkbox', { name: 'Select PLA-BLK' })).not.toBeChecked();
  });

  it('says so when nothing is short', async () => {
    serve({ ...LIST, items: [], summary: { ...LIST.summary, components_short: 0, total_estimated_buy_value: '0' } });
    show();
    expect(await screen.findByText('Nothing is short')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Create POs/ })).not.toBeInTheDocument();
  });
});
