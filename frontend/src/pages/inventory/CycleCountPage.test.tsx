import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';

const admin = { id: 1, email: 'ada@example.com', full_name: 'Ada Admin', account_type: 'admin', status: 'active' };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function balance(product_id: number, sku: string, on_hand_quantity: string) {
  return {
    inventory_id: product_id,
    product_id,
    product_sku: sku,
    product_name: `Part ${sku}`,
    category_name: null,
    unit: 'EA',
    location_id: 1,
    location_code: 'MAIN',
    location_name: 'Main Warehouse',
    on_hand_quantity,
    allocated_quantity: '0.00',
    available_quantity: on_hand_quantity,
    last_counted: null,
  };
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

describe('Cycle count', () => {
  it('shows variances while counting, asks for a reason, reviews, then posts the batch and shows each line', async () => {
    const posted: { body: unknown; key: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        const p = url.pathname;
        if (p === '/api/v1/admin/inventory/transactions/locations') return json(200, [{ id: 1, name: 'Main Warehouse', code: 'MAIN', type: 'warehouse' }]);
        if (p === '/api/v1/admin/inventory/transactions/adjustment-reasons')
          return json(200, [
            { code: 'cycle_count', name: 'Cycle count', description: 'A count found a different quantity' },
            { code: 'damaged', name: 'Damaged', description: 'Damaged in storage or handling' },
          ]);
        if (p === '/api/v1/admin/inventory/transactions/inventory-summary') {
          expect(url.searchParams.get('location_id')).toBe('1');
          const items = [balance(1, 'FG-A', '10.00'), balance(2, 'FG-B', '4.00')];
          return json(200, { items, total: 2, limit: 25, offset: 0 });
        }
        if (p === '/api/v1/admin/inventory/transactions/batch' && init.method === 'POST') {
          posted.push({ body: JSON.parse(String(init.body)), key: new Headers(init.headers).get('Idempotency-Key') });
          return json(200, {
            total_items: 2,
            successful: 2,
            failed: 0,
            count_reference: 'Cycle Count 2026-03-01 10:00',
            location_id: 1,
            results: [
              { product_id: 1, product_sku: 'FG-A', product_name: 'Part FG-A', previous_quantity: '10.00', counted_quantity: '7.00', variance: '-3.00', transaction_id: 11, journal_entry_id: 5, success: true, error: null },
              { product_id: 2, product_sku: 'FG-B', product_name: 'Part FG-B', previous_quantity: '4.00', counted_quantity: '4.00', variance: '0.00', transaction_id: null, journal_entry_id: null, success: true, error: null },
            ],
          });
        }
        return json(404, { detail: 'Not Found' });
      }),
    );
    const user = userEvent.setup();
    renderAt('/admin/inventory/cycle-count');

    const countA = await screen.findByRole('textbox', { name: 'Counted FG-A' });
    await user.type(countA, '7');
    const rowA = countA.closest('tr')!;
    // The variance is computed and coloured before anything is posted.
    const shortBy = within(rowA).getByText('-3 EA');
    expect(shortBy).toHaveClass('variance--short', 'variance--large');
    await user.type(screen.getByRole('textbox', { name: 'Counted FG-B' }), '4');
    expect(within(screen.getByRole('textbox', { name: 'Counted FG-B' }).closest('tr')!).getByText('Matches')).toHaveClass('variance--match');

    // A difference needs a reason before the review.
    const review = screen.getByRole('button', { name: 'Review count (2)' });
    expect(review).toBeDisabled();
    expect(screen.getByText('1 need a reason')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason for FG-A' }), 'damaged');
    expect(review).toBeEnabled();
    expect(posted).toHaveLength(0);

    await user.click(review);
    const counted = await screen.findByRole('region', { name: 'Counted lines' });
    expect(within(counted).getByText('Damaged')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Post count' }));

    await screen.findByTestId('count-results');
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toEqual({
      items: [
        { product_id: 1, counted_quantity: '7', reason: 'damaged' },
        { product_id: 2, counted_quantity: '4', reason: 'cycle_count' },
      ],
      location_id: 1,
      count_reference: null,
    });
    expect(posted[0]!.key).toBeTruthy();
    expect(screen.getByText('Adjusted (transaction #11, entry #5)')).toBeInTheDocument();
    expect(screen.getByText('Recorded, no change')).toBeInTheDocument();
  });

  it('flags a count that is not a number on its row', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const p = new URL(String(input), 'http://localhost').pathname;
        if (p.endsWith('/locations')) return json(200, [{ id: 1, name: 'Main Warehouse', code: 'MAIN', type: 'warehouse' }]);
        if (p.endsWith('/adjustment-reasons')) return json(200, []);
        if (p.endsWith('/inventory-summary')) return json(200, { items: [balance(1, 'FG-A', '10.00')], total: 1, limit: 25, offset: 0 });
        return json(404, { detail: 'Not Found' });
      }),
    );
    const user = userEvent.setup();
    renderAt('/admin/inventory/cycle-count');
    await user.type(await screen.findByRole('textbox', { name: 'Counted FG-A' }), '-2');
    expect(screen.getByText('A count cannot be negative.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Counted FG-A' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: /Review count/ })).toBeDisabled();
  });

  it('shows how much of the location was counted today and confirms the rest at stored quantities', async () => {
    const confirmed: unknown[] = [];
    let remaining = 2;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        const p = url.pathname;
        if (p === '/api/v1/admin/inventory/transactions/locations') return json(200, [{ id: 1, name: 'Main Warehouse', code: 'MAIN', type: 'warehouse' }]);
        if (p === '/api/v1/admin/inventory/transactions/adjustment-reasons') return json(200, []);
        if (p === '/api/v1/admin/inventory/transactions/inventory-summary')
          return json(200, { items: [balance(1, 'FG-A', '10.00')], total: 1, limit: 50, offset: 0 });
        if (p === '/api/v1/admin/inventory/reconciliation') {
          expect(url.searchParams.get('location_id')).toBe('1');
          return json(200, { location_id: 1, since: '2026-11-23T00:00:00.000Z', balances: 3, counted: 3 - remaining, remaining, items: [], total: remaining, limit: 1, offset: 0 });
        }
        if (p === '/api/v1/admin/inventory/reconciliation/count/all-to-stored' && init.method === 'POST') {
          confirmed.push(JSON.parse(String(init.body)));
          const n = remaining;
          remaining = 0;
          return json(200, { location_id: 1, confirmed: n, counted_at: '2026-11-23T12:00:00.000Z' });
        }
        return json(404, { detail: `unexpected ${p}` });
      }),
    );
    const user = userEvent.setup();
    renderAt('/admin/inventory/cycle-count');
    const card = await screen.findByTestId('reconciliation');
    expect(await within(card).findByText('1 of 3 balances counted; 2 to go.')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: /Confirm the rest as stored/ }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/No stock moves and nothing is posted/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm 2' }));
    expect(await within(card).findByText('All 3 balances are counted.')).toBeTruthy();
    expect(confirmed).toEqual([{ location_id: 1 }]);
  });
});
