import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

const row = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  invoice_number: `INV-2026-000${id}`,
  sales_order_id: 40 + id,
  order_number: `SO-2026-004${id}`,
  customer_id: 3,
  customer_name: 'Bea Buyer',
  customer_company: 'Buyer & Co',
  payment_terms: 'net30',
  invoice_date: '2026-03-01',
  due_date: '2026-03-31',
  total: '108.25',
  amount_paid: '0.00',
  amount_due: '108.25',
  status: 'sent',
  display_status: 'sent',
  is_overdue: false,
  days_overdue: 0,
  created_at: '2026-03-01T10:00:00Z',
  sent_at: '2026-03-01T11:00:00Z',
  ...extra,
});

const OPEN = row(1);
const OVERDUE = row(2, { display_status: 'overdue', is_overdue: true, days_overdue: 12, due_date: '2026-02-15', customer_name: 'Olive Late', customer_company: null });
const PAID = row(3, { status: 'paid', display_status: 'paid', amount_paid: '108.25', amount_due: '0.00' });

const SUMMARY = { overdue_count: 1, overdue_amount: '108.25', total_ar: '216.50', open_count: 2, draft_count: 0, paid_last_30_days: '108.25' };

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The invoices routes; the list answers per `status` the way the server filters. */
function serve() {
  const lists: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      switch (url.pathname) {
        case '/api/v1/auth/me':
          return json(200, admin);
        case '/api/v1/invoices/summary':
          return json(200, SUMMARY);
        case '/api/v1/invoices': {
          lists.push(url.searchParams);
          const status = url.searchParams.get('status');
          const rows = status === 'overdue' ? [OVERDUE] : status === 'paid' ? [PAID] : status === 'voided' ? [] : [OPEN, OVERDUE, PAID];
          const q = url.searchParams.get('search')?.toLowerCase();
          return json(200, q ? rows.filter((r) => r.customer_name.toLowerCase().includes(q)) : rows);
        }
        default:
          return json(404, { detail: 'Not Found' });
      }
    }),
  );
  return lists;
}

function renderAt(path: string) {
  localStorage.setItem('adminUser', JSON.stringify(admin));
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

describe('invoices page', () => {
  it('shows the summary and every invoice, overdue in red, each linked to its page and its order', async () => {
    const lists = serve();
    renderAt('/admin/invoices');
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(await within(table).findByRole('link', { name: 'INV-2026-0001' })).toHaveAttribute('href', '/admin/invoices/1');
    expect(within(table).getByRole('link', { name: 'SO-2026-0041' })).toHaveAttribute('href', '/admin/orders/41');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    const overdue = within(table).getByText('Overdue 12d');
    expect(overdue).toHaveClass('badge--danger');
    expect(within(table).getByText('Paid')).toHaveClass('badge--success');

    expect(await screen.findByTestId('total-ar')).toHaveTextContent('$216.50');
    expect(screen.getByTestId('overdue')).toHaveTextContent('$108.25');
    expect(screen.getByTestId('overdue')).toHaveTextContent('1 invoice past due');
    expect(screen.getByTestId('overdue')).toHaveClass('stat--danger');

    // The first page, no filter: the server's default (all).
    expect(lists[0]?.get('status')).toBeNull();
    expect(lists[0]?.get('limit')).toBe('25');
    expect(lists[0]?.get('offset')).toBe('0');
  });

  it('filters by status on the server from the tabs', async () => {
    const lists = serve();
    renderAt('/admin/invoices');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Invoices' });
    await within(table).findByText('INV-2026-0001');

    await user.click(screen.getByRole('tab', { name: 'Overdue' }));
    await vi.waitFor(() => expect(within(table).queryByText('INV-2026-0001')).not.toBeInTheDocument());
    expect(within(table).getByText('INV-2026-0002')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Overdue' })).toHaveAttribute('aria-selected', 'true');
    expect(lists.at(-1)?.get('status')).toBe('overdue');

    await user.click(screen.getByRole('tab', { name: 'Voided' }));
    expect(await screen.findByText('No voided invoices')).toBeInTheDocument();
    expect(lists.at(-1)?.get('status')).toBe('voided');

    // Back to All: the first page again (from the cache: it was just fetched).
    await user.click(screen.getByRole('tab', { name: 'All' }));
    expect(await within(table).findByText('INV-2026-0003')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  });

  it('searches and sorts on the server', async () => {
    const lists = serve();
    renderAt('/admin/invoices');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Invoices' });
    await within(table).findByText('INV-2026-0001');

    await user.type(screen.getByRole('searchbox', { name: 'Search invoices' }), 'olive{Enter}');
    await vi.waitFor(() => expect(within(table).queryByText('INV-2026-0001')).not.toBeInTheDocument());
    expect(lists.at(-1)?.get('search')).toBe('olive');

    await user.click(within(table).getByRole('button', { name: /Due/ }));
    await vi.waitFor(() => expect(lists.at(-1)?.get('sort_by')).toBe('due_date'));
    expect(lists.at(-1)?.get('sort_order')).toBe('asc');
  });

  it("narrows to one customer's invoices from the URL", async () => {
    const lists = serve();
    renderAt('/admin/invoices?status=open&customer=3');
    await screen.findByRole('table', { name: 'Invoices' });
    await vi.waitFor(() => expect(lists.at(-1)?.get('customer_id')).toBe('3'));
    expect(lists.at(-1)?.get('status')).toBe('open');
    expect(screen.getByRole('tab', { name: 'Open' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText(/Customer: Bea Buyer/)).toBeInTheDocument();
  });
});
