import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

const T1 = '6f1c8f0e-1111-4a51-9d2b-000000000001';
const T2 = '6f1c8f0e-2222-4a51-9d2b-000000000002';
const NEW = '6f1c8f0e-3333-4a51-9d2b-000000000003';

type Row = Record<string, unknown>;

const message = (id: number, thread: string, extra: Row = {}): Row => ({
  id,
  thread_id: thread,
  thread_subject: thread === T1 ? 'Where is my order?' : 'Colour question',
  sales_order_id: thread === T1 ? 41 : null,
  sender_type: 'customer',
  sender_name: 'Bea Buyer',
  body: `Message ${id}`,
  read_at: null,
  source: 'email',
  emailed_to: null,
  created_at: `2026-03-0${id}T10:00:00Z`,
  ...extra,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Post {
  path: string;
  key: string | null;
  body: Record<string, unknown>;
}

/**
 * The messages routes over an in-memory inbox: a thread's row (unread count, awaiting a
 * reply, the latest message) is worked out from its messages the way the server does.
 */
function serve({ empty = false, reply }: { empty?: boolean; reply?: (body: Record<string, unknown>) => Response | undefined } = {}) {
  const threads: Record<string, Row[]> = empty
    ? {}
    : {
        [T1]: [
          message(1, T1, { sender_type: 'admin', sender_name: 'Ada Admin', source: 'admin', read_at: '2026-03-01T10:00:00Z', emailed_to: 'bea@example.com', body: 'Your order is confirmed.' }),
          message(2, T1, { body: 'Where is it? It was due Monday.' }),
          message(3, T1, { source: 'phone', body: 'Called again.' }),
        ],
        [T2]: [message(4, T2, { sender_type: 'admin', sender_name: 'Ada Admin', source: 'admin', read_at: '2026-03-04T10:00:00Z', body: 'Blue or green?' })],
      };
  const orders: Record<string, { order_number: string; customer_name: string }> = { 41: { order_number: 'SO-2026-0041', customer_name: 'Bea Buyer' } };
  const lists: URLSearchParams[] = [];
  const posts: Post[] = [];
  const rowOf = (id: string): Row => {
    const ms = threads[id]!;
    const last = ms.at(-1)!;
    const order = orders[String(ms[0]!.sales_order_id)];
    return {
      thread_id: id,
      thread_subject: ms[0]!.thread_subject,
      sales_order_id: ms[0]!.sales_order_id,
      order_number: order?.order_number ?? null,
      customer_name: order?.customer_name ?? null,
      message_count: ms.length,
      unread_count: ms.filter((m) => m.read_at === null).length,
      last_message_at: last.created_at,
      last_message_preview: String(last.body).slice(0, 100),
      last_sender_name: last.sender_name,
      awaiting_reply: last.sender_type === 'customer',
    };
  };
  let nextId = 10;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname;
      if (init.method === 'POST') {
        const body = (init.body ? JSON.parse(String(init.body)) : {}) as Record<string, unknown>;
        posts.push({ path, key: new Headers(init.headers).get('Idempotency-Key'), body });
        const read = /^\/api\/v1\/notifications\/([^/]+)\/read$/.exec(path);
        if (read && threads[read[1]!]) {
          const ms = threads[read[1]!]!;
          const marked = ms.filter((m) => m.read_at === null).length;
          threads[read[1]!] = ms.map((m) => ({ ...m, read_at: m.read_at ?? '2026-03-09T10:00:00Z' }));
          return json(200, { marked_read: marked });
        }
        const replied = /^\/api\/v1\/notifications\/([^/]+)\/reply$/.exec(path);
        if (replied && threads[replied[1]!]) {
          const answer = reply?.(body);
          if (answer) return answer;
          const id = replied[1]!;
          const ours = body.sender_type !== 'customer';
          const m = message(nextId++, id, {
            body: body.body,
            sender_type: ours ? 'admin' : 'customer',
            sender_name: ours ? 'Ada Admin' : 'Bea Buyer',
            source: body.source ?? (ours ? 'admin' : 'email'),
            read_at: ours ? '2026-03-09T11:00:00Z' : null,
            emailed_to: ours && body.email_customer ? 'bea@example.com' : null,
            created_at: '2026-03-09T11:00:00Z',
          });
          threads[id] = ours ? [...threads[id]!.map((x) => ({ ...x, read_at: x.read_at ?? '2026-03-09T11:00:00Z' })), m] : [...threads[id]!, m];
          return json(200, m);
        }
        if (path === '/api/v1/notifications') {
          const m = message(nextId++, NEW, {
            thread_subject: body.subject,
            sales_order_id: body.sales_order_id ?? null,
            body: body.body,
            sender_type: 'admin',
            sender_name: 'Ada Admin',
            source: 'admin',
            read_at: '2026-03-09T12:00:00Z',
            created_at: '2026-03-09T12:00:00Z',
          });
          threads[NEW] = [m];
          return json(201, m);
        }
        return json(404, { detail: 'Thread not found' });
      }
      switch (path) {
        case '/api/v1/auth/me':
          return json(200, admin);
        case '/api/v1/notifications/unread-count':
          return json(200, { unread_count: Object.values(threads).flat().filter((m) => m.read_at === null).length });
        case '/api/v1/notifications': {
          lists.push(url.searchParams);
          const unreadOnly = url.searchParams.get('unread_only') === 'true';
          const q = url.searchParams.get('search')?.toLowerCase();
          const rows = Object.keys(threads)
            .map(rowOf)
            .filter((r) => !unreadOnly || Number(r.unread_count) > 0)
            .filter((r) => !q || JSON.stringify(r).toLowerCase().includes(q))
            .sort((a, b) => String(b.last_message_at).localeCompare(String(a.last_message_at)));
          return json(200, rows);
        }
        case '/api/v1/sales-orders/':
          return json(200, [{ id: 41, order_number: 'SO-2026-0041', customer_name: 'Bea Buyer', grand_total: '30.00' }]);
        default: {
          const one = /^\/api\/v1\/notifications\/([^/]+)$/.exec(path);
          if (one) return threads[one[1]!] ? json(200, threads[one[1]!]) : json(404, { detail: 'Thread not found' });
          return json(404, { detail: 'Not Found' });
        }
      }
    }),
  );
  return { lists, posts };
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderAt(path: string) {
  localStorage.setItem('adminUser', JSON.stringify(admin));
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
        <Where />
      </AppProviders>
    </MemoryRouter>,
  );
}

const badge = () => screen.queryByTestId('nav-badge-unread-messages');

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('messages page', () => {
  it('lists the conversations, latest first, with order, customer, preview, unread chip and awaiting marker; the nav shows the badge', async () => {
    const { lists } = serve();
    renderAt('/admin/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const items = within(list).getAllByRole('button');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Colour question');
    const t1 = items[1]!;
    expect(t1).toHaveTextContent('Where is my order?');
    expect(t1).toHaveTextContent('SO-2026-0041 · Bea Buyer');
    expect(t1).toHaveTextContent('Bea Buyer: Called again.');
    expect(within(t1).getByText('2 unread')).toHaveClass('badge--info');
    expect(within(t1).getByText('Awaiting reply')).toHaveClass('badge--warning');
    expect(within(items[0]!).queryByText(/unread/)).not.toBeInTheDocument();

    expect(await screen.findByTestId('nav-badge-unread-messages')).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: /^Messages/ })).toHaveAttribute('href', '/admin/messages');
    expect(screen.getByText('Choose a conversation')).toBeInTheDocument();
    expect(lists[0]?.get('unread_only')).toBe('false');
    expect(lists[0]?.get('limit')).toBe('50');
  });

  it('opening an unread conversation marks it read: the chip and the badge go; bubbles by side with their notes', async () => {
    const { posts } = serve();
    renderAt('/admin/messages');
    const user = userEvent.setup();
    await screen.findByTestId('nav-badge-unread-messages');
    await user.click(await screen.findByRole('button', { name: /Where is my order\?/ }));
    expect(screen.getByTestId('location')).toHaveTextContent(`/admin/messages?thread=${T1}`);

    const bubbles = await screen.findAllByTestId('message');
    expect(bubbles).toHaveLength(3);
    expect(bubbles[0]).toHaveClass('msg--ours');
    expect(bubbles[0]).toHaveTextContent('Ada Admin');
    expect(bubbles[0]).toHaveTextContent('E-mailed to bea@example.com');
    expect(bubbles[1]).toHaveClass('msg--theirs');
    expect(bubbles[1]).toHaveTextContent('by e-mail');
    expect(bubbles[2]).toHaveTextContent('by phone');
    expect(screen.getByRole('link', { name: 'SO-2026-0041' })).toHaveAttribute('href', '/admin/orders/41');

    await vi.waitFor(() => expect(badge()).not.toBeInTheDocument());
    expect(posts.map((p) => p.path)).toEqual([`/api/v1/notifications/${T1}/read`]);
    const list = screen.getByRole('list', { name: 'Conversations' });
    await vi.waitFor(() => expect(within(list).queryByText('2 unread')).not.toBeInTheDocument());
    expect(within(list).getByRole('button', { name: /Where is my order\?/ })).toHaveAttribute('aria-current', 'true');
    // Read now: opening it again asks nothing more.
    await user.click(within(list).getByRole('button', { name: /Colour question/ }));
    await screen.findByText('Blue or green?');
    expect(posts).toHaveLength(1);
  });

  it('opens the conversation in the URL, and says so when it does not exist', async () => {
    serve();
    const { unmount } = renderAt(`/admin/messages?thread=${T2}`);
    expect(await screen.findByRole('heading', { name: 'Colour question' })).toBeInTheDocument();
    expect(screen.getByText(/No order/)).toBeInTheDocument();
    unmount();

    serve();
    renderAt('/admin/messages?thread=nope');
    expect(await screen.findByText('Conversation not found')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to the inbox' }));
    expect(await screen.findByText('Choose a conversation')).toBeInTheDocument();
  });

  it('replies with the right body (e-mailed by default), then records the customer’s call with Ctrl+Enter', async () => {
    const { posts } = serve();
    renderAt(`/admin/messages?thread=${T1}`);
    const user = userEvent.setup();
    await screen.findAllByTestId('message');
    const reply = screen.getByRole('form', { name: 'Reply' });
    await user.type(within(reply).getByLabelText('Reply'), 'It ships tomorrow.');
    expect(within(reply).getByRole('checkbox', { name: 'E-mail to customer' })).toBeChecked();
    await user.click(within(reply).getByRole('button', { name: 'Send reply' }));
    await vi.waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(4));
    const sent = screen.getAllByTestId('message').at(-1)!;
    expect(sent).toHaveClass('msg--ours');
    expect(sent).toHaveTextContent('It ships tomorrow.');
    expect(sent).toHaveTextContent('E-mailed to bea@example.com');
    expect(within(reply).getByLabelText('Reply')).toHaveValue('');
    const replies = posts.filter((p) => p.path.endsWith('/reply'));
    expect(replies.map((p) => p.body)).toEqual([{ body: 'It ships tomorrow.', email_customer: true }]);
    expect(replies[0]?.key).toBeTruthy();

    // The customer's answer on the phone: no e-mail box, a source instead; Ctrl+Enter sends.
    await user.click(within(reply).getByRole('checkbox', { name: "Record as customer's message" }));
    expect(within(reply).queryByRole('checkbox', { name: 'E-mail to customer' })).not.toBeInTheDocument();
    await user.selectOptions(within(reply).getByLabelText('Came in by'), 'phone');
    await user.type(within(reply).getByLabelText("The customer's message"), 'Great, thanks!');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await vi.waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(5));
    const theirs = screen.getAllByTestId('message').at(-1)!;
    expect(theirs).toHaveClass('msg--theirs');
    expect(theirs).toHaveTextContent('by phone');
    const all = posts.filter((p) => p.path.endsWith('/reply'));
    expect(all[1]?.body).toEqual({ body: 'Great, thanks!', sender_type: 'customer', source: 'phone' });
    // A new key per message sent.
    expect(all[1]?.key).not.toBe(all[0]?.key);
  });

  it('refuses an empty reply in the browser and puts the server’s 422 on the field', async () => {
    const { posts } = serve({
      reply: (body) =>
        body.body === 'x'
          ? json(422, { detail: 'Request validation failed', details: { errors: [{ field: 'body', message: 'String should have at least 2 characters', type: 'value_error' }] } })
          : undefined,
    });
    renderAt(`/admin/messages?thread=${T2}`);
    const user = userEvent.setup();
    await screen.findAllByTestId('message');
    const reply = screen.getByRole('form', { name: 'Reply' });
    await user.click(within(reply).getByRole('button', { name: 'Send reply' }));
    expect(await within(reply).findByText('Write the message.')).toBeInTheDocument();
    expect(posts.filter((p) => p.path.endsWith('/reply'))).toEqual([]);

    await user.type(within(reply).getByLabelText('Reply'), 'x');
    await user.click(within(reply).getByRole('button', { name: 'Send reply' }));
    expect(await within(reply).findByText('String should have at least 2 characters')).toBeInTheDocument();
    expect(within(reply).getByLabelText('Reply')).toHaveAttribute('aria-invalid', 'true');
    // No order on this thread: nobody to e-mail, so no such box, and none asked for.
    expect(within(reply).queryByRole('checkbox', { name: 'E-mail to customer' })).not.toBeInTheDocument();
  });

  it('shows the empty states of All, Unread and a search, filtering on the server', async () => {
    const { lists } = serve({ empty: true });
    renderAt('/admin/messages');
    const user = userEvent.setup();
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Unread' }));
    expect(await screen.findByText('Nothing unread')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Unread' })).toHaveAttribute('aria-selected', 'true');
    expect(lists.at(-1)?.get('unread_only')).toBe('true');
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/messages?filter=unread');

    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'blue');
    expect(await screen.findByText('No conversations match')).toBeInTheDocument();
    expect(lists.at(-1)?.get('search')).toBe('blue');
  });

  it('searches on the server once typing stops', async () => {
    const { lists } = serve();
    renderAt('/admin/messages');
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'colour');
    await vi.waitFor(() => expect(within(list).queryByText('Where is my order?')).not.toBeInTheDocument());
    expect(within(list).getByText('Colour question')).toBeInTheDocument();
    // Debounced: one request for the whole word, none per letter.
    expect(lists.filter((q) => q.get('search')).map((q) => q.get('search'))).toEqual(['colour']);
  });

  it('starts a conversation about a picked order from "New message" and opens it', async () => {
    const { posts } = serve();
    renderAt('/admin/messages');
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Conversations' });
    await user.click(screen.getByRole('button', { name: 'New message' }));
    const dialog = screen.getByRole('dialog', { name: 'New message' });
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByText('Give the conversation a subject.')).toBeInTheDocument();
    expect(within(dialog).getByText('Write the message.')).toBeInTheDocument();
    // No order picked: nobody to e-mail.
    expect(within(dialog).queryByRole('checkbox', { name: 'E-mail to customer' })).not.toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Find an order'), 'SO-2026');
    const orderSelect = within(dialog).getByLabelText('Order');
    await within(orderSelect).findByRole('option', { name: 'SO-2026-0041 · Bea Buyer' });
    await user.selectOptions(orderSelect, '41');
    expect(within(dialog).getByRole('checkbox', { name: 'E-mail to customer' })).toBeChecked();
    await user.type(within(dialog).getByLabelText(/^Subject/), 'Your proof');
    await user.type(within(dialog).getByLabelText(/^Message/), 'Proof attached.');
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Message sent')).toBeInTheDocument();
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/api/v1/notifications', { sales_order_id: 41, subject: 'Your proof', body: 'Proof attached.', email_customer: true }],
    ]);
    expect(posts[0]?.key).toBeTruthy();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/admin/messages?thread=${NEW}`));
    expect(await screen.findByRole('heading', { name: 'Your proof' })).toBeInTheDocument();
  });
});
