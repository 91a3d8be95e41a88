import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../../App';
import { ToastProvider } from '../../components/Toast';
import { ManufacturingPage } from './ManufacturingPage';
import type { OperationType, Routing, RoutingStep, StepMaterial } from './routingApi';

afterEach(() => vi.unstubAllGlobals());

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const CENTERS = [
  { id: 1, code: 'FDM-POOL', name: 'FDM pool', center_type: 'printer_pool', hourly_rate: '60.00', description: null, active: true, printers: [], ...stamp },
  { id: 2, code: 'QC', name: 'QC bench', center_type: 'qc', hourly_rate: '30.00', description: null, active: true, printers: [], ...stamp },
];
const RATE: Record<number, number> = { 1: 60, 2: 30 };
const ITEMS = [
  { id: 7, sku: 'WIDGET', name: 'Widget', item_type: 'finished_good', unit: 'EA' },
  { id: 8, sku: 'GADGET', name: 'Gadget', item_type: 'finished_good', unit: 'EA' },
  { id: 12, sku: 'PLA-BLK', name: 'PLA black', item_type: 'material', unit: 'G' },
];
const opType = (code: string, label: string, category: OperationType['category'], sort_order: number, default_work_center_id: number | null = null): OperationType => ({
  id: sort_order,
  code,
  label,
  description: null,
  category,
  consume_stages: ['any'],
  is_qc: category === 'quality',
  is_system: true,
  is_active: true,
  sort_order,
  default_work_center_id,
  ...stamp,
});
const TYPES = [opType('QUALITY_CONTROL', 'Quality Control', 'quality', 40, 2), opType('FDM_PRINT', 'FDM Print', 'print', 10, 1), opType('PACK_SHIP', 'Pack / Ship', 'shipping', 80)];

type StepSeed = Partial<RoutingStep> & Pick<RoutingStep, 'id' | 'sequence' | 'operation_code'>;
function makeStep(routingId: number, s: StepSeed): RoutingStep {
  const wc = s.work_center_id ?? 1;
  const setup = s.setup_time_minutes ?? '0';
  const run = s.run_time_minutes ?? '0';
  const wait = s.wait_time_minutes ?? '0';
  const cost = ((Number(setup) + Number(run)) * RATE[wc]!) / 60;
  return {
    routing_id: routingId,
    operation_type: null,
    operation_name: s.operation_code,
    description: null,
    work_center_id: wc,
    work_center_code: CENTERS.find((c) => c.id === wc)?.code ?? null,
    work_center_name: CENTERS.find((c) => c.id === wc)?.name ?? null,
    setup_minutes: setup,
    run_minutes: run,
    setup_time_minutes: setup,
    run_time_minutes: run,
    wait_time_minutes: wait,
    move_time_minutes: '0',
    total_time_minutes: String(Number(setup) + Number(run) + Number(wait)),
    runtime_source: 'manual',
    slicer_file_path: null,
    units_per_cycle: 1,
    scrap_rate_percent: '0',
    calculated_cost: cost.toFixed(2),
    is_active: true,
    notes: null,
    ...stamp,
    ...s,
  };
}
function makeRouting(id: number, productId: number | null, steps: RoutingStep[], extra: Partial<Routing> = {}): Routing {
  const r: Routing = {
    id,
    product_id: productId,
    product_sku: null,
    product_name: null,
    code: productId ? `RTG-${id}` : `TPL-${id}`,
    name: productId ? 'Widget' : 'Standard Flow',
    is_template: productId === null,
    version: 1,
    revision: '1.0',
    effective_date: null,
    active: true,
    is_active: true,
    notes: null,
    operation_count: 0,
    total_setup_time_minutes: '0',
    total_run_time_minutes: '0',
    total_cost: '0',
    operations: steps,
    ...stamp,
    ...extra,
  };
  return retotal(r, []);
}
function retotal(r: Routing, materials: StepMaterial[]): Routing {
  const ops = [...r.operations].sort((a, b) => a.sequence - b.sequence);
  const labour = ops.reduce((t, s) => t + Number(s.calculated_cost), 0);
  const perUnit = materials.filter((m) => ops.some((s) => s.id === m.routing_operation_id)).reduce((t, m) => t + Number(m.extended_cost), 0);
  return {
    ...r,
    operations: ops,
    operation_count: ops.length,
    total_setup_time_minutes: String(ops.reduce((t, s) => t + Number(s.setup_time_minutes), 0)),
    total_run_time_minutes: String(ops.reduce((t, s) => t + Number(s.run_time_minutes) + Number(s.wait_time_minutes) + Number(s.move_time_minutes), 0)),
    total_cost: (labour + perUnit).toFixed(2),
  };
}

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** An in-memory Strata for the routing routes the editor calls. */
function fakeServer(init: { routings?: Routing[]; templates?: Routing[]; failList?: boolean; seedError?: string } = {}) {
  let routings = init.routings ?? [];
  let templates = init.templates ?? [];
  let materials: StepMaterial[] = [];
  let nextId = 500;
  const calls: Call[] = [];
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const save = (r: Routing) => {
    routings = routings.map((x) => (x.id === r.id ? retotal(r, materials) : x));
  };
  const routingOf = (stepId: number) => routings.find((r) => r.operations.some((s) => s.id === stepId));

  const handle = (method: string, path: string, query: URLSearchParams, body: Record<string, unknown> | undefined): Response => {
    if (path === '/work-centers/') return json(CENTERS);
    if (path === '/items') return json({ items: ITEMS, total: ITEMS.length });
    if (path === '/operation-types') return json(TYPES);
    if (path === '/routings/' && method === 'GET') {
      if (query.get('templates_only') === 'true') return json(templates);
      if (init.failList) return json({ detail: 'The database is resting.' }, 500);
      return json(routings.filter((r) => String(r.product_id) === query.get('product_id')));
    }
    if (path === '/routings/' && method === 'POST') {
      const r = makeRouting(nextId++, body!.product_id as number, []);
      routings = [...routings.map((x) => ({ ...x, active: false, is_active: false })), r];
      return json(r, 201);
    }
    if (path === '/routings/seed-templates') {
      if (init.seedError) return json({ detail: init.seedError }, 400);
      templates = [makeRouting(900, null, [makeStep(900, { id: 901, sequence: 10, operation_code: 'PRINT', operation_type: 'FDM_PRINT' })])];
      return json({ message: 'Routing templates seeded', created: ['TPL-900'], skipped: [] });
    }
    if (path === '/routings/apply-template') {
      const tpl = templates.find((t) => t.id === body!.template_id)!;
      const overrides = (body!.overrides ?? []) as { operation_code: string; run_minutes?: string }[];
      const target = routings.find((r) => r.product_id === body!.product_id && r.active)!;
      const ops = tpl.operations.map((s) => {
        const o = overrides.find((x) => x.operation_code === s.operation_code);
        return makeStep(target.id, { ...s, id: nextId++, routing_id: target.id, ...(o?.run_minutes ? { run_time_minutes: o.run_minutes, run_minutes: o.run_minutes, runtime_source: 'slicer' } : {}) });
      });
      save({ ...target, operations: ops, name: `${tpl.name} - WIDGET` });
      return json({ routing_id: target.id, routing_code: target.code, product_sku: 'WIDGET', product_name: 'Widget', operations: ops, total_run_time_minutes: '0', total_cost: '0', message: 'Updated routing for WIDGET' });
    }
    let m = /^\/routings\/(\d+)$/.exec(path);
    if (m && method === 'PUT') {
      const id = Number(m[1]);
      routings = routings.map((r) => ({ ...r, active: r.id === id, is_active: r.id === id }));
      return json(routings.find((r) => r.id === id));
    }
    m = /^\/routings\/(\d+)\/operations$/.exec(path);
    if (m && method === 'POST') {
      const r = routings.find((x) => x.id === Number(m![1]))!;
      const last = Math.max(0, ...r.operations.map((s) => s.sequence));
      const type = TYPES.find((t) => t.code === body!.operation_type);
      const step = makeStep(r.id, {
        id: nextId++,
        sequence: (Math.floor(last / 10) + 1) * 10,
        operation_code: String(body!.operation_code ?? 'PRINT').toUpperCase(),
        operation_name: String(body!.operation_name ?? type?.label ?? body!.operation_code),
        operation_type: (body!.operation_type as string | undefined) ?? null,
        work_center_id: body!.work_center_id as number,
        setup_time_minutes: body!.setup_minutes as string,
        run_time_minutes: body!.run_minutes as string,
        wait_time_minutes: body!.wait_minutes as string,
      });
      save({ ...r, operations: [...r.operations, step] });
      return json(step, 201);
    }
    m = /^\/routings\/operations\/(\d+)$/.exec(path);
    if (m) {
      const id = Number(m[1]);
      const r = routingOf(id)!;
      if (method === 'DELETE') {
        save({ ...r, operations: r.operations.filter((s) => s.id !== id) });
        return new Response(null, { status: 204 });
      }
      const old = r.operations.find((s) => s.id === id)!;
      const b = body as Record<string, string | number | null | undefined>;
      const step = makeStep(r.id, {
        ...old,
        ...(b.sequence !== undefined ? { sequence: b.sequence as number } : {}),
        ...(b.operation_name ? { operation_name: b.operation_name as string } : {}),
        ...(b.run_minutes !== undefined ? { run_time_minutes: b.run_minutes as string, run_minutes: b.run_minutes as string } : {}),
        ...(b.setup_minutes !== undefined ? { setup_time_minutes: b.setup_minutes as string } : {}),
      });
      save({ ...r, operations: r.operations.map((s) => (s.id === id ? step : s)) });
      return json(step);
    }
    m = /^\/routings\/operations\/(\d+)\/materials$/.exec(path);
    if (m) {
      const stepId = Number(m[1]);
      if (method === 'GET') return json(materials.filter((x) => x.routing_operation_id === stepId));
      if (materials.some((x) => x.routing_operation_id === stepId && x.component_id === body!.component_id))
        return json({ detail: 'This material is already on this operation; change the quantity of that line instead' }, 409);
      const item = ITEMS.find((i) => i.id === body!.component_id)!;
      const line: StepMaterial = {
        id: nextId++,
        routing_operation_id: stepId,
        component_id: item.id,
        component_sku: item.sku,
        component_name: item.name,
        quantity: String(body!.quantity),
        quantity_per: body!.quantity_per as StepMaterial['quantity_per'],
        unit: (body!.unit as string | null) ?? item.unit,
        scrap_factor: String(body!.scrap_factor),
        is_cost_only: false,
        is_optional: false,
        is_variable: false,
        notes: null,
        unit_cost: '0.02',
        extended_cost: (Number(body!.quantity) * 0.02).toFixed(2),
        ...stamp,
      };
      materials = [...materials, line];
      save(routingOf(stepId)!);
      return json(line, 201);
    }
    m = /^\/routings\/materials\/(\d+)$/.exec(path);
    if (m && method === 'DELETE') {
      const line = materials.find((x) => x.id === Number(m![1]))!;
      materials = materials.filter((x) => x !== line);
      save(routingOf(line.routing_operation_id)!);
      return new Response(null, { status: 204 });
    }
    return json({ detail: `no fake for ${method} ${path}` }, 404);
  };

  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, reqInit?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = reqInit?.method ?? 'GET';
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const body = typeof reqInit?.body === 'string' ? (JSON.parse(reqInit.body) as Record<string, unknown>) : undefined;
      if (method !== 'GET') calls.push({ method, path, body });
      return handle(method, path, url.searchParams, body);
    }),
  );
  return { calls, writes: (method: string, pattern: RegExp) => calls.filter((c) => c.method === method && pattern.test(c.path)) };
}

const PRINT = { id: 11, sequence: 10, operation_code: 'PRINT', operation_name: '3D print', operation_type: 'FDM_PRINT', work_center_id: 1, setup_time_minutes: '6', run_time_minutes: '54', wait_time_minutes: '5' };
const QC = { id: 12, sequence: 20, operation_code: 'QC', operation_name: 'Inspect', operation_type: 'QUALITY_CONTROL', work_center_id: 2, run_time_minutes: '4' };
const PACK = { id: 13, sequence: 30, operation_code: 'PACK', operation_name: 'Pack', operation_type: 'PACK_SHIP', work_center_id: 2, run_time_minutes: '2' };
const widgetRouting = (steps: StepSeed[] = [PRINT, QC, PACK]) => makeRouting(100, 7, steps.map((s) => makeStep(100, s)));

async function open(productId = '7') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/admin/manufacturing?tab=routings']}>
          <ManufacturingPage />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  const product = screen.getByLabelText('Product');
  await within(product).findByRole('option', { name: 'WIDGET · Widget' });
  await user.selectOptions(product, productId);
  return user;
}

const rowsOf = (table: HTMLElement) => within(table).getAllByTestId('routing-step');
// The drag handle's cell is hidden from assistive technology: the first cell is the sequence.
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell');
const codes = (table: HTMLElement) => rowsOf(table).map((r) => cellsOf(r)[2]!.textContent);

describe('the routing editor', () => {
  it('lists the steps in sequence with type, work center, minutes and cost, and the routing totals', async () => {
    fakeServer({ routings: [widgetRouting()] });
    await open();
    const table = await screen.findByRole('table', { name: 'Steps' });
    expect(rowsOf(table).map((r) => cellsOf(r).slice(0, 9).map((c) => c.textContent))).toEqual([
      ['10', 'FDM Print', 'PRINT', '3D print65 min in all', 'FDM-POOL', '6', '54', '5', '$60.00'],
      ['20', 'Quality Control', 'QC', 'Inspect4 min in all', 'QC', '0', '4', '0', '$2.00'],
      ['30', 'Pack / Ship', 'PACK', 'Pack2 min in all', 'QC', '0', '2', '0', '$1.00'],
    ]);
    const totals = screen.getByRole('group', { name: 'Routing totals' });
    expect(within(totals).getByText('Steps').nextSibling).toHaveTextContent('3');
    expect(screen.getByTestId('routing-total-time')).toHaveTextContent('71 min');
    expect(screen.getByTestId('routing-total-cost')).toHaveTextContent('$63.00');
    expect(within(totals).getByText('Labour cost').nextSibling).toHaveTextContent('$63.00');
  });

  it('shows "No steps yet" and zero totals for an empty routing', async () => {
    fakeServer({ routings: [widgetRouting([])] });
    await open();
    expect(await screen.findByText('No steps yet')).toBeInTheDocument();
    expect(screen.getByTestId('routing-total-time')).toHaveTextContent('0 min');
  });

  it('shows the error of a failed load with a retry', async () => {
    fakeServer({ failList: true });
    await open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The database is resting.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("switches between a product's versions and makes an inactive one active", async () => {
    const v1 = makeRouting(99, 7, [makeStep(99, { id: 21, sequence: 10, operation_code: 'OLD' })], { version: 1, active: false, is_active: false, code: 'RTG-WIDGET-V1' });
    const v2 = makeRouting(100, 7, [makeStep(100, PRINT)], { version: 2, code: 'RTG-WIDGET-V2' });
    const server = fakeServer({ routings: [v1, v2] });
    const user = await open();
    const table = await screen.findByRole('table', { name: 'Steps' });
    const versions = screen.getByRole('group', { name: 'Versions' });
    expect(within(versions).getByRole('button', { name: 'RTG-WIDGET-V2 v2' })).toHaveAttribute('aria-pressed', 'true');
    expect(codes(table)).toEqual(['PRINT']);
    await user.click(within(versions).getByRole('button', { name: 'RTG-WIDGET-V1 v1' }));
    expect(codes(screen.getByRole('table', { name: 'Steps' }))).toEqual(['OLD']);
    expect(within(versions).getByText('Inactive')).toBeInTheDocument();
    await user.click(within(versions).getByRole('button', { name: 'Make active' }));
    expect(await within(versions).findByText('Active')).toBeInTheDocument();
    expect(server.writes('PUT', /^\/routings\/99$/).map((c) => c.body)).toEqual([{ active: true }]);
  });

  it('creates an empty routing for a product that has none', async () => {
    const server = fakeServer({ routings: [] });
    const user = await open();
    expect(await screen.findByText('No routing yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create routing' }));
    expect(await screen.findByText('No steps yet')).toBeInTheDocument();
    expect(server.writes('POST', /^\/routings\/$/).map((c) => c.body)).toEqual([{ product_id: 7, operations: [] }]);
  });

  it('adds a step through the form: the type picker is grouped and fills the name and work center', async () => {
    const server = fakeServer({ routings: [widgetRouting([PRINT])] });
    const user = await open();
    await screen.findByRole('table', { name: 'Steps' });
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    const dialog = screen.getByRole('dialog', { name: 'Add step' });
    const picker = within(dialog).getByLabelText('Operation type');
    expect(within(picker).getAllByRole('group').map((g) => [g.getAttribute('label'), within(g).getAllByRole('option').map((o) => o.textContent)])).toEqual([
      ['Print', ['FDM Print']],
      ['Quality', ['Quality Control']],
      ['Shipping', ['Pack / Ship']],
    ]);
    // Neither a code nor a type: refused in the form.
    await user.click(within(dialog).getByRole('button', { name: 'Add step' }));
    expect(await within(dialog).findByText('Enter a code or choose an operation type.')).toBeInTheDocument();
    await user.selectOptions(picker, 'QUALITY_CONTROL');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Quality Control');
    expect(within(dialog).getByLabelText(/^Work center/)).toHaveValue('2');
    await user.type(within(dialog).getByLabelText('Code'), 'qc');
    await user.clear(within(dialog).getByLabelText('Run minutes'));
    await user.type(within(dialog).getByLabelText('Run minutes'), '3.5');
    await user.click(within(dialog).getByRole('button', { name: 'Add step' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.writes('POST', /operations$/)[0]!.body).toMatchObject({
      operation_type: 'QUALITY_CONTROL',
      operation_code: 'qc',
      operation_name: 'Quality Control',
      work_center_id: 2,
      run_minutes: '3.5',
      setup_minutes: '0',
    });
    const table = screen.getByRole('table', { name: 'Steps' });
    await waitFor(() => expect(codes(table)).toEqual(['PRINT', 'QC']));
    expect(await screen.findByText('Step added')).toBeInTheDocument();
  });

  it('edits one step with PUT and deletes one only after the confirmation', async () => {
    const server = fakeServer({ routings: [widgetRouting()] });
    const user = await open();
    const table = await screen.findByRole('table', { name: 'Steps' });
    await user.click(within(table).getByRole('button', { name: 'Edit QC' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit step QC' });
    expect(within(dialog).getByLabelText('Operation type')).toHaveValue('QUALITY_CONTROL');
    expect(within(dialog).getByLabelText('Run minutes')).toHaveValue('4');
    await user.clear(within(dialog).getByLabelText('Run minutes'));
    await user.type(within(dialog).getByLabelText('Run minutes'), '8');
    await user.click(within(dialog).getByRole('button', { name: 'Save step' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.writes('PUT', /^\/routings\/operations\/12$/)[0]!.body).toMatchObject({ run_minutes: '8', operation_type: 'QUALITY_CONTROL', work_center_id: 2 });
    await waitFor(() => expect(cellsOf(rowsOf(table)[1]!)[6]).toHaveTextContent('8'));

    await user.click(within(table).getByRole('button', { name: 'Delete PACK' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete step PACK?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.writes('DELETE', /./)).toEqual([]);
    await user.click(within(table).getByRole('button', { name: 'Delete PACK' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete step' }));
    await waitFor(() => expect(codes(table)).toEqual(['PRINT', 'QC']));
    expect(server.writes('DELETE', /./).map((c) => c.path)).toEqual(['/routings/operations/13']);
  });

  it('reorders with the up and down buttons, PUTting 10, 20, 30 to the steps that move', async () => {
    const server = fakeServer({ routings: [widgetRouting()] });
    const user = await open();
    const table = await screen.findByRole('table', { name: 'Steps' });
    expect(within(table).getByRole('button', { name: 'Move PRINT up' })).toBeDisabled();
    expect(within(table).getByRole('button', { name: 'Move PACK down' })).toBeDisabled();
    await user.click(within(table).getByRole('button', { name: 'Move PACK up' }));
    // The new order shows at once, and the screen reader hears where the step went.
    expect(codes(table)).toEqual(['PRINT', 'PACK', 'QC']);
    expect(screen.getByText('PACK moved to position 2 of 3.')).toBeInTheDocument();
    await waitFor(() => expect(within(table).getByRole('button', { name: 'Move PRINT down' })).toBeEnabled());
    expect(server.writes('PUT', /operations/).map((c) => [c.path, c.body])).toEqual([
      ['/routings/operations/13', { sequence: 20 }],
      ['/routings/operations/12', { sequence: 30 }],
    ]);
    expect(rowsOf(table).map((r) => cellsOf(r)[0]!.textContent)).toEqual(['10', '20', '30']);
    expect(codes(table)).toEqual(['PRINT', 'PACK', 'QC']);
  });

  it('reorders by dragging a row onto another', async () => {
    const server = fakeServer({ routings: [widgetRouting()] });
    await open();
    const table = await screen.findByRole('table', { name: 'Steps' });
    const [print, , pack] = rowsOf(table);
    const data = new Map<string, string>();
    const dataTransfer = { setData: (k: string, v: string) => data.set(k, v), getData: (k: string) => data.get(k) ?? '', effectAllowed: '', dropEffect: '' };
    expect(print).toHaveAttribute('draggable', 'true');
    fireEvent.dragStart(print!, { dataTransfer });
    fireEvent.dragOver(pack!, { dataTransfer });
    expect(pack).toHaveClass('is-drop-target');
    fireEvent.drop(pack!, { dataTransfer });
    fireEvent.dragEnd(print!, { dataTransfer });
    expect(codes(table)).toEqual(['QC', 'PACK', 'PRINT']);
    await waitFor(() => expect(server.writes('PUT', /operations/)).toHaveLength(3));
    expect(server.writes('PUT', /operations/).map((c) => [c.path, c.body])).toEqual([
      ['/routings/operations/12', { sequence: 10 }],
      ['/routings/operations/13', { sequence: 20 }],
      ['/routings/operations/11', { sequence: 30 }],
    ]);
  });

  it("opens a step's materials, adds one, and shows the server's 409 for a duplicate in the form", async () => {
    const server = fakeServer({ routings: [widgetRouting([PRINT])] });
    const user = await open();
    const table = await screen.findByRole('table', { name: 'Steps' });
    const toggle = within(table).getByRole('button', { name: 'Materials of PRINT' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('region', { name: 'Materials of PRINT' });
    expect(await within(panel).findByText('No materials on this step')).toBeInTheDocument();

    const addPla = async () => {
      await user.click(within(panel).getByRole('button', { name: 'Add material' }));
      const dialog = screen.getByRole('dialog', { name: 'Add material to PRINT' });
      const component = within(dialog).getByLabelText(/^Component/);
      await within(component).findByRole('option', { name: 'PLA-BLK · PLA black' });
      await user.selectOptions(component, '12');
      expect(within(dialog).getByLabelText('Unit')).toHaveAttribute('placeholder', 'G');
      await user.type(within(dialog).getByLabelText(/^Quantity/), '50');
      await user.selectOptions(within(dialog).getByLabelText('Per'), 'batch');
      await user.click(within(dialog).getByRole('button', { name: 'Add material' }));
      return dialog;
    };
    await addPla();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.writes('POST', /materials$/)[0]!.body).toEqual({
      component_id: 12,
      quantity: '50',
      quantity_per: 'batch',
      unit: null,
      scrap_factor: '0',
      is_cost_only: false,
      is_optional: false,
      is_variable: false,
      notes: null,
    });
    const lines = await within(panel).findByRole('table', { name: 'Materials of PRINT' });
    const row = within(lines).getByText('PLA-BLK').closest('tr')!;
    expect(within(row).getAllByRole('cell').slice(1, 6).map((c) => c.textContent)).toEqual(['50', 'run', 'G', '0', '$1.00']);
    expect(within(panel).getByTestId('material-cost')).toHaveTextContent('$1.00');
    await waitFor(() => expect(screen.getByTestId('routing-total-cost')).toHaveTextContent('$61.00'));

    const dialog = await addPla();
    expect(await within(dialog).findByText('This material is already on this operation; change the quantity of that line instead')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add material to PRINT' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(within(lines).getByRole('button', { name: 'Remove PLA-BLK' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Remove this material?' })).getByRole('button', { name: 'Remove material' }));
    expect(await within(panel).findByText('No materials on this step')).toBeInTheDocument();
  });

  it("offers to seed templates when there are none and shows the server's 400 sentence", async () => {
    const server = fakeServer({ routings: [widgetRouting()], seedError: 'Missing required work centers: ASSEMBLY, SHIPPING. Please create them first.' });
    const user = await open();
    await screen.findByRole('table', { name: 'Steps' });
    expect(await screen.findByRole('button', { name: 'Seed standard templates' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply template' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Seed standard templates' }));
    const alert = await screen.findByText('Missing required work centers: ASSEMBLY, SHIPPING. Please create them first.');
    expect(alert.closest('[role="alert"]')).toHaveTextContent('Templates were not seeded');
    expect(server.writes('POST', /seed-templates/)).toHaveLength(1);
  });

  it('seeds the templates, then applies one with a print time that replaces the steps', async () => {
    const server = fakeServer({ routings: [widgetRouting()] });
    const user = await open();
    const table = await screen.findByRole('table', { name: 'Steps' });
    await user.click(await screen.findByRole('button', { name: 'Seed standard templates' }));
    expect(await screen.findByText('Templates seeded')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Apply template' })).toBeEnabled());
    expect(screen.queryByRole('button', { name: 'Seed standard templates' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Apply template' }));
    const dialog = screen.getByRole('dialog', { name: 'Apply template' });
    expect(within(dialog).getByText(/The 3 steps of RTG-100 will be replaced/)).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText(/^Template/), '900');
    expect(within(dialog).getByTestId('template-summary')).toHaveTextContent('PRINT');
    await user.type(within(dialog).getByLabelText('Print time (minutes per unit)'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Apply template' }));
    expect(await within(dialog).findByText(/Enter the print time as 0 or more/)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Print time (minutes per unit)'));
    await user.type(within(dialog).getByLabelText('Print time (minutes per unit)'), '42');
    await user.click(within(dialog).getByRole('button', { name: 'Apply template' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.writes('POST', /apply-template/)[0]!.body).toEqual({ template_id: 900, product_id: 7, overrides: [{ operation_code: 'PRINT', run_minutes: '42' }] });
    await waitFor(() => expect(codes(table)).toEqual(['PRINT']));
    expect(cellsOf(rowsOf(table)[0]!)[6]).toHaveTextContent('42 slicer');
    expect(screen.getByText('Template applied')).toBeInTheDocument();
  });
});
