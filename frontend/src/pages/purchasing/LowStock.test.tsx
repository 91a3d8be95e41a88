import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { LowStock } from './LowStock';

afterEach(() => vi.unstubAllGlobals());

const suggestion = (item_id: number, sku: string, vendor: [number, string] | null) => ({
  item_id,
  sku,
  name: `${sku} name`,
  unit: 'EA',
  reorder_point: '10',
  available_qty: '2',
  on_order_qty: '0',
  shortfall: '8',
  purchase_unit: 'EA',
  suggested_qty: '8',
  vendor_id: vendor?.[0] ?? null,
  vendor_name: vendor?.[1] ?? null,
  last_price: vendor ? '1.5000' : null,
});

const SUGGESTIONS = [suggestion(1, 'NUT', [3, 'Bolt Depot']), suggestion(2, 'BOLT', [3, 'Bolt Depot']), suggestion(5, 'GLUE', null)];

interface Post {
  path: string;
  key: string | null;
  body: unknown;
}

function stubFetch() {
  const posts: Post[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (init.method !== 'POST') return json(url.pathname === '/api/v1/purchase-orders/low-stock' ? SUGGESTIONS : []);
      const path = url.pathname.replace('/api/v1', '');
      posts.push({ path, key: new Headers(init.headers).get('Idempotency-Key'), body: JSON.parse(String(init.body)) });
      if (path === '/purchase-orders/from-low-stock') return json({ purchase_orders: [{ id: 41, po_number: 'PO-2026-041' }], skipped_item_ids: [], message: 'Created 1 purchase order(s)' }, 201);
      return json({ id: 42, po_number: 'PO-2026-042', vendor_name: 'Bolt Depot', status: 'draft', lines: [] }, 201);
    }),
  );
  return posts;
}

function show() {
  const onOpen = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <LowStock onOpen={onOpen} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { onOpen, user: userEvent.setup() };
}

describe('low stock', () => {
  it('creates draft orders for the selected items only, and for every item when none is selected', async () => {
    const posts = stubFetch();
    const { onOpen, user } = show();
    const table = await screen.findByRole('table', { name: 'Low stock' });
    await user.click(within(table).getByLabelText('Select NUT'));
    await user.click(within(table).getByLabelText('Select GLUE'));
    expect(screen.getByText('2 of 3 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create draft orders for 2 selected' }));
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledWith(41));
    expect(posts[0]).toMatchObject({ path: '/purchase-orders/from-low-stock', body: { item_ids: [1, 5] } });
    expect(posts[0]?.key).toMatch(/.{8,}/);

    // The selection is spent; all of them then (and "select every item" ticks each row).
    expect(within(table).getByLabelText('Select NUT')).not.toBeChecked();
    await user.click(within(table).getByLabelText('Select every item'));
    expect(within(table).getByLabelText('Select BOLT')).toBeChecked();
    await user.click(within(table).getByLabelText('Select every item'));
    await user.click(screen.getByRole('button', { name: 'Create draft orders' }));
    await vi.waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]?.body).toEqual({ item_ids: [1, 2, 5] });
  });

  it('reorders one item as a draft and opens it; an item without a vendor cannot be', async () => {
    const posts = stubFetch();
    const { onOpen, user } = show();
    const table = await screen.findByRole('table', { name: 'Low stock' });
    expect(within(table).getByRole('button', { name: 'Reorder GLUE' })).toBeDisabled();
    await user.click(within(table).getByRole('button', { name: 'Reorder BOLT' }));
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledWith(42));
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ path: '/purchase-orders/quick-reorder/2', body: {} });
    expect(posts[0]?.key).toMatch(/.{8,}/);
    expect(await screen.findByText('PO-2026-042 from Bolt Depot.')).toBeInTheDocument();
  });
});
