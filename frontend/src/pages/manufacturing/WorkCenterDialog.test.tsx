import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { ManufacturingPage } from './ManufacturingPage';

afterEach(() => vi.unstubAllGlobals());

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const CENTERS = [
  {
    id: 1,
    code: 'FDM',
    name: 'FDM pool',
    center_type: 'printer_pool',
    hourly_rate: '12.00',
    description: null,
    active: true,
    printers: [
      { id: 5, code: 'PRT-005', name: 'X1C bay 5', status: 'printing' },
      { id: 6, code: 'PRT-006', name: 'MK4 bay 6', status: 'idle' },
    ],
    ...stamp,
  },
  { id: 2, code: 'QC', name: 'QC bench', center_type: 'qc', hourly_rate: '0.00', description: null, active: true, printers: [], ...stamp },
];

function show() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const body = url.pathname === '/api/v1/work-centers/' ? CENTERS : {};
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/admin/manufacturing']}>
          <ManufacturingPage />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe("a work center's printers", () => {
  it('are listed in the work centers table and in the work center dialog with their names and status', async () => {
    const user = show();
    const table = await screen.findByRole('table', { name: 'Work centers' });
    const fdm = (await within(table).findByText('FDM pool')).closest('tr')!;
    expect(fdm).toHaveTextContent('PRT-005, PRT-006');

    await user.click(within(fdm).getByRole('button', { name: 'Edit FDM' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit FDM' });
    const printers = within(dialog).getByRole('table', { name: 'Printers of this work center' });
    const rows = within(printers).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['PRT-005', 'X1C bay 5', 'Printing'],
      ['PRT-006', 'MK4 bay 6', 'Idle'],
    ]);
  });

  it('says how to add one when it has none, and a new work center shows no printers section', async () => {
    const user = show();
    const table = await screen.findByRole('table', { name: 'Work centers' });
    await user.click(await within(table).findByRole('button', { name: 'Edit QC' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit QC' });
    expect(within(dialog).queryByRole('table', { name: 'Printers of this work center' })).toBeNull();
    expect(within(dialog).getByText(/No printers yet/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'New work center' }));
    const create = screen.getByRole('dialog', { name: 'New work center' });
    expect(within(create).queryByText('Printers')).toBeNull();
  });
});
