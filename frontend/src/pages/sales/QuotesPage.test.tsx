import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

const quote = (id: number, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  quote_number: `Q-2026-000${id}`,
  product_id: null,
  product_name: `Bracket ${id}`,
  description: null,
  quantity: 2,
  unit_price: '12.50',
  subtotal: '25.00',
  tax_rate: '0',
  tax_amount: '0.00',
  shipping_cost: '0.00',
  total_price: '25.00',
  status,
  expired: false,
  customer_id: null,
  customer_name: null,
  customer_email: 'a@example.com',
  material_type: 'PLA',
  color: null,
  has_image: false,
  customer_notes: null,
  admin_notes: null,
  rejection_reason: null,
  shipping_name: null,
  shipping_address_line1: '1 Main St',
  shipping_address_line2: null,
  shipping_city: 'Springfield',
  shipping_state: null,
  shipping_zip: null,
  shipping_country: 'USA',
  shipping_phone: null,
  expires_at: '2026-12-24T12:00:00Z',
  approved_at: null,
  converted_at: null,
  sales_order_id: status === 'converted' ? 9 : null,
  created_at: '2026-11-24T12:00:00Z',
  updated_at: '2026-11-24T12:00:00Z',
  ...extra,
});

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: body === undefined ? {} : { 'Content-Type': 'application/json' } });

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** GET /quotes/ lists `rows`; writes go to `write` and are recorded. */
function serve(rows: ReturnType<typeof quote>[], write: (c: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      if (method !== 'GET') {
        const call = { method, path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : undefined };
        calls.push(call);
        return write(call);
      }
      switch (url.pathname) {
        case '/api/v1/auth/me':
          return json(200, admin);
        case '/api/v1/quotes/':
          return json(200, rows);
        case '/api/v1/quotes/stats':
          return json(200, { total: rows.length, pending: 1, approved: 1, accepted: 0, rejected: 0, converted: 1, expired: 0, total_value: '75.00', pending_value: '25.00' });
        default:
          return json(404, { detail: 'Not Found' });
      }
    }),
  );
  return calls;
}

function renderQuotes() {
  return render(
    <MemoryRouter initialEntries={['/admin/quotes']}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('quotes page: edit', () => {
  it('is offered except on a converted quote; shows the 422 on its field and the 400 in the form, then saves the changes', async () => {
    let answer = 0;
    const calls = serve([quote(1, 'approved'), quote(2, 'converted')], (c) => {
      answer += 1;
      if (answer === 1)
        return json(422, {
          error: 'VALIDATION_ERROR',
          message: 'Request validation failed',
          details: { errors: [{ field: 'unit_price', message: 'Input should be greater than or equal to 0', type: 'value_error' }] },
        });
      if (answer === 2) return json(400, { detail: 'Cannot edit a converted quote' });
      return json(200, { ...quote(1, 'approved'), ...(c.body as object), total_price: '62.50' });
    });
    renderQuotes();
    const user = userEvent.setup();
    await screen.findByText('Bracket 1');
    expect(screen.getByRole('button', { name: 'Edit Q-2026-0001' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Q-2026-0002' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Q-2026-0002' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Q-2026-0001' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Q-2026-0001' });
    expect(within(dialog).getByLabelText(/What is quoted/)).toHaveValue('Bracket 1');
    expect(within(dialog).getByLabelText(/Street/)).toHaveValue('1 Main St');
    const quantity = within(dialog).getByLabelText(/Quantity/);
    await user.clear(quantity);
    await user.type(quantity, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save quote' }));
    expect(await within(dialog).findByText('Enter a whole quantity from 1 to 10000.')).toBeInTheDocument();
    expect(calls).toEqual([]);

    await user.clear(quantity);
    await user.type(quantity, '5');
    await user.type(within(dialog).getByLabelText(/Color/), ' Blue ');
    await user.click(within(dialog).getByRole('button', { name: 'Save quote' }));
    const price = within(dialog).getByLabelText(/Unit price/);
    await vi.waitFor(() => expect(price).toHaveAccessibleDescription('Input should be greater than or equal to 0'));

    await user.click(within(dialog).getByRole('button', { name: 'Save quote' }));
    expect(await within(dialog).findByText('Cannot edit a converted quote')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save quote' }));
    expect(await screen.findByText('Quote saved')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toHaveLength(3);
    expect(calls[2]).toEqual({
      method: 'PATCH',
      path: '/api/v1/quotes/1',
      body: {
        product_name: 'Bracket 1',
        description: null,
        quantity: 5,
        unit_price: '12.50',
        shipping_cost: '0.00',
        color: 'Blue',
        customer_notes: null,
        admin_notes: null,
        shipping_name: null,
        shipping_address_line1: '1 Main St',
        shipping_address_line2: null,
        shipping_city: 'Springfield',
        shipping_state: null,
        shipping_zip: null,
        shipping_country: 'USA',
        shipping_phone: null,
      },
    });
  });
});

describe('quotes page: delete', () => {
  it('asks first, sends nothing when kept, deletes on confirm and shows a refusal on the page', async () => {
    let refuse = true;
    const calls = serve([quote(1, 'pending'), quote(3, 'rejected')], () => {
      if (refuse) {
        refuse = false;
        return json(400, { detail: 'Cannot delete a converted quote' });
      }
      return json(204);
    });
    renderQuotes();
    const user = userEvent.setup();
    await screen.findByText('Bracket 1');

    await user.click(screen.getByRole('button', { name: 'Delete Q-2026-0001' }));
    let confirm = screen.getByRole('alertdialog', { name: 'Delete Q-2026-0001?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls).toEqual([]);

    // Converted meanwhile: the server's 400 lands on the page.
    await user.click(screen.getByRole('button', { name: 'Delete Q-2026-0001' }));
    confirm = screen.getByRole('alertdialog', { name: 'Delete Q-2026-0001?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete quote' }));
    expect(await screen.findByText('Cannot delete a converted quote')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Q-2026-0003' }));
    confirm = screen.getByRole('alertdialog', { name: 'Delete Q-2026-0003?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete quote' }));
    expect(await screen.findByText('Quote deleted')).toBeInTheDocument();
    expect(screen.queryByText('Cannot delete a converted quote')).not.toBeInTheDocument();
    expect(calls.map((c) => [c.method, c.path])).toEqual([
      ['DELETE', '/api/v1/quotes/1'],
      ['DELETE', '/api/v1/quotes/3'],
    ]);
  });
});
