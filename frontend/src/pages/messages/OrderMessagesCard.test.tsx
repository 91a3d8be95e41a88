import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { OrderMessagesCard } from './OrderMessagesCard';

afterEach(() => vi.unstubAllGlobals());

const THREAD = {
  thread_id: '6f1c8f0e-1111-4a51-9d2b-000000000001',
  thread_subject: 'Where is my order?',
  sales_order_id: 9,
  order_number: 'SO-2026-0009',
  customer_name: 'Bea Buyer',
  message_count: 3,
  unread_count: 2,
  last_message_at: '2026-03-03T10:00:00Z',
  last_message_preview: 'Called again.',
  last_sender_name: 'Bea Buyer',
  awaiting_reply: true,
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serve(threads: unknown[], post: (body: Record<string, unknown>) => Response) {
  let rows = threads;
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
        if (res.ok) {
          const m = (await res.clone().json()) as Record<string, string>;
          rows = [{ ...THREAD, thread_id: m.thread_id, thread_subject: m.thread_subject, message_count: 1, unread_count: 1, last_message_preview: m.body }, ...rows];
        }
        return res;
      }
      if (url.pathname === '/api/v1/notifications') {
        lists.push(url.searchParams);
        return json(200, rows);
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return { lists, posts };
}

function wrap() {
  return render(
    <MemoryRouter>
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <OrderMessagesCard order={{ id: 9, order_number: 'SO-2026-0009', customer_name: 'Bea Buyer' }} />
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const recorded = (body: Record<string, unknown>) =>
  json(201, {
    id: 12,
    thread_id: '6f1c8f0e-4444-4a51-9d2b-000000000004',
    thread_subject: body.subject,
    sales_order_id: 9,
    sender_type: body.sender_type ?? 'admin',
    sender_name: 'Bea Buyer',
    body: body.body,
    read_at: null,
    source: body.source ?? 'admin',
    emailed_to: null,
    created_at: '2026-03-09T10:00:00Z',
  });

describe("an order's messages", () => {
  it('lists its conversations linked to the inbox, with unread and awaiting-reply chips', async () => {
    const { lists } = serve([THREAD], () => json(500, {}));
    wrap();
    const list = await screen.findByRole('list', { name: 'Conversations about the order' });
    expect(within(list).getByRole('link', { name: 'Where is my order?' })).toHaveAttribute('href', `/admin/messages?thread=${THREAD.thread_id}`);
    expect(within(list).getByText('2 unread')).toHaveClass('badge--info');
    expect(within(list).getByText('Awaiting reply')).toBeInTheDocument();
    expect(within(list).getByText(/3 messages · last/)).toHaveTextContent('by Bea Buyer');
    expect(lists[0]?.get('sales_order_id')).toBe('9');
  });

  it("records the customer's call from \"Message customer\" with the order preset; the server's refusals show in the dialog", async () => {
    let answer = 0;
    const { posts } = serve([], (body) => {
      answer += 1;
      if (answer === 1) {
        return json(422, { detail: 'Request validation failed', details: { errors: [{ field: 'subject', message: 'String should have at most 200 characters', type: 'value_error' }] } });
      }
      if (answer === 2) return json(403, { detail: 'You can only write on your own orders' });
      return recorded(body);
    });
    wrap();
    const user = userEvent.setup();
    expect(await screen.findByText('No messages about this order yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Message customer' }));
    const dialog = screen.getByRole('dialog', { name: 'Message customer · SO-2026-0009' });
    // The order is preset: no picker.
    expect(within(dialog).queryByLabelText('Find an order')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'E-mail to customer' })).toBeChecked();
    await user.selectOptions(within(dialog).getByLabelText(/^From/), 'customer');
    expect(within(dialog).queryByRole('checkbox', { name: 'E-mail to customer' })).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText(/^Came in by/), 'phone');
    await user.type(within(dialog).getByLabelText(/^Subject/), 'Delivery window');
    await user.type(within(dialog).getByLabelText(/^Message/), 'Asked for delivery after 5 pm.');

    await user.click(within(dialog).getByRole('button', { name: 'Record message' }));
    expect(await within(dialog).findByText('String should have at most 200 characters')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Subject/)).toHaveAttribute('aria-invalid', 'true');

    await user.click(within(dialog).getByRole('button', { name: 'Record message' }));
    expect(await within(dialog).findByText('You can only write on your own orders')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Record message' }));
    expect(await screen.findByText('Message recorded')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const body = { sales_order_id: 9, subject: 'Delivery window', body: 'Asked for delivery after 5 pm.', sender_type: 'customer', source: 'phone' };
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/notifications', body],
      ['/api/v1/notifications', body],
      ['/api/v1/notifications', body],
    ]);
    // One key for the dialog: a retry of the same message is written once.
    expect(new Set(posts.map((p) => p.key)).size).toBe(1);
    const list = await screen.findByRole('list', { name: 'Conversations about the order' });
    expect(within(list).getByRole('link', { name: 'Delivery window' })).toBeInTheDocument();
  });
});
