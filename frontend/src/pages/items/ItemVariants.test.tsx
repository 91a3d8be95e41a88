import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { comboKey, createdSummary, groupState, matrixLayout, selectionsOf, toggleGroup, type VariantCombo, type VariantMatrix, type Variant, type VariantSync } from './variantsApi';
import { splitPreview } from './VariantSync';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

const combo = (t: number, tc: string, c: number, cc: string, over: Partial<VariantCombo> = {}): VariantCombo => ({
  material_type_id: t,
  color_id: c,
  material_type_code: tc,
  material_type_name: `${tc} filament`,
  color_code: cc.toUpperCase(),
  color_name: cc,
  color_hex: '#112233',
  already_exists: false,
  variant_id: null,
  has_material: true,
  ...over,
});

/** PLA in black, red, gold (no material item); PETG in black (made) and red. */
const COMBOS = [
  combo(1, 'PLA', 10, 'Black'),
  combo(1, 'PLA', 11, 'Red'),
  combo(1, 'PLA', 12, 'Gold', { has_material: false }),
  combo(2, 'PETG', 10, 'Black', { already_exists: true, variant_id: 77 }),
  combo(2, 'PETG', 11, 'Red'),
];

const variant = (id: number, sku: string, over: Partial<Variant> = {}): Variant => ({
  id,
  sku,
  name: `Toy ${sku}`,
  material_type_code: 'PETG',
  color_code: 'BLACK',
  color_hex: '#112233',
  standard_cost: 1.5,
  selling_price: 14,
  on_hand_qty: 0,
  active: true,
  ...over,
});

function item(id: number, sku: string) {
  return { id, sku, name: `Item ${sku}`, description: null, item_type: 'finished_good', procurement_type: 'make', unit: 'EA', standard_cost: null, average_cost: null, selling_price: null, active: true, is_active: true, on_hand_qty: '0', available_qty: '0', allocated_qty: '0', files: [] };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface State {
  matrix: VariantMatrix;
  variants: Variant[];
  bulk?: Response;
  remove?: Response;
  preview?: VariantSync;
  applied?: VariantSync;
}

function serve(state: State) {
  const calls: { method: string; path: string; search: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({ method, path: url.pathname, search: url.search, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
      const p = url.pathname;
      if (p === '/api/v1/auth/me') return json(admin);
      if (p === '/api/v1/items') return json({ total: 0, items: [] });
      if (p === '/api/v1/items/5') return json(item(5, 'TOY'));
      if (p === '/api/v1/items/6') return json(item(6, 'PLAIN'));
      if (p === '/api/v1/items/5/variant-matrix') return json(state.matrix);
      if (p === '/api/v1/items/6/variant-matrix') return json({ template: { id: 6, sku: 'PLAIN', name: 'Plain', is_template: false, variable_material_ids: [] }, variants: [], available_combos: [] });
      if (p === '/api/v1/items/5/variants' && method === 'GET') return json(state.variants);
      if (p === '/api/v1/items/5/variants/bulk') return state.bulk ?? json([], 201);
      if (p === '/api/v1/items/5/variants/sync-routing') return json(url.searchParams.get('dry_run') === 'true' ? state.preview : state.applied);
      if (p.startsWith('/api/v1/items/5/variants/') && method === 'DELETE') return state.remove ?? json({ detail: 'Not Found' }, 404);
      return json({ detail: 'Not Found' }, 404);
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

const matrixOf = (over: Partial<VariantMatrix> = {}): VariantMatrix => ({
  template: { id: 5, sku: 'TOY', name: 'Toy', is_template: true, variable_material_ids: [100] },
  variants: [variant(77, 'TOY-PETG-BLACK')],
  available_combos: COMBOS,
  ...over,
});

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the variant matrix rules', () => {
  it('lays out types as rows and colours as columns, with the cells that exist', () => {
    const layout = matrixLayout(COMBOS);
    expect(layout.types.map((t) => t.code)).toEqual(['PLA', 'PETG']);
    expect(layout.colors.map((c) => c.name)).toEqual(['Black', 'Red', 'Gold']);
    expect(layout.cell(2, 12)).toBeUndefined();
    expect(layout.cell(2, 10)?.variant_id).toBe(77);
  });

  it('ticks a whole group, or unticks it when it is all ticked; sends the selection in matrix order', () => {
    const keys = [comboKey(1, 10), comboKey(1, 11)];
    const once = toggleGroup(new Set([comboKey(1, 11)]), keys);
    expect(groupState(once, keys)).toBe('all');
    expect(groupState(toggleGroup(once, keys), keys)).toBe('none');
    expect(groupState(new Set([comboKey(1, 10)]), keys)).toBe('some');
    const layout = matrixLayout(COMBOS);
    expect(selectionsOf(new Set([comboKey(2, 11), comboKey(1, 10)]), layout)).toEqual([
      { material_type_id: 1, color_id: 10 },
      { material_type_id: 2, color_id: 11 },
    ]);
  });

  it('counts what a bulk create made and skipped; groups a sync preview by its changes', () => {
    const s = createdSummary([
      { id: 1, sku: 'A', name: 'A', parent_product_id: 5, standard_cost: null, selling_price: null, status: 'created', reason: null },
      { id: null, sku: 'B', name: null, parent_product_id: 5, standard_cost: null, selling_price: null, status: 'skipped', reason: 'exists' },
    ]);
    expect(s.text).toBe('1 created, 1 skipped');
    const split = splitPreview({
      synced: 0,
      total: 3,
      dry_run: true,
      errors: [],
      variants: [
        { variant_id: 1, sku: 'A', changes: ['run 30 min becomes run 45 min'] },
        { variant_id: 2, sku: 'B', changes: ['run 30 min becomes run 45 min'] },
        { variant_id: 3, sku: 'C', changes: [] },
      ],
    });
    expect(split.groups).toEqual([{ changes: ['run 30 min becomes run 45 min'], skus: ['A', 'B'] }]);
    expect(split.inStep.map((v) => v.sku)).toEqual(['C']);
  });
});

describe('the Variants tab of an item', () => {
  it('explains how to get a matrix when the routing has no variable material, with a link to the routing editor', async () => {
    serve({ matrix: matrixOf(), variants: [] });
    renderAt('/admin/items?item=6&tab=variants');
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    expect(await within(dialog).findByRole('heading', { name: 'No variable material yet' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Open the routing editor' })).toHaveAttribute('href', '/admin/manufacturing?tab=routings&product=6');
  });

  it('shows made, available and unavailable cells; a column pick creates them in one request and sums it up', async () => {
    const state: State = {
      matrix: matrixOf(),
      variants: [variant(77, 'TOY-PETG-BLACK')],
      bulk: json(
        [
          { id: 80, sku: 'TOY-PLA-RED', name: 'Toy PLA Red', parent_product_id: 5, standard_cost: 1, selling_price: 14, status: 'created', reason: null },
          { id: 81, sku: 'TOY-PETG-RED', name: 'Toy PETG Red', parent_product_id: 5, standard_cost: 1, selling_price: 14, status: 'created', reason: null },
        ],
        201,
      ),
    };
    const calls = serve(state);
    const user = renderAt('/admin/items?item=5');
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    await user.click(await within(dialog).findByRole('tab', { name: 'Variants' }));
    const matrix = await within(dialog).findByRole('table', { name: 'Variant matrix' });
    expect(within(matrix).getByRole('link', { name: 'PETG Black: made, open the variant' })).toHaveAttribute('href', '/admin/items?item=77');
    const gold = within(matrix).getByRole('checkbox', { name: 'PLA Gold: no material item' });
    expect(gold).toBeDisabled();
    expect(gold.closest('td')).toHaveAttribute('title', expect.stringMatching(/No material item is linked to PLA Gold/));
    expect(within(matrix).getByText('PETG does not come in Gold')).toBeInTheDocument();

    await user.click(within(matrix).getByRole('checkbox', { name: 'Select the Red column' }));
    expect(within(matrix).getByRole('checkbox', { name: 'PLA Red' })).toBeChecked();
    expect(within(matrix).getByRole('checkbox', { name: 'PETG Red' })).toBeChecked();
    expect(within(matrix).getByRole('checkbox', { name: 'PLA Black' })).not.toBeChecked();
    expect(within(dialog).getByText('2 selected')).toBeInTheDocument();
    // The made ones changed the matrix when it refetches.
    state.matrix = matrixOf({ available_combos: COMBOS.map((c) => (c.color_id === 11 ? { ...c, already_exists: true, variant_id: 80 + c.material_type_id - 1 } : c)) });
    await user.click(within(dialog).getByRole('button', { name: 'Create 2 variants' }));
    const summary = await within(dialog).findByRole('status', { name: 'Variants created' });
    expect(summary).toHaveTextContent('2 created, 0 skipped');
    expect(summary).toHaveTextContent('TOY-PLA-RED, TOY-PETG-RED');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      selections: [
        { material_type_id: 1, color_id: 11 },
        { material_type_id: 2, color_id: 11 },
      ],
    });
    expect(await within(matrix).findByRole('link', { name: 'PLA Red: made, open the variant' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create variants' })).toBeDisabled();
  });

  it('shows a refusal of the whole request: nothing was made', async () => {
    serve({ matrix: matrixOf(), variants: [], bulk: json({ detail: 'No active product found for material type 1 and color 10' }, 404) });
    const user = renderAt('/admin/items?item=5&tab=variants');
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    const matrix = await within(dialog).findByRole('table', { name: 'Variant matrix' });
    await user.click(within(matrix).getByRole('checkbox', { name: 'Select the PLA row' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create 2 variants' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('No variants were made');
    expect(alert).toHaveTextContent('No active product found for material type 1 and color 10');
    // The selection stays, to try again.
    expect(within(matrix).getByRole('checkbox', { name: 'PLA Black' })).toBeChecked();
  });

  it('deletes a variant after a confirmation and shows the 409 of one with stock', async () => {
    const state: State = { matrix: matrixOf(), variants: [variant(77, 'TOY-PETG-BLACK', { on_hand_qty: 4 }), variant(78, 'TOY-PLA-RED')] };
    state.remove = json({ detail: 'Variant TOY-PETG-BLACK has stock, orders or history and cannot be deleted; deactivate it instead' }, 409);
    const calls = serve(state);
    const user = renderAt('/admin/items?item=5&tab=variants');
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    const list = await within(dialog).findByRole('table', { name: 'Variants' });
    expect(within(list).getByRole('row', { name: /TOY-PETG-BLACK/ })).toHaveTextContent('4');
    await user.click(within(list).getByRole('button', { name: 'Delete TOY-PETG-BLACK' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete variant' }));
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent('The variant was not deleted');
    expect(refusal).toHaveTextContent('Variant TOY-PETG-BLACK has stock, orders or history');

    state.remove = json({ id: 78, sku: 'TOY-PLA-RED', status: 'deleted', remaining_variants: 1 });
    await user.click(within(list).getByRole('button', { name: 'Delete TOY-PLA-RED' }));
    state.variants = [state.variants[0]!];
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete variant' }));
    expect(await screen.findByText('TOY-PLA-RED is gone; 1 variant left.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/v1/items/5/variants/77', '/api/v1/items/5/variants/78']);
  });

  it('previews a routing sync with a dry run, then applies it and shows what failed', async () => {
    const calls = serve({
      matrix: matrixOf({ variants: [variant(77, 'TOY-PETG-BLACK'), variant(78, 'TOY-PLA-RED')] }),
      variants: [],
      preview: { synced: 0, total: 2, dry_run: true, errors: [], variants: [{ variant_id: 77, sku: 'TOY-PETG-BLACK', changes: ['step 10: run 30 min becomes run 45 min'] }, { variant_id: 78, sku: 'TOY-PLA-RED', changes: [] }] },
      applied: { synced: 1, total: 2, dry_run: false, errors: ['TOY-PLA-RED: its routing is locked'], variants: [] },
    });
    const user = renderAt('/admin/items?item=5&tab=variants');
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    await user.click(await within(dialog).findByRole('button', { name: 'Sync routing to variants' }));
    const sync = await screen.findByRole('dialog', { name: 'Sync routing to variants' });
    expect(await within(sync).findByText('1 of 2 variants would change. Nothing is written until you apply.')).toBeInTheDocument();
    expect(within(sync).getByRole('list', { name: 'Variants that would change' })).toHaveTextContent('step 10: run 30 min becomes run 45 minForTOY-PETG-BLACK');
    expect(within(sync).getByRole('group', { name: 'Variants already in step' })).toHaveTextContent('TOY-PLA-RED');
    expect(calls.filter((c) => c.path.endsWith('/sync-routing')).map((c) => c.search)).toEqual(['?dry_run=true']);
    await user.click(within(sync).getByRole('button', { name: 'Apply to 1 variant' }));
    expect(await within(sync).findByText(/1 of 2 variants synced\./)).toBeInTheDocument();
    expect(within(sync).getByRole('alert')).toHaveTextContent('TOY-PLA-RED: its routing is locked');
    expect(calls.filter((c) => c.path.endsWith('/sync-routing') && c.method === 'POST').map((c) => c.search)).toContain('');
  });
});
