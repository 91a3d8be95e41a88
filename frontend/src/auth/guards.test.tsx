import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, ADMIN_PAGES, createQueryClient } from '../App';
import { canAccess } from './roles';
import { NAV_GROUPS, visibleNav } from '../layout/nav';

const operator = { id: 2, email: 'op@example.com', first_name: 'Olivia', last_name: 'Ops', account_type: 'operator' };
const admin = { ...operator, id: 1, email: 'ada@example.com', first_name: 'Ada', account_type: 'admin' };

// The API is not there in unit tests: every call answers 404.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ detail: 'Not Found' }), { status: 404, headers: { 'Content-Type': 'application/json' } })),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string, user?: object) {
  if (user) window.localStorage.setItem('adminUser', JSON.stringify(user));
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

const ADMIN_ONLY = ['/admin/invoices', '/admin/invoices/:invoiceId', '/admin/payments', '/admin/customers', '/admin/materials/import', '/admin/locations', '/admin/inventory/transactions', '/admin/inventory/cycle-count', '/admin/spools', '/admin/accounting', '/admin/orders/import', '/admin/users', '/admin/scrap-reasons', '/admin/settings', '/admin/security'];

describe('canAccess', () => {
  it('lets admins everywhere, operators only on staff pages, nobody else in', () => {
    expect(canAccess({ account_type: 'admin' }, true)).toBe(true);
    expect(canAccess({ account_type: 'operator' }, false)).toBe(true);
    expect(canAccess({ account_type: 'operator' }, true)).toBe(false);
    // A role the server does not hand out (the original's customer accounts) gets nowhere.
    expect(canAccess({ account_type: 'customer' } as unknown as Parameters<typeof canAccess>[0], false)).toBe(false);
    expect(canAccess(null, false)).toBe(false);
  });

  it('marks exactly the admin sections of spec 4.5 as admin-only', () => {
    const adminOnly = ADMIN_PAGES.filter((p) => p.adminOnly).map((p) => `/admin/${p.path}`).sort();
    expect(adminOnly).toEqual([...ADMIN_ONLY].sort());
  });

  it('sidebar hides starred items and the ADMIN group from operators', () => {
    const op = visibleNav(false).flatMap((g) => g.items.map((i) => i.label));
    expect(op).toEqual(['Dashboard', 'Command Center', 'Orders', 'Quotes', 'Messages', 'Items', 'Bill of Materials', 'Production', 'Planning', 'Manufacturing', 'Printers', 'Purchasing', 'Shipping', 'Quality Dashboard', 'Quality Plans', 'Material Traceability', 'Bulk Exports']);
    expect(visibleNav(false).some((g) => g.id === 'admin')).toBe(false);
    expect(visibleNav(true).flatMap((g) => g.items)).toHaveLength(NAV_GROUPS.flatMap((g) => g.items).length);
  });
});

describe('route guards', () => {
  it('sends visitors without a session to sign in', async () => {
    renderAt('/admin/items');
    expect(await screen.findByRole('heading', { name: 'Sign in to Strata' })).toBeInTheDocument();
  });

  it.each(ADMIN_ONLY)('refuses an operator at %s', async (path) => {
    renderAt(path, operator);
    expect(await screen.findByTestId('not-allowed')).toBeInTheDocument();
  });

  it('lets an operator use staff pages', async () => {
    renderAt('/admin/items', operator);
    expect(await screen.findByRole('heading', { name: 'Items', level: 1 })).toBeInTheDocument();
    expect(screen.queryByTestId('not-allowed')).not.toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'Team Members' })).not.toBeInTheDocument();
  });

  it('lets an admin open admin pages', async () => {
    renderAt('/admin/users', admin);
    expect(await screen.findByRole('heading', { name: 'Team Members', level: 1 })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Team Members' })).toBeInTheDocument();
  });

  it('redirects /admin/products to /admin/items', async () => {
    renderAt('/admin/products', admin);
    expect(await screen.findByRole('heading', { name: 'Items', level: 1 })).toBeInTheDocument();
  });

  it('shows not-found inside the shell for unknown admin pages', async () => {
    renderAt('/admin/nope', admin);
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });
});
