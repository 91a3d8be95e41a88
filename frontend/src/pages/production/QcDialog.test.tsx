import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { operation, order } from './orderFixtures';
import { QcDialog } from './QcDialog';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const plan = {
  id: 3,
  product_id: 7,
  code: 'QP-BRACKET',
  name: 'Bracket',
  version: 1,
  revision: '1.0',
  is_active: true,
  is_template: false,
  effective_date: null,
  notes: null,
  created_at: '2026-11-28T08:00:00Z',
  updated_at: '2026-11-28T08:00:00Z',
  characteristics: [
    { id: 11, code: 'WALL', characteristic: 'Wall thickness', characteristic_type: 'variable', nominal: '2.0', lower_limit: '1.8', upper_limit: '2.2', unit: 'mm', acceptance_criteria: null, sequence: 0, severity: 'major', routing_operation_id: 40 },
    { id: 12, code: 'SURF', characteristic: 'Surface', characteristic_type: 'attribute', nominal: null, lower_limit: null, upper_limit: null, unit: null, acceptance_criteria: 'No stringing', sequence: 1, severity: 'minor', routing_operation_id: null },
  ],
};

function stub(answer: () => Response) {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/quality/policy') return json(200, { mode: 'full', gate_action: 'block', gate_close: true, surfaces_enabled: true, plan_driven: true, gates_close: true });
      if (url.pathname === '/api/v1/quality-plans/active') return json(200, url.searchParams.get('product_id') === '7' ? plan : null);
      if (url.pathname === '/api/v1/production-orders/defect-reasons')
        return json(200, { reasons: ['layer_shift'], details: [{ id: 2, code: 'layer_shift', name: 'Layer shift', description: null, category: null, severity: 'major', sequence: 1, active: true }] });
      if (url.pathname === '/api/v1/production-orders/5/qc' && init.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return answer();
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return posts;
}

function renderDialog(o = order({ status: 'complete', qc_status: 'pending', product_id: 7 })) {
  const onRecorded = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <QcDialog order={o} open onClose={() => undefined} onRecorded={onRecorded} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return onRecorded;
}

afterEach(() => vi.unstubAllGlobals());

describe('inspection form', () => {
  it('seeds the plan’s rows, judges the values as typed, and shows the gate’s refusal in red', async () => {
    const posts = stub(() => json(400, { detail: 'Inspection does not satisfy plan QP-BRACKET: 1 out of spec/nonconforming (WALL)' }));
    renderDialog();
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Measurements' });
    const wall = within(table).getByLabelText('Measured WALL Wall thickness');
    await user.type(wall, '2.6');
    expect(within(table).getByText('Out of spec')).toBeInTheDocument();
    await user.clear(wall);
    await user.type(wall, '2.05');
    expect(within(table).getByText('In spec')).toBeInTheDocument();
    await user.click(within(within(table).getByRole('radiogroup', { name: 'SURF Surface conforms' })).getByLabelText('No'));
    expect(within(table).getByText('Nonconforming')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Record inspection' }));
    expect(await screen.findByText('Inspection does not satisfy plan QP-BRACKET: 1 out of spec/nonconforming (WALL)')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveClass('alert--error');
    expect(posts).toEqual([
      {
        result: 'passed',
        quantity_passed: null,
        quantity_failed: null,
        defect_reason_id: null,
        operation_id: null,
        failure_reason: null,
        notes: null,
        measurements: [
          { characteristic: 'Wall thickness', quality_plan_characteristic_id: 11, characteristic_code: 'WALL', sequence: 0, measured_value: '2.05', nominal: '2.0', lower_limit: '1.8', upper_limit: '2.2', unit: 'mm' },
          { characteristic: 'Surface', quality_plan_characteristic_id: 12, characteristic_code: 'SURF', sequence: 1, conforms: false },
        ],
      },
    ]);
  });

  it('asks a defect and notes where they belong, and hands the warnings over after recording', async () => {
    const posts = stub(() =>
      json(200, {
        production_order_id: 5,
        production_order_code: 'WO-2026-0005',
        inspection_id: 31,
        qc_status: 'passed',
        qc_notes: 'ok',
        qc_inspected_by: 1,
        qc_inspected_at: null,
        defect_reason_id: 2,
        sales_order_updated: false,
        sales_order_status: null,
        message: 'QC passed for production order WO-2026-0005',
        warnings: ['Inspection does not satisfy plan QP-BRACKET: 1 unmeasured (WALL)'],
      }),
    );
    const onRecorded = renderDialog();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Measurements' });
    expect(screen.queryByLabelText('Defect reason')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Conditional'));
    await user.selectOptions(await screen.findByLabelText('Defect reason'), '2');
    await user.click(screen.getByRole('button', { name: 'Record inspection' }));
    expect(await screen.findByText('Say what deviation is accepted.')).toBeInTheDocument();
    expect(posts).toEqual([]);
    await user.type(screen.getByLabelText(/^Notes/), 'Slight stringing accepted');
    await user.click(screen.getByRole('button', { name: 'Record inspection' }));
    await vi.waitFor(() => expect(onRecorded).toHaveBeenCalled());
    expect(onRecorded.mock.calls[0]![0]).toMatchObject({ inspection_id: 31, warnings: ['Inspection does not satisfy plan QP-BRACKET: 1 unmeasured (WALL)'] });
    expect(posts).toEqual([expect.objectContaining({ result: 'conditional', defect_reason_id: 2, notes: 'Slight stringing accepted', measurements: null })]);
  });

  it('inspects a running order’s operation against the characteristics checked there', async () => {
    stub(() => json(500, {}));
    renderDialog(
      order({
        status: 'in_progress',
        qc_status: 'not_required',
        product_id: 7,
        operations: [operation({ id: 90, routing_operation_id: 40, operation_code: 'PRINT', status: 'running' }), operation({ id: 91, routing_operation_id: 41, operation_code: 'QC', sequence: 20, status: 'pending' })],
      }),
    );
    const table = await screen.findByRole('table', { name: 'Measurements' });
    expect(screen.getByLabelText(/^Operation inspected/)).toHaveValue('90');
    expect(within(table).getByText('Wall thickness')).toBeInTheDocument();
    expect(within(table).queryByText('Surface')).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/^Operation inspected/), '91');
    expect(await screen.findByText(/nothing is checked at this operation/)).toBeInTheDocument();
  });
});
