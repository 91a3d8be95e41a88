import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { applyBody, parseMargin, suggestedRows, suggestPrice, SuggestPricesModal } from './SuggestPricesModal';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const candidate = (id: number, standard_cost: string, current_selling_price: string | null) => ({
  id,
  sku: `SKU-${id}`,
  name: `Part ${id}`,
  item_type: 'finished_good' as const,
  standard_cost,
  current_selling_price,
  suggested_price: null,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
}

function stubServer(settings: Record<string, unknown>, candidates: unknown[]) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const call = { method: init.method ?? 'GET', path: url.pathname, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
      calls.push(call);
      if (url.pathname === '/api/v1/settings/') return json(200, settings);
      if (url.pathname === '/api/v1/items/price-candidates') return json(200, candidates);
      if (url.pathname === '/api/v1/items/apply-suggested-prices') {
        const items = (call.body as { items: { id: number; selling_price: string }[] }).items;
        return json(200, { updated: items.length, skipped: 0, items: items.map((i) => ({ id: i.id, sku: `SKU-${i.id}`, old_price: null, new_price: i.selling_price })) });
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('suggest prices: the margin math', () => {
  it('prices cost / (1 - margin), to the cent, and none without a cost or a margin under 100', () => {
    expect(suggestPrice('5.00', 50)).toBe(10);
    expect(suggestPrice('6.00', 40)).toBe(10);
    expect(suggestPrice('1.00', 33.33)).toBe(1.5);
    expect(suggestPrice('2.50', 0)).toBe(2.5);
    expect(suggestPrice('0.00', 50)).toBeNull();
    expect(suggestPrice(null, 50)).toBeNull();
    expect(suggestPrice('5.00', null)).toBeNull();
    expect(parseMargin('45.5')).toBe(45.5);
    expect(parseMargin('100')).toBeNull();
    expect(parseMargin('abc')).toBeNull();
  });

  it('tells changed rows apart and builds the apply body of the chosen ones', () => {
    const rows = suggestedRows([candidate(1, '5.00', '8.00'), candidate(2, '3.00', '6.00'), candidate(3, '0.00', null), candidate(4, '4.00', null)], 50);
    expect(rows.map((r) => [r.suggested, r.difference, r.changed])).toEqual([
      [10, 2, true],
      [6, 0, false],
      [null, null, false],
      [8, 8, true],
    ]);
    expect(applyBody(rows, (id) => id !== 4)).toEqual({
      items: [
        { id: 1, selling_price: '10.00' },
        { id: 2, selling_price: '6.00' },
      ],
    });
  });
});

describe('suggest prices: the dialog', () => {
  function renderModal(onClose = vi.fn()) {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <SuggestPricesModal onClose={onClose} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    return onClose;
  }

  it("starts from the company's default margin, recomputes on a new margin, and applies the chosen rows", async () => {
    const calls = stubServer({ default_margin_percent: 40 }, [candidate(1, '6.00', '8.00'), candidate(2, '3.00', '5.00'), candidate(3, '1.20', '2.40')]);
    const onClose = renderModal();
    const margin = await screen.findByLabelText(/Target margin/);
    const table = await screen.findByRole('table', { name: 'Suggested prices' });
    await vi.waitFor(() => expect(margin).toHaveValue('40'));
    const row = (sku: string) => within(table).getByText(sku).closest('tr') as HTMLElement;
    expect(row('SKU-1')).toHaveTextContent('$10.00');
    expect(row('SKU-1')).toHaveTextContent('+$2.00');
    expect(row('SKU-2')).toHaveTextContent('No change');

    await userEvent.clear(margin);
    await userEvent.type(margin, '50');
    expect(row('SKU-1')).toHaveTextContent('$12.00');
    expect(row('SKU-2')).toHaveTextContent('+$1.00');
    expect(row('SKU-3')).toHaveTextContent('No change');

    // Every row is chosen at first; "Select all changed" drops the unchanged one.
    expect(screen.getByRole('button', { name: 'Apply 3 prices' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Select all changed' }));
    expect(within(row('SKU-3')).getByRole('checkbox')).not.toBeChecked();
    await userEvent.click(within(row('SKU-2')).getByRole('checkbox', { name: 'Choose SKU-2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply 1 price' }));

    expect(await screen.findByText('Updated 1 item')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/api/v1/items/apply-suggested-prices', body: { items: [{ id: 1, selling_price: '12.00' }] } }]);
    expect(onClose).toHaveBeenCalled();
  });

  it('uses 50 % when the company has no default margin', async () => {
    stubServer({ default_margin_percent: null }, [candidate(1, '5.00', null)]);
    renderModal();
    const margin = await screen.findByLabelText(/Target margin/);
    await vi.waitFor(() => expect(margin).toHaveValue('50'));
    const table = await screen.findByRole('table', { name: 'Suggested prices' });
    expect(within(table).getByText('SKU-1').closest('tr')).toHaveTextContent('+$10.00');
  });
});
