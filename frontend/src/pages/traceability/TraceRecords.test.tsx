import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = {
  id: 1,
  email: 'admin@example.com',
  first_name: 'Ada',
  last_name: 'Admin',
  full_name: 'Ada Admin',
  account_type: 'admin',
  status: 'active',
  last_login_at: null,
  created_at: '2026-01-20T12:00:00Z',
};

const lot = {
  id: 7,
  lot_number: 'PLA-2026-0007',
  product_id: 3,
  product_sku: 'PLA-BLK',
  product_name: 'PLA Black',
  vendor_id: null,
  purchase_order_id: null,
  vendor_lot_number: null,
  quantity_received: '1000.000',
  quantity_consumed: '250.000',
  quantity_remaining: '750.000',
  status: 'active',
  inspection_status: 'passed',
  received_date: '2026-11-20',
  expiration_date: null,
  notes: null,
};

const unit = (id: number, status: string) => ({
  id,
  serial_number: `W-${id}`,
  product_id: 5,
  product_sku: 'WIDGET',
  product_name: 'Widget',
  production_order_id: null,
  status,
  qc_passed: false,
  qc_date: null,
  qc_notes: null,
  sales_order_id: null,
  sales_order_line_id: null,
  shipment_id: null,
  sold_at: null,
  shipped_at: null,
  tracking_number: null,
  return_reason: null,
  returned_at: null,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

type Reply = (call: Call) => [number, unknown] | undefined;

/** Answers the routes the tabs use; `reply` can answer a write first. Records every call. */
function stubServer(reply: Reply = () => undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const call: Call = {
        method: init?.method ?? 'GET',
        path,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        headers: (init?.headers as Record<string, string>) ?? {},
      };
      calls.push(call);
      let answer = reply(call);
      if (!answer) {
        if (path === '/admin/traceability/lots') answer = [200, { items: [lot], total: 1, offset: 0, limit: 25 }];
        else if (path === '/admin/traceability/serials')
          answer = [200, { items: [unit(1, 'manufactured'), unit(2, 'shipped'), unit(3, 'scrapped')], total: 3, offset: 0, limit: 25 }];
        else if (path === '/items') answer = [200, { items: [{ id: 3, sku: 'PLA-BLK', name: 'PLA Black' }], total: 1 }];
        else if (path === '/vendors/') answer = [200, { items: [], total: 0 }];
        else if (path === '/production-orders/') answer = [200, []];
        else if (path === '/admin/traceability/profiles')
          answer = [
            200,
            [
              {
                id: 1,
                user_id: 9,
                customer_id: 9,
                customer_name: 'Acme Aero',
                customer_email: 'qa@acme.test',
                traceability_level: 'serial',
                requires_coc: true,
                requires_coa: false,
                requires_first_article: true,
                record_retention_days: 2555,
                custom_serial_prefix: null,
                compliance_standards: 'AS9100',
                notes: null,
                created_at: '2026-11-20T00:00:00Z',
                updated_at: '2026-11-20T00:00:00Z',
              },
            ],
          ];
        else answer = [404, { detail: 'Not Found' }];
      }
      return new Response(JSON.stringify(answer[1]), { status: answer[0], headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderAt(path: string) {
  localStorage.setItem('adminUser', JSON.stringify(admin));
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('record lot dialog', () => {
  it('generates a number, posts once with an Idempotency-Key and shows field errors next to fields', async () => {
    const calls = stubServer((c) => {
      if (c.method === 'POST' && c.path === '/admin/traceability/lots/generate-number') return [200, { lot_number: 'PLA-BLK-2026-0008' }];
      if (c.method === 'POST' && c.path === '/admin/traceability/lots')
        return [422, { detail: 'Validation failed', details: { errors: [{ field: 'unit_cost', message: 'must not be negative' }] } }];
      return undefined;
    });
    renderAt('/admin/quality/traceability?tab=lots');
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Record lot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record lot' });
    expect(within(dialog).getAllByText(/posts no stock/).length).toBeGreaterThan(0);
    await within(dialog).findByRole('option', { name: 'PLA-BLK — PLA Black' });
    await u.selectOptions(within(dialog).getByLabelText(/^Item/), '3');
    await u.click(within(dialog).getByRole('button', { name: 'Generate number' }));
    expect(await within(dialog).findByDisplayValue('PLA-BLK-2026-0008')).toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith('/generate-number'))!.body).toEqual({ product_id: 3 });

    await u.type(within(dialog).getByLabelText(/^Quantity received/), '500');
    await u.click(within(dialog).getByRole('button', { name: 'Record lot' }));
    expect(await within(dialog).findByText('must not be negative')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === '/admin/traceability/lots')!;
    expect(post.body).toEqual({ product_id: 3, quantity_received: '500', lot_number: 'PLA-BLK-2026-0008' });
    expect(post.headers['Idempotency-Key']).toMatch(/.{8,}/);
  });
});

describe('lot row actions', () => {
  it('asks before a quarantine and then patches the status', async () => {
    const calls = stubServer((c) => (c.method === 'PATCH' ? [200, { ...lot, status: 'quarantine' }] : undefined));
    renderAt('/admin/quality/traceability?tab=lots');
    const u = userEvent.setup();
    const select = await screen.findByLabelText('Change status of lot PLA-2026-0007');
    await u.selectOptions(select, 'quarantine');
    const confirm = await screen.findByRole('alertdialog');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    await u.click(within(confirm).getByRole('button', { name: 'Quarantine' }));
    await screen.findByText(/is quarantine/);
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe('/admin/traceability/lots/7');
    expect(patch.body).toEqual({ status: 'quarantine' });
  });

  it('shows what is left when recording a consumption and refuses more', async () => {
    stubServer();
    renderAt('/admin/quality/traceability?tab=lots');
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Record consumption from lot PLA-2026-0007' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record consumption from lot PLA-2026-0007' });
    expect(within(dialog).getByText('750 left in the lot.')).toBeInTheDocument();
    await u.type(within(dialog).getByLabelText(/^Quantity/), '800');
    await u.click(within(dialog).getByRole('button', { name: 'Record consumption' }));
    expect(await within(dialog).findByText('Only 750 left in this lot')).toBeInTheDocument();
    expect(within(dialog).getByText('Pick the work order that used the material')).toBeInTheDocument();
  });
});

describe('serial number row actions', () => {
  it('offers only the allowed moves and asks for a return reason', async () => {
    const calls = stubServer((c) => (c.method === 'PATCH' ? [200, { ...unit(2, 'returned'), return_reason: 'Cracked' }] : undefined));
    renderAt('/admin/quality/traceability?tab=serials');
    const u = userEvent.setup();
    const table = await screen.findByRole('region', { name: 'Serial numbers' });
    const row = (n: number) => within(table).getByText(`W-${n}`).closest('tr')!;
    await within(table).findByText('W-1');
    expect(within(row(1)).getByRole('button', { name: 'Put away W-1' })).toBeInTheDocument();
    expect(within(row(1)).getByRole('button', { name: 'Scrap W-1' })).toBeInTheDocument();
    expect(within(row(1)).queryByRole('button', { name: 'Return W-1' })).toBeNull();
    expect(within(row(3)).queryAllByRole('button')).toHaveLength(0);

    await u.click(within(row(2)).getByRole('button', { name: 'Return W-2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Return W-2' });
    await u.click(within(dialog).getByRole('button', { name: 'Record return' }));
    expect(within(dialog).getByText('Say why the unit came back')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    await u.type(within(dialog).getByLabelText(/^Reason/), 'Cracked');
    await u.click(within(dialog).getByRole('button', { name: 'Record return' }));
    await screen.findByText(/W-2 is returned/);
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ status: 'returned', return_reason: 'Cracked' });
  });
});

describe('customer profiles', () => {
  it('lists profiles with their level and certificates', async () => {
    stubServer();
    renderAt('/admin/quality/traceability?tab=profiles');
    const table = await screen.findByRole('table', { name: 'Traceability profiles' });
    const row = within(table).getByText('Acme Aero').closest('tr')!;
    expect(within(row).getByText('Serial')).toBeInTheDocument();
    expect(within(row).getByText('CoC, First article')).toBeInTheDocument();
    expect(within(row).getByText('AS9100')).toBeInTheDocument();
  });

  it('edits a profile by its customer id', async () => {
    const calls = stubServer((c) => (c.method === 'PATCH' ? [200, { ...(c.body as object), customer_name: 'Acme Aero', customer_email: 'qa@acme.test' }] : undefined));
    renderAt('/admin/quality/traceability?tab=profiles');
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Edit profile of Acme Aero' }));
    const dialog = await screen.findByRole('dialog', { name: 'Traceability profile of Acme Aero' });
    expect(within(dialog).queryByLabelText(/^Customer/)).toBeNull();
    await u.selectOptions(within(dialog).getByLabelText(/^Traceability level/), 'full');
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Acme Aero: full tracing.');
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe('/admin/traceability/profiles/9');
    expect(patch.body).toMatchObject({ customer_id: 9, traceability_level: 'full', requires_coc: true, requires_first_article: true, record_retention_days: 2555 });
  });
});
