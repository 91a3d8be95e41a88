import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

type Invoice = Record<string, unknown>;

const invoice = (extra: Invoice = {}): Invoice => ({
  id: 5,
  invoice_number: 'INV-2026-0005',
  sales_order_id: 9,
  order_number: 'SO-2026-0009',
  shipment_id: null,
  customer_id: 3,
  customer_name: 'Bea Buyer',
  customer_email: 'bea@buyer.example.com',
  customer_company: 'Buyer & Co',
  bill_to_line1: '12 Harbor Rd',
  bill_to_city: 'Portland',
  bill_to_state: 'ME',
  bill_to_zip: '04101',
  payment_terms: 'net30',
  invoice_date: '2026-03-01',
  due_date: '2026-03-31',
  subtotal: '100.00',
  discount_amount: '10.00',
  tax_rate: '0.0825',
  tax_amount: '7.43',
  shipping_amount: '5.00',
  total: '102.43',
  status: 'partially_paid',
  display_status: 'overdue',
  is_overdue: true,
  days_overdue: 4,
  amount_paid: '40.00',
  amount_due: '62.43',
  paid_at: null,
  payment_method: 'check',
  payment_reference: 'CHK-7',
  sent_at: '2026-03-01T11:00:00Z',
  sent_to: 'bea@buyer.example.com',
  voided_at: null,
  voided_by_id: null,
  void_reason: null,
  journal_entry_id: 12,
  created_by: 1,
  created_at: '2026-03-01T10:00:00Z',
  updated_at: '2026-03-02T10:00:00Z',
  lines: [
    { id: 1, sales_order_line_id: 1, product_id: 7, sku: 'PLA-BLK', description: 'Black PLA bracket', quantity: '4', unit_price: '25.00', base_price: null, discount_percent: null, line_total: '100.00' },
  ],
  ...extra,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Write {
  method: string;
  path: string;
  key: string | null;
  body: Record<string, unknown>;
}

/** The invoice's routes; writes go to `write`, which may change the invoice or refuse. */
function serve(start: Invoice, write: (w: Write, current: Invoice) => Response) {
  let current = start;
  const writes: Write[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (init.method === 'PATCH' || init.method === 'POST') {
        const w = { method: init.method, path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body: JSON.parse(String(init.body)) as Record<string, unknown> };
        writes.push(w);
        const res = write(w, current);
        if (res.ok) current = (await res.clone().json()) as Invoice;
        return res;
      }
      switch (url.pathname) {
        case '/api/v1/auth/me':
          return json(200, admin);
        case '/api/v1/invoices/5':
          return json(200, current);
        default:
          return json(404, { detail: 'Not Found' });
      }
    }),
  );
  return writes;
}

function renderInvoice() {
  localStorage.setItem('adminUser', JSON.stringify(admin));
  return render(
    <MemoryRouter initialEntries={['/admin/invoices/5']}>
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

describe('invoice page', () => {
  it('shows the header, the lines and the totals', async () => {
    serve(invoice(), () => json(500, {}));
    renderInvoice();
    expect(await screen.findByRole('heading', { name: 'INV-2026-0005' })).toBeInTheDocument();
    expect(screen.getByText('Overdue 4d')).toHaveClass('badge--danger');
    expect(screen.getByRole('link', { name: 'SO-2026-0009' })).toHaveAttribute('href', '/admin/orders/9');
    expect(screen.getByTestId('bill-to')).toHaveTextContent(/Bea Buyer.*Buyer & Co.*12 Harbor Rd.*Portland ME 04101/s);
    expect(screen.getAllByText('Net 30').length).toBeGreaterThan(0);

    const lines = screen.getByRole('table', { name: 'Invoice lines' });
    expect(within(lines).getByText('Black PLA bracket')).toBeInTheDocument();
    expect(within(lines).getByText('PLA-BLK')).toBeInTheDocument();
    expect(screen.getByTestId('subtotal')).toHaveTextContent('$100.00');
    expect(screen.getByTestId('discount')).toHaveTextContent('$10.00');
    expect(within(lines).getByText('Tax (8.25%)')).toBeInTheDocument();
    expect(screen.getByTestId('tax')).toHaveTextContent('$7.43');
    expect(screen.getByTestId('shipping')).toHaveTextContent('$5.00');
    expect(screen.getByTestId('total')).toHaveTextContent('$102.43');
    expect(screen.getByTestId('paid')).toHaveTextContent('$40.00');
    expect(screen.getByTestId('due')).toHaveTextContent('$62.43');
    expect(screen.getByTestId('amount-due')).toHaveClass('stat--danger');
    expect(screen.getByTestId('payment-details')).toHaveTextContent('Check · ref. CHK-7');

    expect(screen.getByRole('link', { name: 'PDF of INV-2026-0005' })).toHaveAttribute('href', '/api/v1/invoices/5/pdf');
    expect(screen.getByRole('button', { name: 'Record payment' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark sent' })).not.toBeInTheDocument();
  });

  it('refuses a payment above what is due, then records one of what is due', async () => {
    const writes = serve(invoice(), (w, cur) => json(200, { ...cur, amount_paid: '102.43', amount_due: '0.00', status: 'paid', display_status: 'paid', is_overdue: false, days_overdue: 0, payment_method: w.body.payment_method }));
    renderInvoice();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Record payment' }));
    const dialog = screen.getByRole('dialog', { name: 'Record a payment · INV-2026-0005' });
    const amount = within(dialog).getByLabelText(/Amount/);
    expect(amount).toHaveValue('62.43');

    await user.clear(amount);
    await user.type(amount, '62.44');
    await user.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await within(dialog).findByText('At most $62.43 is due on this invoice.')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await within(dialog).findByText('Enter an amount greater than 0, in cents at most.')).toBeInTheDocument();
    expect(writes).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '62.43');
    await user.selectOptions(within(dialog).getByLabelText(/Method/), 'zelle');
    await user.type(within(dialog).getByLabelText(/Reference/), ' ZL-1 ');
    await user.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText('Payment recorded')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(writes.map((w) => [w.method, w.path, w.body])).toEqual([['PATCH', '/api/v1/invoices/5', { amount_paid: '62.43', payment_method: 'zelle', payment_reference: 'ZL-1' }]]);
    expect(writes[0]?.key).toBeTruthy();
    await vi.waitFor(() => expect(screen.getByTestId('due')).toHaveTextContent('$0.00'));
    expect(screen.queryByRole('button', { name: 'Record payment' })).not.toBeInTheDocument();
  });

  it('asks for a reason before voiding, and shows the refusal when payments are applied', async () => {
    const writes = serve(invoice(), () =>
      json(409, { detail: 'Invoice INV-2026-0005 has payments applied (40.00); refund or void them first, then void the invoice' }),
    );
    renderInvoice();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Void' }));
    const dialog = screen.getByRole('dialog', { name: 'Void INV-2026-0005?' });
    await user.click(within(dialog).getByRole('button', { name: 'Void invoice' }));
    expect(await within(dialog).findByText('Say why the invoice is voided.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Reason/), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Void invoice' }));
    expect(await within(dialog).findByText('Say why the invoice is voided.')).toBeInTheDocument();
    expect(writes).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Reason/), 'Billed twice');
    await user.click(within(dialog).getByRole('button', { name: 'Void invoice' }));
    expect(await within(dialog).findByText(/has payments applied \(40\.00\); refund or void them first/)).toBeInTheDocument();
    expect(within(dialog).getByText('The invoice was not voided')).toBeInTheDocument();
    expect(writes.map((w) => [w.path, w.body])).toEqual([['/api/v1/invoices/5/void', { reason: 'Billed twice' }]]);
  });

  it('voids an invoice with nothing paid and shows why', async () => {
    const writes = serve(invoice({ status: 'sent', display_status: 'sent', is_overdue: false, days_overdue: 0, amount_paid: '0.00', amount_due: '102.43', payment_method: null, payment_reference: null }), (w, cur) =>
      json(200, { ...cur, status: 'voided', display_status: 'voided', amount_due: '0.00', voided_at: '2026-03-05T09:00:00Z', void_reason: w.body.reason }),
    );
    renderInvoice();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Void' }));
    const dialog = screen.getByRole('dialog', { name: 'Void INV-2026-0005?' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Order cancelled');
    await user.click(within(dialog).getByRole('button', { name: 'Void invoice' }));
    expect(await screen.findByText('Invoice voided')).toBeInTheDocument();
    expect(await screen.findByTestId('void-notice')).toHaveTextContent('Order cancelled');
    expect(writes).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Void' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it("sends to the customer's address by default, or to another one", async () => {
    const writes = serve(invoice({ status: 'draft', display_status: 'draft', is_overdue: false, days_overdue: 0, sent_at: null, sent_to: null }), (w, cur) =>
      json(200, { ...cur, status: 'sent', display_status: 'sent', sent_at: '2026-03-05T09:00:00Z', sent_to: w.body.to ?? cur.customer_email }),
    );
    renderInvoice();
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'Mark sent' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = screen.getByRole('dialog', { name: 'Send INV-2026-0005' });
    const to = within(dialog).getByLabelText(/E-mail/);
    expect(to).toHaveValue('bea@buyer.example.com');
    await user.clear(to);
    await user.type(to, 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Send invoice' }));
    expect(await within(dialog).findByText(/Enter a valid e-mail address/)).toBeInTheDocument();
    expect(writes).toEqual([]);

    await user.clear(to);
    await user.type(to, 'ap@buyer.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invoice' }));
    expect(await screen.findByText('Invoice sent')).toBeInTheDocument();
    expect(writes.map((w) => [w.path, w.body])).toEqual([['/api/v1/invoices/5/send', { to: 'ap@buyer.example.com' }]]);
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Mark sent' })).not.toBeInTheDocument());
  });
});
