import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { productionDays, purchasingMonths, todayUtc } from './dashboardData';

const operator = {
  id: 2,
  email: 'olivia@example.com',
  first_name: 'Olivia',
  last_name: 'Ops',
  full_name: 'Olivia Ops',
  account_type: 'operator',
  status: 'active',
  last_login_at: null,
  created_at: '2026-01-20T12:00:00Z',
};

const summary = {
  quotes: { pending: 4, this_week: 2 },
  orders: { confirmed: 0, in_production: 0, ready_to_ship: 0, overdue: 0 },
  production: { in_progress: 3, scheduled: 1, ready_to_start: 2 },
  boms: { needs_review: 0, active: 7 },
  inventory: { low_stock_count: 5, active_orders: 0 },
  revenue: { last_30_days: 1234.5, orders_last_30_days: 6 },
};

const trendOf = (period: string) => ({
  period,
  start_date: '2026-11-01',
  end_date: '2026-11-24',
  total_revenue: 0,
  total_orders: 0,
  total_payments: 0,
  total_payment_count: 0,
  data: [],
});

type Answer = { status: number; body: unknown };

/** Answers the dashboard's calls; `over` replaces one by its path. Records every URL asked. */
function stubServer(over: Record<string, Answer> = {}) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      asked.push(url);
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const period = url.searchParams.get('period') ?? 'MTD';
      const answers: Record<string, Answer> = {
        '/admin/dashboard/summary': { status: 200, body: summary },
        '/admin/dashboard/sales-trend/': { status: 200, body: trendOf(period) },
        '/admin/dashboard/shipping-trend': { status: 200, body: { period, start_date: '2026-11-01', end_date: '2026-11-24', total_shipped: 0, data: [] } },
        '/admin/dashboard/profit-summary': {
          status: 200,
          body: { period, start_date: '2026-11-01', end_date: '2026-11-24', revenue: 0, cost_of_goods: 0, gross_profit: 0, gross_margin_percent: 0, shipments: 0 },
        },
        '/admin/dashboard/production-trend': {
          status: 200,
          body: { data: [{ date: '2026-11-24', completed: 0, units: '0', orders_completed: 0, quantity_completed: '0', quantity_scrapped: '0' }] },
        },
        '/admin/dashboard/purchasing-trend': { status: 200, body: { data: [], months: [{ period: '2026-11', orders: 0, total: '0' }] } },
        '/admin/dashboard/recent-orders': { status: 200, body: [] },
        '/payments/dashboard': { status: 403, body: { detail: 'Admin access required' } },
        ...over,
      };
      const a = answers[path] ?? { status: 404, body: { detail: 'Not Found' } };
      return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return asked;
}

function renderDashboard(path = '/admin') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(operator)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Dashboard', () => {
  it('shows the key figures with links, the empty states, and leaves out what the user may not see', async () => {
    const asked = stubServer({ '/admin/dashboard/shipping-trend': { status: 500, body: { detail: 'boom' } } });
    renderDashboard();
    expect(await screen.findByRole('heading', { level: 1, name: /, Olivia$/ })).toBeInTheDocument();

    const figures = screen.getByRole('region', { name: 'Key figures' });
    const revenue = await within(figures).findByRole('link', { name: /Revenue, 30 days/ });
    expect(revenue).toHaveTextContent('$1,234.50');
    expect(revenue).toHaveTextContent('6 orders placed');
    expect(within(figures).getByRole('link', { name: /Pending quotes/ })).toHaveAttribute('href', '/admin/quotes?status=pending');
    expect(within(figures).getByRole('link', { name: /Work orders running/ })).toHaveTextContent('3');
    expect(within(figures).getByRole('link', { name: /Work orders running/ })).toHaveTextContent('1 released · 2 draft');
    expect(within(figures).getByRole('link', { name: /Low stock/ })).toHaveTextContent('Items at or below reorder point');
    expect(within(figures).getByRole('link', { name: /Low stock/ })).toHaveAttribute('href', '/admin/purchasing?tab=low-stock');
    expect(within(figures).getByRole('link', { name: /Active BOMs/ })).toHaveAttribute('href', '/admin/bom');

    // Empty: no open orders, no sales, nothing made, shipped or bought, no orders at all.
    expect(await screen.findByText('No open orders right now.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No sales yet this month' })).toBeInTheDocument();
    expect(screen.getByText('Nothing completed this month yet.')).toBeInTheDocument();
    expect(screen.getByText('No purchase orders placed in these months.')).toBeInTheDocument();
    expect(screen.getByText('Nothing shipped this month yet, so no profit to show.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No orders yet' })).toBeInTheDocument();

    // A failed call shows its error in its own card, with a retry.
    const shipping = screen.getByTestId('dash-shipping');
    expect(await within(shipping).findByRole('alert')).toHaveTextContent('Could not load this');
    expect(within(shipping).getByRole('button', { name: 'Try again' })).toBeInTheDocument();

    // The payments card answered 403: it is not there, and nothing else broke.
    expect(screen.queryByRole('heading', { name: 'Money owed to you' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);

    // The trends that take days and months were asked for the month so far.
    const today = todayUtc();
    expect(asked.find((u) => u.pathname.endsWith('/production-trend'))?.searchParams.get('days')).toBe(String(productionDays('MTD', today)));
    expect(asked.find((u) => u.pathname.endsWith('/purchasing-trend'))?.searchParams.get('months')).toBe(String(purchasingMonths('MTD', today)));
    expect(asked.find((u) => u.pathname.endsWith('/sales-trend/'))?.searchParams.get('period')).toBe('MTD');
  });

  it('asks every trend again for the period picked', async () => {
    const asked = stubServer();
    renderDashboard();
    await screen.findByRole('heading', { name: 'No sales yet this month' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Year' }));
    expect(await screen.findByRole('heading', { name: 'No sales yet this year' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Year' })).toBeChecked();
    const periods = (p: string) => asked.filter((u) => u.pathname.endsWith(p)).map((u) => u.searchParams.get('period'));
    expect(periods('/sales-trend/')).toEqual(['MTD', 'YTD']);
    expect(periods('/shipping-trend')).toEqual(['MTD', 'YTD']);
    expect(periods('/profit-summary')).toEqual(['MTD', 'YTD']);
    const today = todayUtc();
    expect(asked.filter((u) => u.pathname.endsWith('/production-trend')).map((u) => u.searchParams.get('days'))).toContain(String(productionDays('YTD', today)));
  });

  it('reads the period from the address', async () => {
    stubServer();
    renderDashboard('/admin?period=qtd');
    expect(await screen.findByRole('heading', { name: 'No sales yet this quarter' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Quarter' })).toBeChecked();
  });

  it('leaves out the key figures and the open orders when the summary is forbidden', async () => {
    stubServer({ '/admin/dashboard/summary': { status: 403, body: { detail: 'Not allowed' } } });
    renderDashboard();
    await screen.findByRole('heading', { name: 'No sales yet this month' });
    expect(screen.queryByRole('region', { name: 'Key figures' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Open orders by state' })).not.toBeInTheDocument();
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
  });

  it('says once that the server cannot be reached, not once per card', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Bad Gateway', { status: 502, headers: { 'Content-Type': 'text/plain' } })),
    );
    renderDashboard();
    expect(await screen.findByText('Key figures could not be loaded', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sales' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('dash-recent-orders')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
  }, 15_000);
});
