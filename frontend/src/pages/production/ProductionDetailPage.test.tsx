import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { queryKeys } from '../../api/queryKeys';

const admin = {
  id: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Admin',
  full_name: 'Ada Admin',
  account_type: 'admin',
  status: 'active',
  last_login_at: null,
  created_at: '2026-01-20T12:00:00Z',
};

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const productionOrder = (qc: 'pending' | 'passed') => ({
  id: 5,
  code: 'WO-2026-0005',
  product_id: 3,
  product_sku: 'WIDGET',
  product_name: 'Widget',
  bom_code: null,
  routing_code: null,
  remake_of_code: null,
  sales_order_id: 9,
  sales_order_code: 'SO-2026-0009',
  status: 'complete',
  qc_status: qc,
  priority: 3,
  due_date: null,
  quantity_ordered: '2',
  quantity_completed: '2',
  quantity_scrapped: '0',
  quantity_remaining: 0,
  estimated_total_cost: '1.00',
  actual_total_cost: '1.00',
  operations: [],
  materials: [],
  spools: [],
  serial_numbers: [],
  notes: null,
});

const salesOrder = (status: 'in_production' | 'ready_to_ship') => ({
  id: 9,
  order_number: 'SO-2026-0009',
  customer_name: 'Olive Cash',
  status,
  fulfillment_state: status === 'ready_to_ship' ? 'ready_to_ship' : 'blocked',
  payment_status: 'pending',
  source: 'manual',
  rush_level: 'standard',
  created_at: '2026-11-24T12:00:00Z',
  due_date: null,
  subtotal: '37.50',
  shipping_cost: '0.00',
  tax_amount: '0.00',
  grand_total: '37.50',
  fulfillment: { lines_ready: status === 'ready_to_ship' ? 1 : 0, lines_total: 1 },
  fulfillment_percent: status === 'ready_to_ship' ? 100 : 0,
  lines: [],
  shipping_address_line1: '12 Harbor Rd',
  shipping_city: 'Portland',
  shipped_at: null,
  is_cancellable: false,
});

describe('production order page', () => {
  it('links to its sales order, which shows its new status after QC passes', async () => {
    let qc: 'pending' | 'passed' = 'pending';
    const posts: { path: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
        if (init.method === 'POST') {
          posts.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
          if (url.pathname === '/api/v1/production-orders/5/qc') {
            qc = 'passed';
            return json({ production_order_id: 5, qc_status: 'passed', sales_order_updated: true, sales_order_status: 'ready_to_ship' });
          }
        }
        switch (url.pathname) {
          case '/api/v1/auth/me':
            return json(admin);
          case '/api/v1/production-orders/5':
            return json(productionOrder(qc));
          case '/api/v1/sales-orders/9':
            return json(salesOrder(qc === 'passed' ? 'ready_to_ship' : 'in_production'));
          case '/api/v1/sales-orders/status-transitions':
            return json({ statuses: [], transitions: { ready_to_ship: { allowed_transitions: ['shipped'], is_terminal: false } }, terminal_statuses: [] });
          case '/api/v1/sales-orders/9/required-orders':
            return json({ production_orders: [] });
          case '/api/v1/sales-orders/9/events':
          case '/api/v1/sales-orders/9/shipping-events':
            return json([]);
          case '/api/v1/payments':
          case '/api/v1/shipments/':
            return json({ items: [], total: 0 });
          case '/api/v1/payments/order/9/summary':
            return json({ total_paid: '0', total_refunded: '0', balance_due: '37.50' });
          default:
            return new Response(JSON.stringify({ detail: 'Not Found' }), { status: 404 });
        }
      }),
    );
    const client = createQueryClient();
    // The sales order as it was seen before production, still fresh in the cache.
    client.setQueryData(queryKeys.sales.detail(9), salesOrder('in_production'));
    render(
      <MemoryRouter initialEntries={['/admin/production/5']}>
        <AppProviders client={client}>
          <AppRoutes />
        </AppProviders>
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    const link = await screen.findByRole('link', { name: 'SO-2026-0009' });
    expect(link).toHaveAttribute('href', '/admin/orders/9');

    await user.click(screen.getByRole('button', { name: 'Record QC' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Record inspection' }));
    await screen.findByText('QC passed');
    expect(posts).toEqual([{ path: '/api/v1/production-orders/5/qc', body: {
          result: 'passed',
          quantity_passed: null,
          quantity_failed: null,
          defect_reason_id: null,
          operation_id: null,
          failure_reason: null,
          notes: null,
          measurements: null,
        },
      },
    ]);
    expect(client.getQueryState(['sales', 'detail', 9])?.isInvalidated).toBe(true);

    // Following the link shows the order ready to ship, not the cached in-production one.
    await user.click(screen.getByRole('link', { name: 'SO-2026-0009' }));
    expect(await screen.findByRole('button', { name: 'Ship' })).toBeInTheDocument();
    expect(screen.getAllByText('Ready to ship').length).toBeGreaterThan(0);
    expect(screen.queryByText('In production')).not.toBeInTheDocument();
  });
});
