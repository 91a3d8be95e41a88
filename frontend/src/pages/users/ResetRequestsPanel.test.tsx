import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import type { ResetRequest } from './passwordResetsApi';
import { denySchema } from './ResetRequestsPanel';

const admin = {
  id: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Admin',
  full_name: 'Ada Admin',
  account_type: 'admin',
  status: 'active',
  last_login_at: null,
  created_at: '2026-01-20T12:00:00Z',
};

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const olivia: ResetRequest = {
  id: 11,
  user_id: 7,
  email: 'olivia@example.com',
  first_name: 'Olivia',
  last_name: 'Ops',
  requested_at: ago(2 * HOUR),
  expires_at: ago(-22 * HOUR),
};
const otto: ResetRequest = { ...olivia, id: 12, user_id: 8, email: 'otto@example.com', first_name: null, last_name: null, requested_at: ago(HOUR) };

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The server's side: the Team list, the pending requests, approve and deny (one answer each, by id). */
function stubServer(pending: ResetRequest[], answers: Record<string, { status: number; body: unknown }> = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({ method, path: url.pathname, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
      const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (url.pathname === '/api/v1/admin/users/') return json(200, [admin]);
      if (url.pathname === '/api/v1/admin/password-reset-requests' && method === 'GET') return json(200, pending);
      const review = /^\/api\/v1\/admin\/password-reset-requests\/(\d+)\/(approve|deny)$/.exec(url.pathname);
      if (review && method === 'POST') {
        const answer = answers[`${review[2]} ${review[1]}`];
        if (!answer) return json(404, { detail: 'Password reset request not found' });
        if (answer.status === 200) pending.splice(pending.findIndex((r) => r.id === Number(review[1])), 1);
        return json(answer.status, answer.body);
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  const lists = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/admin/password-reset-requests').length;
  return { calls, lists };
}

function renderTeam() {
  return render(
    <MemoryRouter initialEntries={['/admin/users']}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

const panel = () => screen.getByRole('region', { name: 'Password reset requests' });

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('denySchema', () => {
  it('sends a trimmed reason, null when blank, and refuses more than 500 characters', () => {
    expect(denySchema.parse({ reason: '  Not them  ' })).toEqual({ reason: 'Not them' });
    expect(denySchema.parse({ reason: '   ' })).toEqual({ reason: null });
    expect(denySchema.safeParse({ reason: 'x'.repeat(501) }).success).toBe(false);
  });
});

describe('Team Members: password reset requests', () => {
  it('shows no panel while nothing waits', async () => {
    const server = stubServer([]);
    renderTeam();
    await screen.findByText('ada@example.com');
    await waitFor(() => expect(server.lists()).toBe(1));
    expect(screen.queryByRole('region', { name: 'Password reset requests' })).not.toBeInTheDocument();
    expect(screen.queryByText('Password reset requests')).not.toBeInTheDocument();
  });

  it('lists the requests with a count; approving hands over the link, to copy', async () => {
    const user = userEvent.setup();
    const link = 'https://erp.example.com/reset-password/tok-123';
    const server = stubServer([olivia, otto], {
      'approve 11': { status: 200, body: { message: 'Password reset approved.', user_email: olivia.email, status: 'approved', reset_url: link } },
    });
    renderTeam();
    const region = await screen.findByRole('region', { name: 'Password reset requests' });
    expect(within(region).getByText('2')).toBeInTheDocument();
    const row = within(region).getByRole('row', { name: /Olivia Ops/ });
    expect(row).toHaveTextContent('olivia@example.com');
    expect(row).toHaveTextContent('2 hours ago');
    // Without a name, the address stands for it.
    expect(within(region).getByRole('row', { name: /otto@example\.com/ })).toBeInTheDocument();

    // Cancel first: nothing is sent.
    await user.click(within(row).getByRole('button', { name: 'Approve the reset for olivia@example.com' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Approve this password reset?' });
    expect(confirm).toHaveTextContent('It works for 1 hour.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(within(row).getByRole('button', { name: 'Approve the reset for olivia@example.com' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Approve this password reset?' });
    await user.click(within(confirm).getByRole('button', { name: 'Approve reset' }));

    const dialog = await screen.findByRole('dialog', { name: 'Reset approved' });
    expect(dialog).toHaveTextContent('Give this link to olivia@example.com; it works for 1 hour.');
    expect(within(dialog).getByRole('textbox', { name: 'Reset link' })).toHaveValue(link);
    expect(server.calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/api/v1/admin/password-reset-requests/11/approve', body: undefined });
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(within(dialog).getByRole('button', { name: 'Copied' })).toBeInTheDocument();

    // The list is asked again: only Otto is left.
    await waitFor(() => expect(server.lists()).toBe(2));
    await waitFor(() => expect(within(panel()).queryByText('Olivia Ops')).not.toBeInTheDocument());
    expect(within(panel()).getByText('1')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog', { name: 'Reset approved' })).not.toBeInTheDocument();
  });

  it('approving with mail says so; a refusal is shown and the list asked again', async () => {
    const user = userEvent.setup();
    const server = stubServer([olivia, otto], {
      'approve 11': { status: 200, body: { message: 'Password reset approved.', user_email: olivia.email, status: 'approved', reset_url: null } },
      'approve 12': { status: 400, body: { detail: 'Request has already been approved' } },
    });
    renderTeam();
    const region = await screen.findByRole('region', { name: 'Password reset requests' });

    await user.click(within(region).getByRole('button', { name: 'Approve the reset for olivia@example.com' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve reset' }));
    expect(await screen.findByText('olivia@example.com has been e-mailed a link to choose a new password.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Reset approved' })).not.toBeInTheDocument();
    await waitFor(() => expect(server.lists()).toBe(2));

    await user.click(within(panel()).getByRole('button', { name: 'Approve the reset for otto@example.com' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve reset' }));
    expect(await screen.findByText('Request has already been approved')).toBeInTheDocument();
    await waitFor(() => expect(server.lists()).toBe(3));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('denies with an optional reason', async () => {
    const user = userEvent.setup();
    const server = stubServer([olivia, otto], {
      'deny 11': { status: 200, body: { message: 'Password reset denied.', user_email: olivia.email, status: 'denied' } },
      'deny 12': { status: 400, body: { detail: 'Request has already been denied' } },
    });
    renderTeam();
    const region = await screen.findByRole('region', { name: 'Password reset requests' });

    await user.click(within(region).getByRole('button', { name: 'Deny the reset for olivia@example.com' }));
    let dialog = await screen.findByRole('dialog', { name: 'Deny this password reset?' });
    expect(dialog).toHaveTextContent('Olivia Ops (olivia@example.com) keeps their current password.');
    await user.type(within(dialog).getByLabelText('Reason (optional)'), '  Not a request I know of ');
    await user.click(within(dialog).getByRole('button', { name: 'Deny reset' }));
    expect(await screen.findByText('olivia@example.com keeps their current password.')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/v1/admin/password-reset-requests/11/deny', body: { reason: 'Not a request I know of' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(server.lists()).toBe(2));
    await waitFor(() => expect(within(panel()).queryByText('Olivia Ops')).not.toBeInTheDocument());

    // No reason: null. A refusal stays in the dialog, and the list is asked again.
    await user.click(within(panel()).getByRole('button', { name: 'Deny the reset for otto@example.com' }));
    dialog = await screen.findByRole('dialog', { name: 'Deny this password reset?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deny reset' }));
    expect(await within(dialog).findByText('Request has already been denied')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST').at(-1)).toEqual({
      method: 'POST',
      path: '/api/v1/admin/password-reset-requests/12/deny',
      body: { reason: null },
    });
    await waitFor(() => expect(server.lists()).toBe(3));
  });
});
