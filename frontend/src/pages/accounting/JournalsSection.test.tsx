import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { defaultStart, JournalsSection } from './JournalsSection';

afterEach(() => vi.unstubAllGlobals());

const window = { start_date: '2026-03-01', end_date: '2026-03-30' };

const SALES = {
  ...window,
  rows: [
    { journal_entry_id: 7, entry_number: 'JE-2026-000007', date: '2026-03-05', sales_order_id: 1, order_number: 'SO-2026-0001', customer_id: 3, customer_name: 'Bea Buyer', subtotal: '50.00', tax: '4.13', shipping: '5.00', grand_total: '59.13' },
  ],
  total: 1,
  limit: 500,
  offset: 0,
  totals: { invoice_count: 1, subtotal: '50.00', tax: '4.13', shipping: '5.00', grand_total: '59.13' },
};
const PAYMENTS = {
  ...window,
  rows: [
    { journal_entry_id: 8, entry_number: 'JE-2026-000008', date: '2026-03-06', payment_id: 1, payment_number: 'PAY-2026-0001', kind: 'payment', payment_method: 'cash', payment_status: 'completed', sales_order_id: 1, order_number: 'SO-2026-0001', customer_name: 'Bea Buyer', amount: '59.13' },
    { journal_entry_id: 9, entry_number: 'JE-2026-000009', date: '2026-03-07', payment_id: 2, payment_number: 'PAY-2026-0002', kind: 'refund', payment_method: 'cash', payment_status: 'completed', sales_order_id: 1, order_number: 'SO-2026-0001', customer_name: 'Bea Buyer', amount: '-5.00' },
  ],
  total: 2,
  limit: 500,
  offset: 0,
  totals: { entry_count: 2, payments: '59.13', refunds: '-5.00', voids: '0.00', net: '54.13' },
  by_method: [{ payment_method: 'cash', entry_count: 2, amount: '54.13' }],
};
const EMPTY_TAX = {
  ...window,
  periods: [{ period: '2026-03', start_date: '2026-03-01', end_date: '2026-03-30', invoice_count: 0, taxable_sales: '0.00', non_taxable_sales: '0.00', tax_collected: '0.00' }],
  totals: { invoice_count: 0, taxable_sales: '0.00', non_taxable_sales: '0.00', tax_collected: '0.00' },
};

function answer(path: string) {
  if (path.endsWith('/sales-journal')) return { status: 200, body: SALES };
  if (path.endsWith('/payments-journal')) return { status: 200, body: PAYMENTS };
  return { status: 200, body: EMPTY_TAX };
}

function stubFetch(answer: (path: string) => { status: number; body: unknown }) {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      urls.push(url);
      const { status, body } = answer(url.pathname);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return urls;
}

function wrap() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <JournalsSection />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('journals', () => {
  it('defaults to the last 30 days', () => {
    expect(defaultStart('2026-03-30')).toBe('2026-03-01');
    expect(defaultStart('2026-01-10')).toBe('2025-12-12');
  });

  it('shows the sales and payments journals and the tax summary of the range with totals and CSV links', async () => {
    const urls = stubFetch(answer);
    wrap();
    const user = userEvent.setup();
    const sales = await screen.findByRole('table', { name: 'Sales journal' });
    expect(within(sales).getByText('SO-2026-0001')).toBeInTheDocument();
    expect(within(sales).getByText('Bea Buyer')).toBeInTheDocument();
    expect(screen.getByTestId('sales-total')).toHaveTextContent('59.13');
    const payments = await screen.findByRole('table', { name: 'Payments journal' });
    expect(within(payments).getByText('Refund')).toBeInTheDocument();
    expect(screen.getByTestId('payments-net')).toHaveTextContent('54.13');
    expect(await screen.findByTestId('tax-total')).toHaveTextContent('0.00');

    const link = screen.getByRole('link', { name: 'Download sales journal as CSV' });
    expect(link.getAttribute('href')).toContain('/api/v1/admin/accounting/sales-journal/export?start_date=');

    // A new range asks again with its dates.
    const from = screen.getByLabelText('From date');
    await user.clear(from);
    await user.type(from, '2026-01-01');
    await vi.waitFor(() => expect(urls.some((u) => u.pathname.endsWith('/sales-journal') && u.searchParams.get('start_date') === '2026-01-01')).toBe(true));
  });

  it('says when nothing was booked and shows a failure with a retry', async () => {
    stubFetch((path) => {
      if (path.endsWith('/sales-journal')) return { status: 200, body: { ...SALES, rows: [], total: 0 } };
      if (path.endsWith('/payments-journal')) return { status: 500, body: { detail: 'boom' } };
      return { status: 200, body: EMPTY_TAX };
    });
    wrap();
    expect(await screen.findByText('No invoices')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /try again/i }, { timeout: 5000 })).toBeInTheDocument();
  });

  it('refuses a start after the end without asking the server', async () => {
    const urls = stubFetch(answer);
    wrap();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Sales journal' });
    const before = urls.length;
    const from = screen.getByLabelText('From date');
    await user.clear(from);
    await user.type(from, '2999-01-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('The start date must be on or before the end date.');
    expect(urls.slice(before).some((u) => u.searchParams.get('start_date') === '2999-01-01')).toBe(false);
  });
});
