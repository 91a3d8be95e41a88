import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { ReceiveDialog } from './ReceiveDialog';
import { defaultReceiveLocation, type PurchaseOrder } from './purchasingApi';

afterEach(() => vi.unstubAllGlobals());

const line = (id: number, sku: string, remaining: string) => ({
  id,
  line_number: id,
  product_id: id * 10,
  product_sku: sku,
  product_name: sku,
  product_unit: 'G',
  quantity_ordered: remaining,
  quantity_received: '0',
  quantity_remaining: remaining,
  unit_cost: '20.0000',
  purchase_unit: 'KG',
  line_total: '40.00',
  notes: null,
});

const po = { id: 7, po_number: 'PO-2026-007', status: 'ordered', lines: [line(1, 'PLA', '2'), line(2, 'NUT', '10')] } as unknown as PurchaseOrder;

const LOCATIONS = [
  { id: 3, code: 'A-01', name: 'Shelf A-01', type: 'shelf' },
  { id: 9, code: 'WH2', name: 'Second warehouse', type: 'warehouse' },
  { id: 2, code: 'MAIN', name: 'Main Warehouse', type: 'warehouse' },
];

interface Post {
  path: string;
  key: string | null;
  body: unknown;
}

function stubFetch(receive: (n: number) => { status: number; body: unknown }) {
  const posts: Post[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (url.pathname === '/api/v1/admin/inventory/transactions/locations') return json(LOCATIONS);
      if (url.pathname === '/api/v1/purchase-orders/7/receive' && init.method === 'POST') {
        posts.push({ path: url.pathname, key: new Headers(init.headers).get('Idempotency-Key'), body: JSON.parse(String(init.body)) });
        const r = receive(posts.length);
        return json(r.body, r.status);
      }
      return json({});
    }),
  );
  return posts;
}

const RECEIPT = { po_number: 'PO-2026-007', lines_received: 1, total_quantity: '1', inventory_updated: true, transactions_created: [1], spools_created: [], material_lots_created: ['LOT-1'], journal_entry_id: 1, status: 'ordered' };

function open(onClose = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <ReceiveDialog po={po} onClose={onClose} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { dialog: screen.getByRole('dialog', { name: 'Receive PO-2026-007' }), onClose, user: userEvent.setup() };
}

describe('receive location', () => {
  it('is the first warehouse by id, else MAIN, as the server picks it', () => {
    expect(defaultReceiveLocation(LOCATIONS)?.code).toBe('MAIN');
    expect(defaultReceiveLocation([LOCATIONS[0]!, { id: 4, code: 'main', name: 'Main', type: 'shelf' }])?.id).toBe(4);
    expect(defaultReceiveLocation([LOCATIONS[0]!])).toBeUndefined();
  });
});

describe('receive dialog', () => {
  it('preselects the default location, posts the chosen one with the vendor lot per line and one Idempotency-Key', async () => {
    const posts = stubFetch(() => ({ status: 200, body: RECEIPT }));
    const { dialog, onClose, user } = open();
    const where = within(dialog).getByLabelText('Receive into');
    await within(dialog).findByRole('option', { name: 'WH2 · Second warehouse' });
    expect(where).toHaveValue('2');
    await user.selectOptions(where, '9');
    const nut = within(dialog).getByLabelText('Quantity of NUT');
    await user.clear(nut);
    await user.type(nut, '0');
    await user.type(within(dialog).getByLabelText('Vendor lot number of PLA'), ' V-778 ');
    await user.type(within(dialog).getByLabelText('Spool weights of PLA'), '1000, 1000');
    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toHaveLength(1);
    expect(posts[0]?.key).toMatch(/.{8,}/);
    expect(posts[0]?.body).toEqual({
      location_id: 9,
      lines: [{ line_id: 1, quantity_received: '2', lot_number: null, vendor_lot_number: 'V-778', spools: [{ weight_g: '1000' }, { weight_g: '1000' }] }],
    });
  });

  it('sends the default location untouched, refuses nothing to receive and bad weights before posting', async () => {
    const posts = stubFetch(() => ({ status: 200, body: RECEIPT }));
    const { dialog, onClose, user } = open();
    await within(dialog).findByRole('option', { name: 'MAIN · Main Warehouse' });
    for (const sku of ['PLA', 'NUT']) {
      const q = within(dialog).getByLabelText(`Quantity of ${sku}`);
      await user.clear(q);
      await user.type(q, '0');
    }
    await user.type(within(dialog).getByLabelText('Spool weights of PLA'), '1000, x');
    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(await within(dialog).findByText('Enter a quantity on at least one line.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter weights in grams above 0, like 1000, 750.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Spool weights of PLA'));
    const nut = within(dialog).getByLabelText('Quantity of NUT');
    await user.clear(nut);
    await user.type(nut, '4');
    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts[0]?.body).toEqual({ location_id: 2, lines: [{ line_id: 2, quantity_received: '4', lot_number: null, vendor_lot_number: null, spools: [] }] });
  });

  it("puts the server's 422 on the line it names, counting only the lines sent; a 400 in the banner", async () => {
    const posts = stubFetch((n) =>
      n === 1
        ? { status: 422, body: { error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'lines.0.vendor_lot_number', message: 'String should have at most 100 characters' }] } } }
        : { status: 400, body: { error: 'BAD_REQUEST', message: 'Location 9 is inactive' } },
    );
    const { dialog, onClose, user } = open();
    await within(dialog).findByRole('option', { name: 'MAIN · Main Warehouse' });
    const pla = within(dialog).getByLabelText('Quantity of PLA');
    await user.clear(pla);
    await user.type(pla, '0');
    await user.type(within(dialog).getByLabelText('Vendor lot number of NUT'), 'V-1');
    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(await within(dialog).findByText('String should have at most 100 characters')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Vendor lot number of NUT')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Vendor lot number of PLA')).not.toHaveAttribute('aria-invalid');

    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(await within(dialog).findByText('Location 9 is inactive')).toBeInTheDocument();
    expect(posts).toHaveLength(2);
    expect(posts[1]?.key).toBe(posts[0]?.key);
    expect(onClose).not.toHaveBeenCalled();
  });
});
