import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { presetById } from './bulkExports';

const operator = {
  id: 2,
  email: 'olivia@example.com',
  first_name: 'Olivia',
  last_name: 'Ops',
  full_name: 'Olivia Ops',
  account_type: 'operator',
  status: 'active',
  last_login_at: null,
  created_at: '2026-01-20T12:00:00Z',
};

const done = {
  id: 4,
  user_id: 2,
  query: '{ items { nodes { sku } } }',
  format: 'csv',
  status: 'completed',
  progress: 2,
  row_count: 2,
  size_bytes: 20,
  error: null,
  download_url: '/api/v1/bulk-exports/4/download',
  created_at: '2026-11-24T10:00:00Z',
  started_at: '2026-11-24T10:00:01Z',
  completed_at: '2026-11-24T10:00:02Z',
  expires_at: '2099-11-25T10:00:02Z',
};

interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** Answers the page's calls: the list from `lists` (one per GET, the last repeats), POST with `post`. */
function stubServer(lists: unknown[][], post: { status: number; body: unknown }) {
  const calls: Call[] = [];
  let listed = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const method = init?.method ?? 'GET';
      calls.push({ method, path, headers: new Headers(init?.headers), body: init?.body ? JSON.parse(String(init.body)) : undefined });
      let answer: { status: number; body: unknown } = { status: 404, body: { detail: 'Not Found' } };
      if (path === '/bulk-exports' && method === 'GET') answer = { status: 200, body: lists[Math.min(listed++, lists.length - 1)] };
      if (path === '/bulk-exports' && method === 'POST') answer = post;
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/admin/reports/exports']}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(operator)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Bulk Exports page', () => {
  it('fills presets, checks the query locally, and shows the server 422 under the Query field', async () => {
    const calls = stubServer([[]], {
      status: 422,
      body: {
        error: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: { errors: [{ field: 'query', message: 'CSV needs a flat selection: the rows select nested objects or lists; ask for JSONL', type: 'value_error' }] },
      },
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Bulk Exports', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('No exports yet')).toBeInTheDocument();
    const user = userEvent.setup();

    // A preset fills the query and its format.
    await user.selectOptions(screen.getByLabelText('Report'), 'journal-entries');
    expect(screen.getByLabelText(/^Query/)).toHaveValue(presetById('journal-entries')!.query);
    expect(screen.getByRole('radio', { name: 'JSON Lines' })).toBeChecked();

    // An empty query is caught before any request.
    await user.clear(screen.getByLabelText(/^Query/));
    expect(screen.getByLabelText('Report')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Queue export' }));
    expect(await screen.findByText(/Enter a GraphQL query/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Query/), '{{ items {{ nodes {{ sku stock {{ onHandQuantity } } } }');
    await user.click(screen.getByRole('radio', { name: 'CSV' }));
    await user.click(screen.getByRole('button', { name: 'Queue export' }));
    expect(await screen.findByText(/CSV needs a flat selection/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Query/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('The export was not queued')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ query: '{ items { nodes { sku stock { onHandQuantity } } } }', format: 'csv' });
    expect(posts[0]!.headers.get('Idempotency-Key')).toMatch(/.{10,}/);

    // Picking a report starts afresh: no error left over.
    await user.selectOptions(screen.getByLabelText('Report'), 'items');
    expect(screen.queryByText(/CSV needs a flat selection/)).not.toBeInTheDocument();
    expect(screen.queryByText('The export was not queued')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Query/)).not.toHaveAttribute('aria-invalid');
  });

  it('queues an export with an Idempotency-Key, then lists it with its Download link', async () => {
    const queued = { ...done, id: 5, status: 'queued', progress: 0, row_count: null, size_bytes: 0, download_url: null, expires_at: null, completed_at: null };
    const calls = stubServer([[done], [queued, done], [{ ...queued, status: 'completed', row_count: 3, progress: 3, download_url: '/api/v1/bulk-exports/5/download', expires_at: '2099-01-01T00:00:00Z' }, done]], {
      status: 202,
      body: queued,
    });
    renderPage();
    const table = await screen.findByRole('region', { name: 'Bulk exports' });
    const first = await within(table).findByRole('link', { name: 'Download export 4' });
    expect(first).toHaveAttribute('href', '/api/v1/bulk-exports/4/download');
    expect(screen.getByTestId('export-polling')).toHaveTextContent('All exports finished');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Report'), 'items');
    await user.click(screen.getByRole('button', { name: 'Queue export' }));
    expect(await screen.findByText('Export queued')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ query: presetById('items')!.query, format: 'csv' });
    const key = post.headers.get('Idempotency-Key');
    expect(key).toBeTruthy();

    // The new export is queued: the table says it polls, then shows it completed.
    expect(await within(table).findByText('Waiting to start')).toBeInTheDocument();
    expect(screen.getByTestId('export-polling')).toHaveTextContent('1 in progress');
    expect(await within(table).findByRole('link', { name: 'Download export 5' }, { timeout: 5000 })).toBeInTheDocument();
    expect(within(table).getByText('3 rows')).toBeInTheDocument();
    expect(screen.getByTestId('export-polling')).toHaveTextContent('All exports finished');

    // A second submit uses a new key.
    await user.click(screen.getByRole('button', { name: 'Queue export' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST')[1]!.headers.get('Idempotency-Key')).not.toBe(key);
  });
});
