import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { admin, availability, compatibility, cost, operation, order, pool } from './orderFixtures';
import type { OrderCompatibility, ProductionOrder } from './productionApi';

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

function serve(wo: ProductionOrder, compat: OrderCompatibility = compatibility()) {
  const calls: { method: string; path: string; search: URLSearchParams; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({ method, path: url.pathname, search: url.searchParams, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (method === 'POST' && url.pathname === '/api/v1/production-orders/5/operations/11/start') return json({ ...operation(), status: 'running' });
      switch (url.pathname) {
        case '/api/v1/auth/me':
          return json(admin);
        case '/api/v1/production-orders/5':
          return json(wo);
        case '/api/v1/production-orders/5/cost-breakdown':
          return json(cost());
        case '/api/v1/production-orders/5/material-availability':
          return json(availability());
        case '/api/v1/production-orders/5/compatibility':
          return json(compat);
        case '/api/v1/production-orders/5/check-resource-compatibility':
          return json(url.searchParams.get('resource_id') === '31' ? { compatible: false, reason: 'ABS needs an enclosed printer; ABS needs a 250 °C nozzle; this printer reaches 240 °C' } : { compatible: true, reason: 'Compatible' });
        case '/api/v1/work-centers/':
          return json(pool);
        default:
          return json({ detail: 'Not Found' }, 404);
      }
    }),
  );
  return calls;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

describe('material availability and printer compatibility on the order page', () => {
  it('shows each operation’s materials with their availability as badges', async () => {
    serve(order());
    renderAt('/admin/production/5');
    const table = await screen.findByRole('table', { name: 'Material availability' });
    const groups = within(table).getAllByRole('rowheader');
    expect(groups.map((g) => g.textContent)).toEqual(['Print', 'Pack']);
    expect(within(table).getByRole('row', { name: /MAT-ABS-BLACK/ })).toHaveTextContent('Available');
    expect(within(table).getByRole('row', { name: /SHELL/ })).toHaveTextContent(/3 EAShort$/);
    expect(within(table).getByRole('row', { name: /BOX-S/ })).toHaveTextContent('Incoming');
    expect(screen.getByText('2 of 3 short now')).toBeInTheDocument();
  });

  it('checks a printer as it is picked: an incompatible one blocks the start, a compatible one starts there', async () => {
    const calls = serve(order());
    const user = renderAt('/admin/production/5');
    const picker = await screen.findByRole('combobox', { name: 'Printer for Print' });
    await user.selectOptions(picker, '31');
    const why = await screen.findByRole('list', { name: 'Why A1-1 cannot print this' });
    expect(within(why).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Error: A1-1: ABS needs an enclosed printer',
      'Error: A1-1: ABS needs a 250 °C nozzle; this printer reaches 240 °C',
    ]);
    const check = calls.find((c) => c.path.endsWith('/check-resource-compatibility'));
    expect(check?.search.get('resource_id')).toBe('31');
    expect(check?.search.get('is_printer')).toBe('true');
    expect(screen.getByRole('button', { name: 'Start step' })).toBeDisabled();

    await user.selectOptions(picker, '32');
    expect(await screen.findByText('X1-1 can print this order’s materials.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: /cannot print this/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start step' }));
    await screen.findByText('Operation updated');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/api/v1/production-orders/5/operations/11/start', body: { printer_id: 32 } });
  });

  it('sums up the findings of the printers the operations are on; each step lists its own, errors in red and warnings in amber', async () => {
    const onA1 = order({ operations: [operation({ resource_id: 31, resource_code: 'A1-1', resource_name: 'A1 one' })] });
    serve(
      onA1,
      compatibility({
        compatible: false,
        total_issues: 2,
        operations: [
          {
            operation_id: 11,
            operation_name: 'Print',
            printer_name: 'A1 one',
            compatible: false,
            issues: [
              { severity: 'warning', check: 'hardened_nozzle', message: 'PA-CF is abrasive; check that this printer has a hardened nozzle', material_name: 'PA-CF', printer_name: 'A1 one' },
              { severity: 'error', check: 'enclosure', message: 'ABS needs an enclosed printer', material_name: 'ABS', printer_name: 'A1 one' },
            ],
          },
        ],
      }),
    );
    renderAt('/admin/production/5');
    const summary = await screen.findByRole('status', { name: 'Printer compatibility' });
    expect(within(summary).getByText('1 error, 1 warning on the printers chosen')).toHaveClass('badge--danger');
    const items = within(screen.getByRole('list', { name: 'Compatibility of Print' })).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Warning: PA-CF is abrasive; check that this printer has a hardened nozzle',
      'Error: ABS needs an enclosed printer',
    ]);
    expect(items[0]).toHaveClass('compat-item--warning');
    expect(items[1]).toHaveClass('compat-item--error');
    // The start on a printer with errors is blocked.
    expect(await screen.findByRole('button', { name: 'Start step' })).toBeDisabled();
  });
});
