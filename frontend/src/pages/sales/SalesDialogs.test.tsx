import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { PaymentDialog, ShipDialog } from './SalesDialogs';

afterEach(() => vi.unstubAllGlobals());

interface Post {
  path: string;
  key: string | null;
  body: unknown;
}

function stubFetch(answer: (path: string) => unknown) {
  const posts: Post[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (init.method === 'POST') posts.push({ path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(answer(url.pathname)), { status: init.method === 'POST' ? 201 : 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return posts;
}

function wrap(node: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>{node}</ToastProvider>
    </QueryClientProvider>,
  );
}

describe('ship dialog', () => {
  it('asks for a carrier, then posts carrier, service and tracking with an Idempotency-Key', async () => {
    const posts = stubFetch(() => ({ message: 'ok', carrier: 'UPS', service: 'Ground', tracking_number: '1Z', shipped_at: '2026-11-24T00:00:00Z', sales_order_id: 9 }));
    const onClose = vi.fn();
    wrap(<ShipDialog order={{ id: 9, order_number: 'SO-2026-0009' }} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    const carrier = within(dialog).getByLabelText(/Carrier/);
    await user.clear(carrier);
    await user.click(within(dialog).getByRole('button', { name: 'Ship order' }));
    expect(await within(dialog).findByText('Enter the carrier.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.type(carrier, 'UPS');
    const service = within(dialog).getByLabelText(/Service/);
    await user.clear(service);
    await user.type(service, 'Ground');
    await user.type(within(dialog).getByLabelText(/Tracking number/), '1Z');
    await user.click(within(dialog).getByRole('button', { name: 'Ship order' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toHaveLength(1);
    expect(posts[0]?.path).toBe('/api/v1/sales-orders/9/ship');
    expect(posts[0]?.body).toEqual({ carrier: 'UPS', service: 'Ground', tracking_number: '1Z' });
    expect(posts[0]?.key).toMatch(/.{8,}/);
  });
});

describe('payment dialog', () => {
  it('refuses a refund above what was paid, then posts the refund', async () => {
    const posts = stubFetch(() => ({ id: 1, payment_number: 'PAY-2026-0001', order_number: 'SO-2026-0009' }));
    const onClose = vi.fn();
    wrap(<PaymentDialog mode="refund" orderId={9} orderLabel="SO-2026-0009" maxRefund={20} open onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    const amount = within(dialog).getByLabelText(/Amount/);
    await user.type(amount, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    expect(await within(dialog).findByText('At most 20 can be refunded.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/payments/refund', { sales_order_id: 9, amount: '20', payment_method: 'cash', transaction_id: null, check_number: null, notes: null }],
    ]);
    expect(posts[0]?.key).toBeTruthy();
  });
});
