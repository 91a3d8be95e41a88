import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes, createQueryClient } from '../../App';
import { admin, cost, emptyCost, order } from './orderFixtures';
import type { CostBreakdown, ProductionOrder } from './productionApi';

beforeEach(() => localStorage.setItem('adminUser', JSON.stringify(admin)));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Answers the order page's calls; the cost breakdown is `state.cost` until re-estimated. */
function serve(state: { order: ProductionOrder; cost: CostBreakdown; estimated?: CostBreakdown; refuse?: string }) {
  const calls: { method: string; path: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({ method, path: url.pathname });
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (method === 'POST' && url.pathname === '/api/v1/production-orders/5/estimate-cost') {
        if (state.refuse) return json({ detail: state.refuse }, 400);
        state.cost = state.estimated ?? state.cost;
        return json(state.cost);
      }
      switch (url.pathname) {
        case '/api/v1/auth/me':
          return json(admin);
        case '/api/v1/production-orders/5':
          return json(state.order);
        case '/api/v1/production-orders/5/cost-breakdown':
          return json(state.cost);
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

describe('the Cost tab of a production order', () => {
  it('charts estimate against actual and shows each variance, over in red and under in green', async () => {
    serve({ order: order(), cost: cost() });
    const user = renderAt('/admin/production/5');
    await user.click(await screen.findByRole('tab', { name: 'Cost' }));
    expect(screen.getByRole('tab', { name: 'Cost' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'Cost variance' });
    const row = (name: string) => within(table).getByRole('row', { name: new RegExp(`^${name}`) });
    expect(row('Material')).toHaveTextContent('Material$4.00$4.40+$0.40 over the estimate+10 %');
    expect(within(row('Material')).getByText('+$0.40')).toHaveClass('cost-variance--over');
    expect(row('Machine & labour')).toHaveTextContent('Machine & labour$13.00$10.00−$3.00 under the estimate−23.1 %');
    expect(within(row('Machine & labour')).getByText('−$3.00')).toHaveClass('cost-variance--under');
    expect(within(row('Total')).getByText('−15.3 %')).toHaveClass('cost-variance--under');
    expect(await screen.findByRole('img', { name: /material \$4\.00 estimated, \$4\.40 actual/ })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Material costs' })).toHaveTextContent('MAT-ABS-BLACK');
    expect(screen.getByRole('table', { name: 'Operation costs' })).toHaveTextContent('$6.00/h');
  });

  it('re-estimates after a confirmation and shows the new figures', async () => {
    const calls = serve({ order: order(), cost: cost(), estimated: cost({ estimated: { material: '4.40', labor: '10.00', total: '14.40' }, variance: { material: '0', labor: '0', total: '0' } }) });
    const user = renderAt('/admin/production/5?tab=cost');
    await screen.findByRole('table', { name: 'Cost variance' });
    await user.click(screen.getByRole('button', { name: 'Re-estimate' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Re-estimate WO-2026-0005?');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Re-estimate' }));
    await screen.findByText('Estimate updated');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/v1/production-orders/5/estimate-cost']);
    const table = screen.getByRole('table', { name: 'Cost variance' });
    expect(within(table).getByRole('row', { name: /^Total/ })).toHaveTextContent(/^Total\$14\.40\$14\.40\$0\.000 %$/);
  });

  it('shows the server’s refusal of an estimate', async () => {
    serve({ order: order(), cost: cost(), refuse: 'Cannot estimate an order without operations' });
    const user = renderAt('/admin/production/5?tab=cost');
    await screen.findByRole('table', { name: 'Cost variance' });
    await user.click(screen.getByRole('button', { name: 'Re-estimate' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Re-estimate' }));
    expect(await screen.findByText('Cannot estimate an order without operations')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('has an empty state while nothing is known, and no estimate for a draft without operations', async () => {
    serve({ order: order({ status: 'draft', operations: [] }), cost: { ...emptyCost, estimated: { material: '0', labor: '2.50', total: '2.50' }, variance: { material: '0', labor: '-2.50', total: '-2.50' } } });
    renderAt('/admin/production/5?tab=cost');
    expect(await screen.findByRole('heading', { name: 'No cost known yet' })).toBeInTheDocument();
    expect(screen.getByText(/copied from the BOM and routing when it is released/)).toHaveTextContent('The estimate stored so far is $2.50.');
    expect(screen.queryByRole('table', { name: 'Cost variance' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Re-estimate' })).not.toBeInTheDocument();
  });
});
