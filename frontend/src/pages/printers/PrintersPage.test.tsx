import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { PrintersPage } from './PrintersPage';

afterEach(() => vi.unstubAllGlobals());

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const printer = (id: number, code: string, work_center_id: number | null) => ({
  id,
  code,
  name: `${code} bay`,
  model: 'X1 Carbon',
  brand: 'bambulab',
  serial_number: null,
  ip_address: null,
  mqtt_topic: null,
  location: null,
  work_center_id,
  notes: null,
  active: true,
  status: 'idle',
  connection_config: null,
  capabilities: null,
  last_seen: null,
  is_online: true,
  has_ams: false,
  has_camera: false,
  ...stamp,
});
const PRINTERS = [printer(5, 'PRT-005', 1), printer(6, 'PRT-006', null)];
const CENTERS = [{ id: 1, code: 'FDM', name: 'FDM pool', center_type: 'printer_pool', hourly_rate: '0.00', description: null, active: false, printers: [], ...stamp }];

describe("a printer's work center", () => {
  it('is named by code and name in the list and in the printer details', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://localhost');
        const body =
          url.pathname === '/api/v1/work-centers/'
            ? CENTERS
            : url.pathname === '/api/v1/printers/'
              ? { items: PRINTERS, total: 2, page: 1, page_size: 50, total_pages: 1 }
              : url.pathname === '/api/v1/printers/5'
                ? PRINTERS[0]
                : url.pathname === '/api/v1/maintenance/due'
                  ? { printers: [] }
                  : { items: [], total: 0, page: 1, page_size: 20, total_pages: 0 };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <MemoryRouter initialEntries={['/admin/printers']}>
            <PrintersPage />
          </MemoryRouter>
        </ToastProvider>
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Printers' });
    const row = (await within(table).findByText('PRT-005')).closest('tr')!;
    const column = within(table)
      .getAllByRole('columnheader')
      .findIndex((h) => h.textContent === 'Work center');
    expect(row.cells[column]).toHaveTextContent('FDM · FDM pool');
    expect(within(table).getByText('PRT-006').closest('tr')!.cells[column]).toHaveTextContent(/^—$/);

    await userEvent.setup().click(row);
    const dialog = await screen.findByRole('dialog', { name: 'PRT-005 · PRT-005 bay' });
    const fact = (await within(dialog).findByText('Work center')).closest('div')!;
    expect(fact).toHaveTextContent('FDM · FDM pool');
  });
});
