import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { memberSchema } from './AddMemberModal';

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

function renderTeam() {
  return render(
    <MemoryRouter initialEntries={['/admin/users']}>
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

describe('memberSchema', () => {
  const messages = (v: unknown) => {
    const r = memberSchema.safeParse(v);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
  };
  it('asks for an address and a password that meets the rules, and gives the API body', () => {
    const base = { first_name: '', last_name: '', account_type: 'operator' as const };
    expect(messages({ ...base, email: '', password: '' })).toEqual({
      email: 'Enter their email address.',
      password: 'The password doesn’t meet all the requirements below.',
    });
    expect(messages({ ...base, email: 'ops@shop.local', password: 'Operat0r!pass' }).email).toMatch(/\.local are reserved/);
    expect(memberSchema.parse({ ...base, first_name: ' Olivia ', email: ' ops@example.com ', password: 'Operat0r!pass' })).toEqual({
      first_name: 'Olivia',
      last_name: null,
      email: 'ops@example.com',
      account_type: 'operator',
      password: 'Operat0r!pass',
    });
  });
});

describe('Team Members: add a member', () => {
  it('posts the member, shows the server’s field errors, then lists the new member', async () => {
    const users = [admin];
    const posts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        const json = (status: number, body: unknown) =>
          new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
        if (url.pathname === '/api/v1/admin/users/' && init.method === 'POST') {
          const body = JSON.parse(String(init.body)) as { email: string; first_name: string; last_name: string };
          posts.push(body);
          if (posts.length === 1) return json(400, { detail: 'Email already registered' });
          const created = { ...admin, id: 2, ...body, full_name: `${body.first_name} ${body.last_name}`, account_type: 'operator' };
          users.push(created);
          return json(201, created);
        }
        if (url.pathname === '/api/v1/admin/users/') return json(200, users);
        return json(404, { detail: 'Not Found' });
      }),
    );
    renderTeam();
    await screen.findByText('ada@example.com');

    await userEvent.click(screen.getByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a team member' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(within(dialog).getByText('Enter their email address.')).toBeInTheDocument();
    expect(posts).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('First name'), 'Olivia');
    await userEvent.type(within(dialog).getByLabelText('Last name'), 'Ops');
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'olivia@example.com');
    await userEvent.type(within(dialog).getByLabelText(/^Temporary password/, { selector: 'input' }), 'Operat0r!pass');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await within(dialog).findByText('Email already registered')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('Team member added')).toBeInTheDocument();
    expect(posts[1]).toEqual({
      email: 'olivia@example.com',
      password: 'Operat0r!pass',
      first_name: 'Olivia',
      last_name: 'Ops',
      account_type: 'operator',
    });
    expect(await screen.findByText('olivia@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
