import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { CompleteDialog } from './OrderDialogs';
import type { ProductionOrder } from './productionApi';

const order = {
  id: 5,
  code: 'WO-2026-0005',
  status: 'in_progress',
  qc_status: 'not_required',
  quantity_ordered: '3',
  quantity_completed: '0',
  quantity_scrapped: '0',
  quantity_remaining: 3,
  materials: [],
} as unknown as ProductionOrder;

afterEach(() => vi.unstubAllGlobals());

describe('complete dialog', () => {
  it('shows the rules before posting, then posts good, scrapped and the reason', async () => {
    const posts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://localhost');
        const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
        if (url.pathname === '/api/v1/scrap-reasons/') return json({ details: [{ id: 1, code: 'warping', name: 'Warping', description: null, sequence: 1 }] });
        if (url.pathname === '/api/v1/production-orders/5/complete' && init.method === 'POST') {
          posts.push(JSON.parse(String(init.body)));
          return json({ ...order, status: 'complete', quantity_completed: '2', quantity_scrapped: '1' });
        }
        return json({});
      }),
    );
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <CompleteDialog order={order} open onClose={onClose} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog');
    const good = within(dialog).getByLabelText(/Quantity completed/);
    const scrapped = within(dialog).getByLabelText(/Quantity scrapped/);
    await user.clear(good);
    await user.type(good, '3');
    await user.clear(scrapped);
    await user.type(scrapped, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Complete order' }));
    expect(await within(dialog).findByText('Completed plus scrapped cannot exceed the ordered 3.')).toBeInTheDocument();
    expect(await within(dialog).findByText('Choose why parts were scrapped.')).toBeInTheDocument();
    expect(posts).toEqual([]);

    await user.clear(good);
    await user.type(good, '2');
    await within(dialog).findByRole('option', { name: 'Warping' });
    await user.selectOptions(within(dialog).getByLabelText(/Scrap reason/), 'warping');
    await user.click(within(dialog).getByRole('button', { name: 'Complete order' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([{ quantity_completed: '2', quantity_scrapped: '1', scrap_reason: 'warping', force_close_short: false, notes: null, spools_used: [] }]);
  });
});
