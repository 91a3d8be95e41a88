import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { PriceLevelsCard } from './PriceLevelsCard';

const json = (status: number, body: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const level = (id: number, name: string, discount_percent: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  discount_percent,
  description: null,
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...extra,
});

interface Call {
  method: string;
  path: string;
  query: string;
  body: unknown;
}

function stubServer(levels: unknown[], answer: (call: Call) => Response | undefined = () => undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const call = { method: init.method ?? 'GET', path: url.pathname, query: url.search, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
      calls.push(call);
      const own = answer(call);
      if (own) return own;
      if (url.pathname === '/api/v1/price-levels' && call.method === 'GET') {
        const activeOnly = url.searchParams.get('active_only') === 'true';
        return json(200, activeOnly ? levels.filter((l) => (l as { is_active: boolean }).is_active) : levels);
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return calls;
}

function renderCard() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <PriceLevelsCard />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Settings: price levels', () => {
  it('says customers pay list prices when there are no levels', async () => {
    stubServer([]);
    renderCard();
    expect(await screen.findByText('No active price levels')).toBeInTheDocument();
    expect(screen.getByText(/list prices/)).toBeInTheDocument();
  });

  it('lists the active levels, and the inactive ones on request', async () => {
    const calls = stubServer([level(1, 'Wholesale', '15.00', { description: 'Resellers' }), level(2, 'Old', '5.00', { is_active: false })]);
    renderCard();
    const table = await screen.findByRole('table', { name: 'Price levels' });
    const wholesale = within(table).getByText('Wholesale').closest('tr') as HTMLElement;
    expect(wholesale).toHaveTextContent('15.00%');
    expect(wholesale).toHaveTextContent('Resellers');
    expect(within(table).queryByText('Old')).not.toBeInTheDocument();
    expect(calls[0]?.query).toBe('?active_only=true');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Show inactive' }));
    const old = (await screen.findByText('Old')).closest('tr') as HTMLElement;
    expect(within(old).getByText('Inactive')).toBeInTheDocument();
    expect(within(old).queryByRole('button', { name: 'Deactivate Old' })).not.toBeInTheDocument();
  });

  it('adds a level, and puts a duplicate name and a bad discount on their fields', async () => {
    let attempt = 0;
    const calls = stubServer([], (c) => {
      if (c.method !== 'POST') return undefined;
      attempt += 1;
      if (attempt === 1) return json(400, { detail: "Price level 'Wholesale' already exists" });
      if (attempt === 2) return json(422, { details: { errors: [{ field: 'discount_percent', message: 'At most 2 decimals', type: 'value_error' }] } });
      return json(201, level(9, 'Wholesale', '15.00'));
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Add price level' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Wholesale');
    await userEvent.type(within(dialog).getByLabelText(/Discount \(%\)/), '15');
    const submit = () => userEvent.click(within(dialog).getByRole('button', { name: 'Add price level' }));

    await submit();
    expect(await within(dialog).findByText("Price level 'Wholesale' already exists")).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Wholesale', discount_percent: '15', description: null, is_active: true });

    await submit();
    expect(await within(dialog).findByText('At most 2 decimals')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Discount \(%\)/)).toHaveAttribute('aria-invalid', 'true');

    await submit();
    expect(await screen.findByText('Price level added')).toBeInTheDocument();
  });

  it('checks the discount before sending it', async () => {
    const calls = stubServer([]);
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Add price level' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Too much');
    await userEvent.type(within(dialog).getByLabelText(/Discount \(%\)/), '101');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add price level' }));
    expect(await within(dialog).findByText(/from 0 to 100/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('edits a level with a PATCH', async () => {
    const calls = stubServer([level(1, 'Wholesale', '15.00')], (c) => (c.method === 'PATCH' ? json(200, level(1, 'Wholesale', '20.00')) : undefined));
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Wholesale' }));
    const dialog = await screen.findByRole('dialog');
    const discount = within(dialog).getByLabelText(/Discount \(%\)/);
    expect(discount).toHaveValue('15.00');
    await userEvent.clear(discount);
    await userEvent.type(discount, '20');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Price level saved')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body])).toEqual([
      ['/api/v1/price-levels/1', { name: 'Wholesale', discount_percent: '20', description: null, is_active: true }],
    ]);
  });

  it('deactivates a level after asking', async () => {
    const calls = stubServer([level(2, 'Retail', '0.00')], (c) => (c.method === 'DELETE' ? json(200, level(2, 'Retail', '0.00', { is_active: false })) : undefined));
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate Retail' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Retail');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Price level deactivated')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/v1/price-levels/2']);
  });

  it("lists a level's item prices, removes one and sets one by SKU", async () => {
    let prices = [{ item_id: 4, sku: 'PLA-BLK', name: 'Black widget', selling_price: '10.00', unit_price: '8.50' }];
    const calls = stubServer([level(1, 'Wholesale', '15.00')], (c) => {
      if (c.path === '/api/v1/price-levels/1/items' && c.method === 'GET') return json(200, prices);
      if (c.path === '/api/v1/price-levels/1/items/4' && c.method === 'DELETE') {
        prices = [];
        return new Response(null, { status: 204 });
      }
      if (c.path === '/api/v1/items/sku/PLA-RED') return json(200, { id: 5, sku: 'PLA-RED', name: 'Red widget' });
      if (c.path === '/api/v1/items/sku/NOPE') return json(404, { detail: 'Item not found' });
      if (c.path === '/api/v1/price-levels/1/items/5' && c.method === 'PUT') {
        prices = [{ item_id: 5, sku: 'PLA-RED', name: 'Red widget', selling_price: '12.00', unit_price: '9.99' }];
        return json(200, level(1, 'Wholesale', '15.00'));
      }
      if (c.path === '/api/v1/items') return json(200, { items: [], total: 0 });
      return undefined;
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Item prices of Wholesale' }));
    const dialog = await screen.findByRole('dialog', { name: /Item prices · Wholesale/ });
    const table = await within(dialog).findByRole('table', { name: 'Item prices of Wholesale' });
    const row = within(table).getByText('PLA-BLK').closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('$10.00');
    expect(row).toHaveTextContent('$8.50');

    await userEvent.click(within(row).getByRole('button', { name: 'Remove the price of PLA-BLK' }));
    expect(await within(dialog).findByText('No item prices')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/v1/price-levels/1/items/4']);

    const sku = within(dialog).getByLabelText(/Item SKU/);
    await userEvent.type(sku, 'nope');
    await userEvent.type(within(dialog).getByLabelText(/Level price/), '9.99');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set price' }));
    expect(await within(dialog).findByText('No item has the SKU NOPE.')).toBeInTheDocument();

    await userEvent.clear(sku);
    await userEvent.type(sku, 'pla-red');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set price' }));
    expect(await within(dialog).findByText('PLA-RED')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([['/api/v1/price-levels/1/items/5', { unit_price: '9.99' }]]);
    expect(within(dialog).getByLabelText(/Item SKU/)).toHaveValue('');
  });
});
