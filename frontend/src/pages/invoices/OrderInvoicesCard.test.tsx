import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { OrderInvoicesCard } from './OrderInvoicesCard';

afterEach(() => vi.unstubAllGlobals());

const DEPOSIT = {
  id: 4,
  invoice_number: 'INV-2026-0004',
  sales_order_id: 9,
  order_number: 'SO-2026-0009',
  customer_id: 3,
  customer_name: 'Bea Buyer',
  customer_company: null,
  payment_terms: 'net30',
  invoice_date: '2026-03-01',
  due_date: '2026-03-31',
  total: '40.00',
  amount_paid: '40.00',
  amount_due: '0.00',
  status: 'paid',
  display_status: 'paid',
  is_overdue: false,
  days_overdue: 0,
  created_at: '2026-03-01T10:00:00Z',
  sent_at: null,
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serve(post: (body: Record<string, unknown>) => Response) {
  let invoices: unknown[] = [DEPOSIT];
  const lists: URLSearchParams[] = [];
  const posts: { path: string; key: string | null; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        posts.push({ path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body });
        const res = post(body);
        if (res.ok) invoices = [...invoices, await res.clone().json()];
        return res;
      }
      lists.push(url.searchParams);
      return json(200, invoices);
    }),
  );
  return { lists, posts };
}

function wrap(status = 'confirmed') {
  return render(
    <MemoryRouter>
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <OrderInvoicesCard order={{ id: 9, order_number: 'SO-2026-0009', status, grand_total: '100.00' }} />
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe("an order's invoices", () => {
  it('lists them with links and what is left to invoice, then creates a deposit invoice', async () => {
    const { lists, posts } = serve((body) =>
      // Someone else billed part of the order meanwhile: the server's 422 lands on the field.
      body.amount === '55'
        ? json(422, { detail: 'Request validation failed', details: { errors: [{ field: 'amount', message: 'Amount (55) exceeds what is left to invoice (50.00)', type: 'value_error' }] } })
        : json(201, { ...DEPOSIT, id: 6, invoice_number: 'INV-2026-0006', total: body.amount, amount_paid: '0.00', amount_due: body.amount, status: 'draft', display_status: 'draft' }),
    );
    wrap();
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Invoices of the order' });
    expect(within(table).getByRole('link', { name: 'INV-2026-0004' })).toHaveAttribute('href', '/admin/invoices/4');
    expect(screen.getByTestId('left-to-invoice')).toHaveTextContent('$60.00 of the order is not invoiced yet.');
    expect(lists[0]?.get('sales_order_id')).toBe('9');

    await user.click(screen.getByRole('button', { name: 'Create invoice' }));
    const dialog = screen.getByRole('dialog', { name: 'Create invoice · SO-2026-0009' });
    const amount = within(dialog).getByLabelText(/Deposit amount/);
    await user.type(amount, '60.01');
    await user.click(within(dialog).getByRole('button', { name: 'Create invoice' }));
    expect(await within(dialog).findByText('At most $60.00 is left to invoice.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '55');
    await user.click(within(dialog).getByRole('button', { name: 'Create invoice' }));
    expect(await within(dialog).findByText('Amount (55) exceeds what is left to invoice (50.00)')).toBeInTheDocument();

    await user.clear(amount);
    await user.type(amount, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByText('Invoice created')).toBeInTheDocument();
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/invoices', { sales_order_id: 9, amount: '55' }],
      ['/api/v1/invoices', { sales_order_id: 9, amount: '25' }],
    ]);
    // One key for the dialog: a retry of the same invoice is written once.
    expect(posts[0]?.key).toBeTruthy();
    expect(posts[1]?.key).toBe(posts[0]?.key);
    expect(await within(table).findByRole('link', { name: 'INV-2026-0006' })).toBeInTheDocument();
  });

  it('bills everything left when the amount is left empty', async () => {
    const { posts } = serve(() => json(201, { ...DEPOSIT, id: 7, invoice_number: 'INV-2026-0007', total: '60.00', status: 'draft', display_status: 'draft' }));
    wrap('shipped');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create invoice' }));
    const dialog = screen.getByRole('dialog', { name: 'Create invoice · SO-2026-0009' });
    await user.click(within(dialog).getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByText('Invoice created')).toBeInTheDocument();
    expect(posts.map((p) => p.body)).toEqual([{ sales_order_id: 9 }]);
  });

  it('is not offered before the order is confirmed', async () => {
    serve(() => json(500, {}));
    wrap('pending');
    await screen.findByRole('table', { name: 'Invoices of the order' });
    expect(screen.queryByRole('button', { name: 'Create invoice' })).not.toBeInTheDocument();
  });
});
