import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { bulkEditBody } from './ItemBulkEditModal';
import { itemFormSchema } from './ItemFormModal';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };

function item(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    sku: `SKU-${String(id).padStart(3, '0')}`,
    name: `Part ${id}`,
    description: null,
    item_type: 'finished_good',
    procurement_type: 'buy',
    category_id: null,
    category_name: null,
    unit: 'EA',
    purchase_uom: null,
    standard_cost: '1.00',
    average_cost: null,
    selling_price: '3.00',
    active: true,
    on_hand_qty: '0',
    available_qty: '0',
    reorder_point: null,
    stocking_policy: 'on_demand',
    needs_reorder: false,
    upc: null,
    ...overrides,
  };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A small in-memory /items route: 60 items, paged with limit/offset, sorted by sort_by/sort_order. */
function serveItems(calls: URL[], extra?: (url: URL, init: RequestInit) => Response | undefined) {
  const all = Array.from({ length: 60 }, (_, i) => item(i + 1));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const answer = extra?.(url, init);
      if (answer) return answer;
      if (url.pathname === '/api/v1/items') {
        calls.push(url);
        const by = (url.searchParams.get('sort_by') ?? 'sku') as 'sku' | 'name';
        const dir = url.searchParams.get('sort_order') === 'desc' ? -1 : 1;
        const rows = [...all].sort((a, b) => String(a[by]).localeCompare(String(b[by])) * dir);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 50);
        return json(200, { total: rows.length, items: rows.slice(offset, offset + limit) });
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Items list', () => {
  it('sorts on the server: a header click sends sort_by/sort_order and goes back to page 1', async () => {
    const calls: URL[] = [];
    serveItems(calls);
    renderAt('/admin/items?page=2');
    await screen.findByText('SKU-026');
    expect(calls.at(-1)?.searchParams.get('offset')).toBe('25');

    await userEvent.click(screen.getByRole('button', { name: /^Name/ }));
    // Page 1 of the whole list in name order, not the rows on screen re-ordered.
    await screen.findByText('Part 1');
    const last = calls.at(-1)!;
    expect(last.searchParams.get('sort_by')).toBe('name');
    expect(last.searchParams.get('sort_order')).toBe('asc');
    expect(last.searchParams.get('offset')).toBe('0');

    await userEvent.click(screen.getByRole('button', { name: /^Name/ }));
    await screen.findByText('Part 9');
    expect(calls.at(-1)!.searchParams.get('sort_order')).toBe('desc');
    const firstRow = screen.getAllByRole('row')[1]!;
    expect(within(firstRow).getByText('Part 9')).toBeInTheDocument();
  });
});

describe('Item form', () => {
  it('maps the API fields and refuses bad numbers field by field', () => {
    const base = {
      sku: ' ab-1 ',
      name: ' Widget ',
      description: '',
      item_type: 'component',
      procurement_type: '',
      unit: 'EA',
      standard_cost: '1.50',
      selling_price: '',
      reorder_point: '',
      reorder_qty: '',
      lead_time_days: '7',
      upc: '',
      is_active: true,
    } as const;
    expect(itemFormSchema.parse(base)).toEqual({
      sku: 'AB-1',
      name: 'Widget',
      description: null,
      item_type: 'component',
      procurement_type: null,
      unit: 'EA',
      standard_cost: '1.50',
      selling_price: null,
      reorder_point: null,
      reorder_qty: null,
      lead_time_days: 7,
      upc: null,
      is_active: true,
    });
    const bad = itemFormSchema.safeParse({ ...base, sku: '', standard_cost: '-1', lead_time_days: '1.5' });
    expect(bad.success).toBe(false);
    expect(Object.fromEntries(bad.error!.issues.map((i) => [i.path.join('.'), i.message]))).toEqual({
      sku: 'Enter a SKU.',
      standard_cost: 'Enter a number of 0 or more, like 12.50.',
      lead_time_days: 'Enter a whole number of days.',
    });
  });

  it('puts the server’s 422 field errors on the fields and shows a download link per file', async () => {
    const calls: URL[] = [];
    const detail = {
      ...item(3),
      category_path: null,
      last_cost: null,
      lead_time_days: null,
      reorder_qty: null,
      is_active: true,
      has_bom: false,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      files: [
        {
          id: 9,
          filename: 'bracket.stl',
          content_type: 'model/stl',
          size_bytes: 2048,
          sha256: 'ab',
          created_at: '2026-01-01T00:00:00Z',
          download_url: '/api/v1/items/3/files/9/download',
        },
      ],
    };
    serveItems(calls, (url, init) => {
      if (url.pathname === '/api/v1/items/3' && init.method === 'PATCH') {
        return json(422, {
          error: 'VALIDATION_ERROR',
          message: 'Request validation failed',
          details: { errors: [{ field: 'selling_price', message: 'Must be at most 1000000', type: 'range' }] },
        });
      }
      if (url.pathname === '/api/v1/items/3') return json(200, detail);
      return undefined;
    });
    renderAt('/admin/items');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit SKU-003' }));
    const dialog = await screen.findByRole('dialog');
    const link = await within(dialog).findByRole('link', { name: 'Download bracket.stl' });
    expect(link).toHaveAttribute('href', '/api/v1/items/3/files/9/download');
    expect(link).toHaveAttribute('download', 'bracket.stl');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('Must be at most 1000000')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Selling price')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('Please correct the highlighted fields.')).toBeInTheDocument();
  });
});

describe('Bulk edit and recosting', () => {
  it('builds a body with only the changed fields', () => {
    expect(bulkEditBody([1, 2], '', '')).toBeNull();
    expect(bulkEditBody([1, 2], 'none', '')).toEqual({ item_ids: [1, 2], category_id: null });
    expect(bulkEditBody([3], '7', 'inactive')).toEqual({ item_ids: [3], category_id: 7, is_active: false });
    expect(bulkEditBody([3], '', 'active')).toEqual({ item_ids: [3], is_active: true });
  });

  it('edits the selected rows in one call and clears the selection', async () => {
    const calls: URL[] = [];
    const sent: unknown[] = [];
    serveItems(calls, (url, init) => {
      if (url.pathname === '/api/v1/items/categories') {
        return json(200, [{ id: 4, code: 'TOYS', name: 'Toys', parent_id: null, description: null, sort_order: 0, active: true, path: 'Toys', depth: 0 }]);
      }
      if (url.pathname === '/api/v1/items/bulk-update' && init.method === 'POST') {
        sent.push(JSON.parse(String(init.body)));
        return json(200, { message: '2 items updated', updated_count: 2, error_count: 0, errors: [] });
      }
      return undefined;
    });
    renderAt('/admin/items');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select SKU-001' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select SKU-002' }));
    // Ticking a row selects it; it does not open the item.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('2 selected')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Bulk edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 items' });
    const apply = within(dialog).getByRole('button', { name: 'Apply to 2 items' });
    expect(apply).toBeDisabled();
    await within(dialog).findByRole('option', { name: 'Toys' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'Toys');
    await userEvent.selectOptions(within(dialog).getByLabelText('Status'), 'Inactive');
    await userEvent.click(apply);

    expect(await screen.findByText('2 items updated')).toBeInTheDocument();
    expect(sent).toEqual([{ item_ids: [1, 2], category_id: 4, is_active: false }]);
    expect(screen.queryByText('2 selected')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lets an admin recost every item after confirming; operators do not see it', async () => {
    const calls: URL[] = [];
    let recosts = 0;
    serveItems(calls, (url, init) => {
      if (url.pathname === '/api/v1/items/recost-all' && init.method === 'POST') {
        recosts += 1;
        return json(200, { updated: 3, unchanged: 1, skipped: 2, items: [], errors: [], message: 'Recosted 3 items' });
      }
      return undefined;
    });
    const { unmount } = renderAt('/admin/items');
    await userEvent.click(await screen.findByRole('button', { name: 'Recost all' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Recost every active item?' });
    expect(recosts).toBe(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Recost all' }));
    expect(await screen.findByText('3 changed, 1 already right, 2 skipped (no BOM or purchase history).')).toBeInTheDocument();
    expect(recosts).toBe(1);
    unmount();

    localStorage.setItem('adminUser', JSON.stringify({ ...admin, account_type: 'operator' }));
    renderAt('/admin/items');
    await screen.findByText('SKU-001');
    expect(screen.queryByRole('button', { name: 'Recost all' })).not.toBeInTheDocument();
  });

  it('recosts one item from its form after confirming and shows the new cost', async () => {
    const calls: URL[] = [];
    const detail = {
      ...item(3),
      category_path: null,
      last_cost: null,
      lead_time_days: null,
      reorder_qty: null,
      is_active: true,
      has_bom: true,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      files: [],
    };
    serveItems(calls, (url, init) => {
      if (url.pathname === '/api/v1/items/3/recost' && init.method === 'POST') {
        return json(200, {
          id: 3,
          sku: 'SKU-003',
          name: 'Part 3',
          old_cost: '1.00',
          new_cost: '2.5000',
          cost_source: 'manufactured',
          bom_id: 8,
          bom_cost: '2.5000',
          purchase_cost: null,
          changed: true,
          message: 'Standard cost of SKU-003: 1.00 -> 2.5000',
        });
      }
      if (url.pathname === '/api/v1/items/3') return json(200, detail);
      return undefined;
    });
    renderAt('/admin/items');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit SKU-003' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Recost' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Recompute the standard cost?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Recost' }));
    expect(await screen.findByText('Standard cost of SKU-003: 1.00 -> 2.5000')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Standard cost')).toHaveValue('2.5000');
  });
});
