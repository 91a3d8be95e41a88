import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { PrinterFormModal } from './PrinterFormModal';
import type { PrinterDetail } from './printerApi';

afterEach(() => vi.unstubAllGlobals());

const CENTERS = [
  { id: 1, code: 'FDM', name: 'FDM pool', center_type: 'printer_pool', hourly_rate: '10.00', description: null, active: true, printers: [], created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
  { id: 2, code: 'OLD', name: 'Old pool', center_type: 'printer_pool', hourly_rate: '0.00', description: null, active: false, printers: [], created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
  { id: 3, code: 'QC', name: 'QC bench', center_type: 'qc', hourly_rate: '0.00', description: null, active: true, printers: [], created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
];

const x1 = {
  id: 5,
  code: 'PRT-005',
  name: 'X1C bay 5',
  model: 'X1 Carbon',
  brand: 'bambulab',
  serial_number: null,
  ip_address: '10.0.0.5',
  location: null,
  work_center_id: 2,
  notes: null,
  status: 'idle',
  active: true,
} as unknown as PrinterDetail;

interface Sent {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

function stubFetch(answer: (s: Sent) => { status: number; body: unknown } = (s) => ({ status: s.method === 'POST' ? 201 : 200, body: { ...x1, ...s.body } })) {
  const sent: Sent[] = [];
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      paths.push(`${url.pathname}${url.search}`);
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (url.pathname === '/api/v1/work-centers/') return json(CENTERS);
      if (url.pathname === '/api/v1/printers/generate-code') return json({ code: 'PRT-006' });
      if (init.method === 'POST' || init.method === 'PUT') {
        const s = { method: init.method, path: url.pathname, body: JSON.parse(String(init.body)) as Record<string, unknown> };
        sent.push(s);
        const r = answer(s);
        return json(r.body, r.status);
      }
      return json({});
    }),
  );
  return { sent, paths };
}

function open(printer: PrinterDetail | null) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <PrinterFormModal open printer={printer} onClose={onClose} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: printer ? `Edit ${printer.code}` : 'Add printer' });
  return { dialog, onClose, user: userEvent.setup() };
}

describe("printer form's work center", () => {
  it("is prefilled on edit (even an inactive one), offers only active ones besides, and is sent on update", async () => {
    const { sent, paths } = stubFetch();
    const { dialog, onClose, user } = open(x1);
    const select = within(dialog).getByLabelText('Work center');
    await waitFor(() => expect(select).toHaveDisplayValue('OLD · Old pool (inactive)'));
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['None', 'FDM · FDM pool', 'OLD · Old pool (inactive)', 'QC · QC bench']);
    expect(paths).toContain('/api/v1/work-centers/?active_only=false');

    await user.selectOptions(select, 'FDM · FDM pool');
    await user.click(within(dialog).getByRole('button', { name: 'Save printer' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ method: 'PUT', path: '/api/v1/printers/5', body: expect.objectContaining({ code: 'PRT-005', work_center_id: 1 }) as unknown }]);
  });

  it('sends null when None is chosen', async () => {
    const { sent } = stubFetch();
    const { dialog, onClose, user } = open(x1);
    const select = within(dialog).getByLabelText('Work center');
    await waitFor(() => expect(select).toHaveDisplayValue('OLD · Old pool (inactive)'));
    await user.selectOptions(select, 'None');
    await user.click(within(dialog).getByRole('button', { name: 'Save printer' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]?.body).toHaveProperty('work_center_id', null);
  });

  it('is sent on create, None by default', async () => {
    const { sent } = stubFetch();
    const { dialog, onClose, user } = open(null);
    const select = within(dialog).getByLabelText('Work center');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3));
    expect(select).toHaveDisplayValue('None');
    expect(within(select).queryByRole('option', { name: /OLD/ })).toBeNull();
    await user.type(within(dialog).getByLabelText(/^Name/), 'Bay 6');
    await user.type(within(dialog).getByLabelText(/^Model/), 'MK4');
    await waitFor(() => expect(within(dialog).getByLabelText(/^Code/)).toHaveValue('PRT-006'));
    await user.selectOptions(select, 'QC · QC bench');
    await user.click(within(dialog).getByRole('button', { name: 'Add printer' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ method: 'POST', path: '/api/v1/printers/', body: expect.objectContaining({ code: 'PRT-006', name: 'Bay 6', work_center_id: 3 }) as unknown }]);
  });

  it("puts the server's 422 about the work center on its field", async () => {
    stubFetch(() => ({
      status: 422,
      body: { error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'work_center_id', message: 'Work center 1 does not exist', type: 'value_error' }] } },
    }));
    const { dialog, onClose, user } = open(x1);
    const select = within(dialog).getByLabelText('Work center');
    await waitFor(() => expect(select).toHaveDisplayValue('OLD · Old pool (inactive)'));
    await user.selectOptions(select, 'FDM · FDM pool');
    await user.click(within(dialog).getByRole('button', { name: 'Save printer' }));
    await waitFor(() => expect(select).toHaveAttribute('aria-invalid', 'true'));
    expect(select).toHaveAccessibleDescription('Work center 1 does not exist');
    expect(onClose).not.toHaveBeenCalled();
  });
});
