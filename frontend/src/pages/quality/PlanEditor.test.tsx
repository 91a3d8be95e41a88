import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { PlanEditor } from './PlanEditor';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function stub(answers: Response[]) {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/items') return json(200, { items: [{ id: 7, sku: 'BRACKET', name: 'Bracket', item_type: 'finished_good' }], total: 1 });
      if (url.pathname === '/api/v1/routings/') return json(200, []);
      if (url.pathname === '/api/v1/quality-plans' && init.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return answers.shift()!;
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return posts;
}

afterEach(() => vi.unstubAllGlobals());

describe('plan editor', () => {
  it('puts the server’s 422 on the row and field it names, and a duplicate-code 400 on the rows with that code', async () => {
    const posts = stub([
      json(422, { error: 'VALIDATION_ERROR', message: 'Request validation failed', details: { errors: [{ field: 'characteristics.1.unit', message: 'String should have at most 20 characters', type: 'value_error' }] } }),
      json(400, { detail: 'duplicate characteristic code(s) within the plan: W1' }),
    ]);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <PlanEditor open plan={null} onClose={() => undefined} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New quality plan' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Code' }), 'QP-1');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Bracket');
    await within(dialog).findByRole('option', { name: 'BRACKET · Bracket' });
    await user.selectOptions(within(dialog).getByLabelText(/^Product/), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Add characteristic' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add characteristic' }));
    await user.type(within(dialog).getByLabelText('Code of row 1'), 'W1');
    await user.type(within(dialog).getByLabelText('Characteristic of row 1'), 'Wall');
    await user.type(within(dialog).getByLabelText('Code of row 2'), 'W2');
    await user.type(within(dialog).getByLabelText('Characteristic of row 2'), 'Hole');
    await user.type(within(dialog).getByLabelText('Unit of row 2'), 'mm');
    // An attribute row drops its limits: the type switch clears them.
    await user.selectOptions(within(dialog).getByLabelText('Type of row 1'), 'attribute');
    expect(within(dialog).queryByLabelText('Nominal of row 1')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create plan' }));
    expect(await within(dialog).findByText('String should have at most 20 characters')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Unit of row 2')).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Create plan' }));
    expect(await within(dialog).findByText('Code W1 is used twice.')).toBeInTheDocument();
    expect(within(dialog).getByText('duplicate characteristic code(s) within the plan: W1')).toBeInTheDocument();
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatchObject({
      code: 'QP-1',
      product_id: 7,
      characteristics: [
        { code: 'W1', characteristic: 'Wall', characteristic_type: 'attribute', unit: null, sequence: 0 },
        { code: 'W2', characteristic: 'Hole', characteristic_type: 'variable', unit: 'mm', sequence: 1 },
      ],
    });
  });
});
