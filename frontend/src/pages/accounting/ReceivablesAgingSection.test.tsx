import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import { agingBar } from './agingBuckets';
import { ReceivablesAgingSection } from './ReceivablesAgingSection';

afterEach(() => vi.unstubAllGlobals());

const row = (customer_id: number | null, customer_name: string, buckets: [string, string, string, string, string], total: string, invoice_count: number) => ({
  customer_id,
  customer_name,
  current: buckets[0],
  days_1_30: buckets[1],
  days_31_60: buckets[2],
  days_61_90: buckets[3],
  over_90: buckets[4],
  total,
  invoice_count,
  oldest_due_date: '2026-01-10',
});

const AGING = {
  as_of: '2026-03-30',
  ledger_agrees: true,
  ledger_balance: '350.00',
  customers: [row(3, 'Bea Buyer', ['100.00', '50.00', '0.00', '0.00', '0.00'], '150.00', 2), row(4, 'Olive Late', ['0.00', '0.00', '0.00', '80.00', '120.00'], '200.00', 2)],
  totals: row(null, 'Total', ['100.00', '50.00', '0.00', '80.00', '120.00'], '350.00', 4),
};

function stubFetch(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })),
  );
}

function wrap() {
  return render(
    <MemoryRouter>
      <QueryClientProvider client={createQueryClient()}>
        <ReceivablesAgingSection />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe('AR ageing', () => {
  it('turns a row into chart numbers', () => {
    expect(agingBar('All', AGING.totals)).toEqual({ name: 'All', current: 100, days_1_30: 50, days_31_60: 0, days_61_90: 80, over_90: 120 });
  });

  it('lists what each customer owes by bucket with the totals, linked to their open invoices', async () => {
    stubFetch(AGING);
    wrap();
    const table = await screen.findByRole('table', { name: 'Receivables by customer' });
    const olive = within(table).getByRole('link', { name: 'Olive Late' });
    expect(olive).toHaveAttribute('href', '/admin/invoices?status=open&customer=4');
    const oliveRow = olive.closest('tr') as HTMLElement;
    expect(within(oliveRow).getByText('$120.00')).toHaveClass('text-danger');
    expect(within(oliveRow).getByText('$200.00')).toBeInTheDocument();
    expect(screen.getByTestId('aging-totals')).toHaveTextContent(/Total\$100\.00\$50\.00\$0\.00\$80\.00\$120\.00\$350\.00/);
    expect(screen.getByRole('img', { name: /Stacked bar chart of what is owed: Current \$100\.00, 1–30 days \$50\.00/ })).toBeInTheDocument();
    expect(screen.getByTestId('ledger-check')).toHaveTextContent('Reconciled');
    expect(screen.queryByText('Ledger differs')).not.toBeInTheDocument();
  });

  it('warns when 1100 does not agree with the open invoices', async () => {
    stubFetch({ ...AGING, ledger_agrees: false, ledger_balance: '375.00' });
    wrap();
    expect(await screen.findByText('Ledger differs')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('1100 Accounts Receivable is $375.00, the open invoices total $350.00');
  });

  it('says so when nothing is owed', async () => {
    stubFetch({ ...AGING, ledger_balance: '0.00', customers: [], totals: row(null, 'Total', ['0.00', '0.00', '0.00', '0.00', '0.00'], '0.00', 0) });
    wrap();
    expect(await screen.findByText('Nothing is owed')).toBeInTheDocument();
  });
});
