import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import type { Variant } from '../items/variantsApi';
import { canSwap } from './MaterialSwap';
import { admin, order } from './orderFixtures';
import type { ProductionMaterial, ProductionOrder } from './productionApi';

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const material = (id: number, componentId: number, sku: string, over: Partial<ProductionMaterial> = {}): ProductionMaterial => ({
  id,
  component_id: componentId,
  component_sku: sku,
  component_name: `${sku} part`,
  quantity_required: '2',
  quantity_allocated: '0',
  quantity_consumed: '0',
  unit: 'EA',
  status: 'short',
  ...over,
});

const variant = (id: number, sku: string, onHand: number, active = true): Variant => ({
  id,
  sku,
  name: `${sku} toy`,
  material_type_code: 'PLA',
  color_code: 'RED',
  color_hex: '#D7263D',
  standard_cost: 2,
  selling_price: 14,
  on_hand_qty: onHand,
  active,
});

/** The order page's calls; the toy (40) is a template with three variants, the box (41) is not. */
function serve(state: { order: ProductionOrder; swap?: Response }) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({ method, path: url.pathname, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (method === 'PATCH' && url.pathname === '/api/v1/production-orders/5/materials/1/component') return state.swap ?? json({ detail: 'no' }, 500);
      switch (url.pathname) {
        case '/api/v1/auth/me':
          return json(admin);
        case '/api/v1/production-orders/5':
          return json(state.order);
        case '/api/v1/items/40/variants':
          return json([variant(50, 'TOY-PLA-BLACK', 0), variant(51, 'TOY-PLA-RED', 5), variant(52, 'TOY-PLA-OLD', 9, false)]);
        case '/api/v1/items/41/variants':
          return json([]);
        case '/api/v1/production-orders/5/material-availability':
          return json({ order_id: 5, order_code: 'WO-2026-0005', materials: [], summary: { total_materials: 0, materials_available: 0, materials_short: 0, can_start: true }, can_release: true, shortage_count: 0 });
        case '/api/v1/work-centers/':
          return json([]);
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

const released = () => order({ status: 'released', materials: [material(1, 40, 'TOY'), material(2, 41, 'BOX')] });

describe("swapping an order's material for a variant", () => {
  it('is offered for open orders and lines with nothing consumed', () => {
    expect(canSwap({ status: 'released' }, { quantity_consumed: '0' })).toBe(true);
    expect(canSwap({ status: 'draft' }, { quantity_consumed: '0.0000' })).toBe(true);
    expect(canSwap({ status: 'in_progress' }, { quantity_consumed: '1' })).toBe(false);
    expect(canSwap({ status: 'complete' }, { quantity_consumed: '0' })).toBe(false);
  });

  it('offers the active variants of a template line with their stock, and sends the one picked with the reason', async () => {
    const state = { order: released(), swap: new Response(JSON.stringify(material(1, 51, 'TOY-PLA-RED', { quantity_allocated: '2', status: 'allocated' })), { status: 200, headers: { 'Content-Type': 'application/json' } }) };
    const calls = serve(state);
    const user = renderAt('/admin/production/5');
    const table = await screen.findByRole('table', { name: 'Materials' });
    await user.click(await within(table).findByRole('button', { name: 'Use a variant of TOY' }));
    expect(within(table).queryByRole('button', { name: 'Use a variant of BOX' })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Use a variant of TOY' });
    expect(within(dialog).getByText('2 EA for WO-2026-0005. The reservation moves to the variant.')).toBeInTheDocument();
    const radios = within(dialog).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('aria-label'))).toEqual(['TOY-PLA-BLACK, 0 EA on hand', 'TOY-PLA-RED, 5 EA on hand']);
    expect(within(dialog).getAllByText('Short')).toHaveLength(1);
    expect(within(dialog).getByText('Enough')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Use this variant' }));
    expect(await within(dialog).findByText('Choose the variant to use.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'TOY-PLA-RED, 5 EA on hand' }));
    await user.type(within(dialog).getByLabelText('Reason'), 'Customer wants red');
    state.order = order({ status: 'released', materials: [material(1, 51, 'TOY-PLA-RED', { quantity_allocated: '2' }), material(2, 41, 'BOX')] });
    await user.click(within(dialog).getByRole('button', { name: 'Use this variant' }));
    expect(await screen.findByText('WO-2026-0005 now uses TOY-PLA-RED instead of TOY.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ new_component_id: 51, reason: 'Customer wants red' });
    expect(await within(table).findByText('TOY-PLA-RED')).toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog", async () => {
    serve({
      order: released(),
      swap: new Response(JSON.stringify({ detail: 'Cannot swap: 1 EA of it was already consumed' }), { status: 400, headers: { 'Content-Type': 'application/json' } }),
    });
    const user = renderAt('/admin/production/5');
    const table = await screen.findByRole('table', { name: 'Materials' });
    await user.click(await within(table).findByRole('button', { name: 'Use a variant of TOY' }));
    const dialog = await screen.findByRole('dialog', { name: 'Use a variant of TOY' });
    await user.click(within(dialog).getByRole('radio', { name: 'TOY-PLA-BLACK, 0 EA on hand' }));
    await user.click(within(dialog).getByRole('button', { name: 'Use this variant' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The material was not swapped');
    expect(alert).toHaveTextContent('Cannot swap: 1 EA of it was already consumed');
  });

  it('offers nothing once the line was consumed from', async () => {
    serve({ order: order({ status: 'in_progress', materials: [material(1, 40, 'TOY', { quantity_consumed: '1' })] }) });
    renderAt('/admin/production/5');
    const table = await screen.findByRole('table', { name: 'Materials' });
    expect(within(table).getByText('TOY')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /Use a variant/ })).not.toBeInTheDocument();
  });
});
