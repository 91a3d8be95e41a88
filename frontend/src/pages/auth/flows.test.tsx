import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', first_name: 'Ada', last_name: 'Admin', account_type: 'admin', status: 'active' };

type Handler = (url: URL, init: RequestInit) => { status?: number; body?: unknown } | undefined;

/** Unit-test stand-in for the server: answers by path, 404 otherwise; records calls. */
function serve(handler: Handler) {
  const calls: { path: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push({ path: url.pathname, init });
      const res = handler(url, init) ?? { status: 404, body: { detail: 'Not Found' } };
      return new Response(JSON.stringify(res.body ?? {}), { status: res.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

async function fillLogin(email: string, password: string) {
  await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), email);
  await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('sign-in', () => {
  it('cookie mode: uses the user in the login response and keeps only adminUser', async () => {
    const calls = serve((url) => {
      if (url.pathname === '/api/v1/setup/status') return { body: { needs_setup: false } };
      if (url.pathname === '/api/v1/auth/login') return { body: { message: 'Login successful', user: admin, token_type: 'cookie' } };
      if (url.pathname === '/api/v1/auth/me') return { body: admin };
      return undefined;
    });
    renderAt('/admin/login');
    await fillLogin('ada@example.com', 'Secret1!');
    expect(await screen.findByText(/Good (morning|afternoon|evening), Ada/)).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('adminUser')!).email).toBe('ada@example.com');
    expect(localStorage.getItem('adminToken')).toBeNull();
    const login = calls.find((c) => c.path === '/api/v1/auth/login')!;
    expect(login.init.body).toBe('username=ada%40example.com&password=Secret1%21');
    expect(login.init.credentials).toBe('include');
  });

  it('header mode: stores the tokens, then asks /auth/me with the bearer token', async () => {
    const calls = serve((url) => {
      if (url.pathname === '/api/v1/setup/status') return { body: { needs_setup: false } };
      if (url.pathname === '/api/v1/auth/login') return { body: { access_token: 'acc', refresh_token: 'ref', token_type: 'bearer' } };
      if (url.pathname === '/api/v1/auth/me') return { body: admin };
      return undefined;
    });
    renderAt('/admin/login');
    await fillLogin('ada@example.com', 'Secret1!');
    await screen.findByText(/Good (morning|afternoon|evening), Ada/);
    expect(localStorage.getItem('adminToken')).toBe('acc');
    expect(localStorage.getItem('adminRefreshToken')).toBe('ref');
    const me = calls.find((c) => c.path === '/api/v1/auth/me')!;
    expect((me.init.headers as Record<string, string>).Authorization).toBe('Bearer acc');
  });

  it('refuses customer accounts', async () => {
    serve((url) => {
      if (url.pathname === '/api/v1/setup/status') return { body: { needs_setup: false } };
      if (url.pathname === '/api/v1/auth/login') return { body: { message: 'Login successful', user: { ...admin, account_type: 'customer' }, token_type: 'cookie' } };
      if (url.pathname === '/api/v1/auth/logout') return { body: { message: 'Logged out' } };
      return undefined;
    });
    renderAt('/admin/login');
    await fillLogin('buyer@example.com', 'Secret1!');
    expect(await screen.findByText('Access denied. Please use an admin or operator account.')).toBeInTheDocument();
    expect(localStorage.getItem('adminUser')).toBeNull();
  });

  it('shows the server’s message for a wrong password, and the button comes back', async () => {
    serve((url) => {
      if (url.pathname === '/api/v1/setup/status') return { body: { needs_setup: false } };
      if (url.pathname === '/api/v1/auth/login') return { status: 401, body: { detail: 'Incorrect email or password' } };
      return undefined;
    });
    renderAt('/admin/login');
    await fillLogin('ada@example.com', 'nope');
    expect(await screen.findByText('Incorrect email or password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('a fresh install goes to onboarding', async () => {
    serve((url) => (url.pathname === '/api/v1/setup/status' ? { body: { needs_setup: true, message: 'Welcome' } } : undefined));
    renderAt('/admin/login');
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
  });
});

describe('onboarding', () => {
  it('creates the admin, signs in, lets every optional step be skipped, ends on the dashboard', async () => {
    const calls = serve((url, init) => {
      if (url.pathname === '/api/v1/setup/status') return { body: { needs_setup: true } };
      if (url.pathname === '/api/v1/setup/initial-admin') {
        expect(JSON.parse(String(init.body))).toEqual({ email: 'ada@example.com', password: 'Abcdefg1!', full_name: 'Ada Admin', company_name: 'Print Co' });
        return { body: { message: 'Admin account created successfully!', email: 'ada@example.com', access_token: 'acc', token_type: 'bearer' } };
      }
      if (url.pathname === '/api/v1/auth/me') return { body: admin };
      return undefined;
    });
    renderAt('/onboarding');
    await userEvent.type(await screen.findByRole('textbox', { name: /Full name/ }), 'Ada Admin');
    await userEvent.type(screen.getByRole('textbox', { name: /Work email/ }), 'ada@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: /Company name/ }), 'Print Co');
    await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'Abcdefg1!');
    await userEvent.type(screen.getByLabelText(/^Confirm password/, { selector: 'input' }), 'Abcdefg1!');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    await screen.findByText('Step 2 of 7');
    expect(localStorage.getItem('adminToken')).toBe('acc');
    expect(JSON.parse(localStorage.getItem('adminUser')!).account_type).toBe('admin');

    // Step 2: the seed endpoint is missing (404): said plainly, and skippable.
    await userEvent.click(screen.getByRole('button', { name: 'Load example data' }));
    expect(await screen.findByText(/not available on the server yet \(404/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Skip this step' }));
    for (const n of [3, 4, 5, 6]) {
      await screen.findByText(`Step ${n} of 7`);
      await userEvent.click(screen.getByRole('button', { name: 'Skip this step' }));
    }
    await screen.findByTestId('onboarding-complete');
    await userEvent.click(screen.getByRole('button', { name: 'Go to the dashboard' }));
    expect(await screen.findByText(/Good (morning|afternoon|evening), Ada/)).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/v1/setup/seed-example-data')).toBe(true);
  });

  it('shows the server’s rejection of step 1 on the form', async () => {
    serve((url) => {
      if (url.pathname === '/api/v1/setup/status') return { body: { needs_setup: true } };
      if (url.pathname === '/api/v1/setup/initial-admin')
        return {
          status: 422,
          body: { error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'email', message: 'value is not a valid email address', type: 'value_error' }] } },
        };
      return undefined;
    });
    renderAt('/onboarding');
    await userEvent.type(await screen.findByRole('textbox', { name: /Full name/ }), 'Ada');
    await userEvent.type(screen.getByRole('textbox', { name: /Work email/ }), 'ada@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'Abcdefg1!');
    await userEvent.type(screen.getByLabelText(/^Confirm password/, { selector: 'input' }), 'Abcdefg1!');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('value is not a valid email address')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Work email/ })).toHaveAttribute('aria-invalid', 'true'));
  });
});
