import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

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

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(operator)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Command Center', () => {
  it('shows the board, the late orders and a suggestion an operator accepts in one click', async () => {
    const posts: { path: string; body: unknown }[] = [];
    let running = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
        const printer = {
          printer_id: 7,
          printer_code: 'PRT-1',
          printer_name: 'X1C #1',
          status: running ? 'printing' : 'idle',
          work_center_id: 3,
          operation_id: running ? 4 : null,
          operation_name: running ? 'Print' : null,
          production_order_id: running ? 9 : null,
          production_order_code: running ? 'WO-2026-0009' : null,
          product_sku: running ? 'WIDGET' : null,
          started_at: running ? '2026-11-24T00:00:00Z' : null,
          queued_count: running ? 0 : 1,
        };
        switch (url.pathname) {
          case '/api/v1/command-center/summary':
            return json({ running: running ? 1 : 0, late: 1, blocked: 0, waiting_for_material: 0, qc_pending: 0, released: 1, in_progress: 0, printers_idle: 1, printers_printing: 0, printers_down: 0 });
          case '/api/v1/command-center/action-items':
            return json([
              { kind: 'late', severity: 'high', production_order_id: 9, production_order_code: 'WO-2026-0009', printer_id: null, message: 'WO-2026-0009 was due 2026-01-05' },
              { kind: 'qc_pending', severity: 'low', production_order_id: 8, production_order_code: 'WO-2026-0008', printer_id: null, message: 'WO-2026-0008 is waiting for QC' },
            ]);
          case '/api/v1/command-center/resources':
            return json({ printers: [], work_centers: [{ id: 3, code: 'FDM', name: 'FDM pool', center_type: 'printer_pool' }] });
          case '/api/v1/printers/active-work': {
            const { printer_id, ...work } = printer;
            return json({ printers: { [printer_id]: work } });
          }
          case '/api/v1/dispatch/suggestions':
            return json(
              running
                ? []
                : [
                    {
                      printer_id: 7,
                      printer_code: 'PRT-1',
                      printer_name: 'X1C #1',
                      loaded_spool_id: null,
                      loaded_material_id: null,
                      material_match: false,
                      score: 10,
                      reasons: ['Priority 3'],
                      accept_path: '/api/v1/production-orders/9/operations/4/start',
                      operation: {
                        operation_id: 4,
                        operation_name: 'Print',
                        status: 'queued',
                        work_center_id: 3,
                        printer_id: null,
                        production_order_id: 9,
                        production_order_code: 'WO-2026-0009',
                        product_sku: 'WIDGET',
                        priority: 3,
                        due_date: '2026-01-05',
                        planned_minutes: '35',
                      },
                    },
                  ],
            );
          case '/api/v1/production-orders/9/operations/4/start':
            posts.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
            running = true;
            return json({ id: 4, operation_name: 'Print', status: 'running' });
          default:
            return new Response(JSON.stringify({ detail: 'Not Found' }), { status: 404 });
        }
      }),
    );
    render(
      <MemoryRouter initialEntries={['/admin/command-center']}>
        <AppProviders client={createQueryClient()}>
          <AppRoutes />
        </AppProviders>
      </MemoryRouter>,
    );
    const card = await screen.findByRole('article', { name: 'Printer PRT-1' });
    expect(within(card).getByText('Nothing running')).toBeInTheDocument();
    expect(within(card).getByText(/FDM pool/)).toBeInTheDocument();
    expect(await screen.findByText('WO-2026-0009 was due 2026-01-05')).toBeInTheDocument();
    expect(screen.getByText('WO-2026-0008 is waiting for QC')).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Accept: Print on PRT-1' }));
    expect(await screen.findByText('Dispatched')).toBeInTheDocument();
    expect(posts).toEqual([{ path: '/api/v1/production-orders/9/operations/4/start', body: { printer_id: 7 } }]);
    expect(await within(card).findByRole('link', { name: 'WO-2026-0009' })).toBeInTheDocument();
    expect(await screen.findByText('No suggestions')).toBeInTheDocument();
  });
});
