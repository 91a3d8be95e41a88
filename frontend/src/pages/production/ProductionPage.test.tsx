import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

function order(id: number) {
  return {
    id,
    code: `WO-2026-${String(id).padStart(4, '0')}`,
    product_id: 7,
    product_sku: 'WIDGET',
    product_name: 'Widget',
    quantity_ordered: String(id),
    quantity_completed: '0',
    quantity_remaining: id,
    completion_percent: 0,
    status: 'draft',
    priority: 3,
    source: 'manual',
    order_type: 'MAKE_TO_STOCK',
    qc_status: 'not_required',
    due_date: null,
    scheduled_start: null,
    scheduled_end: null,
    sales_order_id: null,
    sales_order_code: null,
    assigned_to: null,
    operation_count: 0,
    current_operation: null,
    operations: [],
    materials: [],
    created_at: '2026-11-01T10:00:00Z',
  };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A small in-memory /production-orders/ route: 60 orders, paged and sorted by code. */
function serveOrders(calls: URL[]) {
  const all = Array.from({ length: 60 }, (_, i) => order(i + 1));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/production-orders/') {
        calls.push(url);
        const dir = url.searchParams.get('sort_order') === 'desc' ? -1 : 1;
        const rows = url.searchParams.get('sort_by') === 'code' ? [...all].sort((a, b) => a.code.localeCompare(b.code) * dir) : all;
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 50);
        return json(200, rows.slice(offset, offset + limit));
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
}

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Production list', () => {
  it('pages and sorts on the server: a header click sends sort_by/sort_order from the first page', async () => {
    const calls: URL[] = [];
    serveOrders(calls);
    render(
      <MemoryRouter initialEntries={['/admin/production?page=2']}>
        <AppProviders client={createQueryClient()}>
          <AppRoutes />
        </AppProviders>
      </MemoryRouter>,
    );
    await screen.findByText('WO-2026-0026');
    expect(calls.at(-1)?.searchParams.get('offset')).toBe('25');

    await userEvent.click(screen.getByRole('button', { name: /^Order/ }));
    await screen.findByText('WO-2026-0001');
    let last = calls.at(-1)!;
    expect(last.searchParams.get('sort_by')).toBe('code');
    expect(last.searchParams.get('sort_order')).toBe('asc');
    expect(last.searchParams.get('offset')).toBe('0');

    await userEvent.click(screen.getByRole('button', { name: /^Order/ }));
    await screen.findByText('WO-2026-0060');
    last = calls.at(-1)!;
    expect(last.searchParams.get('sort_order')).toBe('desc');
    const firstRow = screen.getAllByRole('row')[1]!;
    expect(within(firstRow).getByText('WO-2026-0060')).toBeInTheDocument();
  });
});
