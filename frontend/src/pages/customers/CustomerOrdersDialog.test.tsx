import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import type { CustomerListRow } from '../../api/model';
import { CustomerOrdersDialog } from './CustomerOrdersDialog';

afterEach(() => vi.unstubAllGlobals());

function stub(body: unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      urls.push(String(input));
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return urls;
}

const bea = { id: 7, email: 'bea@shop.test', full_name: 'Bea Buyer', order_count: 2 } as unknown as CustomerListRow;

function show(customer: CustomerListRow | null) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <CustomerOrdersDialog customer={customer} onClose={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('customer orders dialog', () => {
  it("lists the customer's latest orders with links to them", async () => {
    const urls = stub([
      { id: 12, order_number: 'SO-2026-0012', status: 'shipped', payment_status: 'paid', grand_total: 43.3, created_at: '2026-11-20T10:00:00Z' },
      { id: 9, order_number: 'SO-2026-0009', status: 'pending', payment_status: 'pending', grand_total: 10, created_at: '2026-11-02T10:00:00Z' },
    ]);
    show(bea);
    const dialog = screen.getByRole('dialog', { name: /Orders · Bea Buyer/ });
    const table = await within(dialog).findByRole('table', { name: 'Customer orders' });
    const links = within(table).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['SO-2026-0012', '/admin/orders/12'],
      ['SO-2026-0009', '/admin/orders/9'],
    ]);
    expect(within(table).getByText('Shipped')).toBeInTheDocument();
    expect(urls[0]).toContain('/api/v1/admin/customers/7/orders?limit=20');
  });

  it('says so when there are none, and asks nothing while closed', async () => {
    const urls = stub([]);
    const { unmount } = show(null);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(urls).toEqual([]);
    unmount();
    show(bea);
    expect(await screen.findByText('No orders yet')).toBeInTheDocument();
  });
});
