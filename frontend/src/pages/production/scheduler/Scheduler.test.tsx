import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../../components/Toast';
import { Scheduler } from './Scheduler';
import { SchedulerBoard, type BarActions } from './SchedulerBoard';
import { geometry, moveOperation, shiftWindow, type AutoScheduleResult, type Board, type RescheduleResult } from './schedulerApi';
import { lane, op } from './fixtures';

const day = new Date(2026, 2, 4);
const at = (h: number, m = 0) => new Date(2026, 2, 4, h, m).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function boardOf(lanes = [lane(1, [op(1, at(8), 70)]), lane(2, [op(2, at(8), 60)], { code: 'PRT-002' })], unscheduled: Board['unscheduled'] = []): Board {
  return { start: iso(at(0)), end: iso(at(24)), lanes, unscheduled };
}

const accepted = (over: Partial<RescheduleResult> = {}): RescheduleResult => ({
  success: true,
  operation_id: 1,
  scheduled_start: null,
  scheduled_end: null,
  message: null,
  conflicts: [],
  conflict_type: null,
  earliest_valid_start: null,
  next_available_start: null,
  next_available_end: null,
  successor_conflicts: [],
  ...over,
});

interface Write {
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** The scheduling routes in memory: the board, and every write answered by `write`. */
function serve(initial: Board, write: (w: Write) => Response = () => json(200, accepted()), read: (path: string) => Response | undefined = () => undefined) {
  const writes: Write[] = [];
  const state = { board: initial };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace('/api/v1', '');
      if ((init.method ?? 'GET') !== 'GET') {
        const w = { path, query: url.searchParams, body: init.body ? JSON.parse(String(init.body)) : undefined };
        writes.push(w);
        const res = write(w);
        // An accepted move is what the next read of the board shows.
        const m = /^\/production-orders\/\d+\/operations\/(\d+)\/reschedule$/.exec(path);
        const body = w.body as { resource_id: number; scheduled_start: string } | undefined;
        if (m && body && res.status === 200 && (await res.clone().json()).success) {
          state.board = moveOperation(state.board, Number(m[1]), `printer-${body.resource_id}`, Date.parse(body.scheduled_start));
        }
        return res;
      }
      if (path === '/scheduling/board') return json(200, state.board);
      return read(path) ?? json(404, { detail: 'Not Found' });
    }),
  );
  return writes;
}

function renderScheduler() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <Scheduler initialDate={day} now={at(3)} />
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Scheduler board', () => {
  it('renders 500 bars', () => {
    const lanes = Array.from({ length: 10 }, (_, l) => lane(l + 1, Array.from({ length: 50 }, (_, i) => op(l * 100 + i, at(0) + i * 25 * 60_000, 20))));
    const g = geometry(day, shiftWindow(day, 'day', 1), 'day', lanes.length);
    const actions: BarActions = { move: vi.fn(), useNextSlot: vi.fn(), dismiss: vi.fn() };
    const { container } = render(<SchedulerBoard lanes={lanes} g={g} zoom="day" actions={actions} refusal={null} saving={null} now={at(3)} />);
    expect(container.querySelectorAll('[data-op]')).toHaveLength(500);
    expect(container.querySelectorAll('[data-lane]')).toHaveLength(10);
    expect(screen.getByTestId('now-line')).toBeInTheDocument();
  });

  it('shows lanes with their work center, utilisation, bars with labels, and maintenance with its reason', async () => {
    const l1 = lane(1, [op(1, at(8), 70, { late: true })], {
      windows: [{ id: 5, starts_at: iso(at(12)), ends_at: iso(at(14)), reason: 'Nozzle swap', status: 'scheduled' }],
    });
    serve(boardOf([l1]));
    renderScheduler();
    const bar = await screen.findByRole('button', { name: 'WO-2026-0001 PRINT on PRT-001, 08:00–09:10' });
    expect(bar).toHaveClass('is-late');
    expect(screen.getByText('Nozzle swap')).toBeInTheDocument();
    expect(screen.getByText('12.5%')).toBeInTheDocument();
    expect(screen.getByText('FDM')).toBeInTheDocument();
  });

  it('moves a bar with the keyboard: arrows, Enter saves on the new lane', async () => {
    const writes = serve(boardOf());
    renderScheduler();
    const bar = await screen.findByRole('button', { name: /^WO-2026-0001 PRINT on PRT-001/ });
    act(() => bar.focus());
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(bar, { key: 'ArrowDown' });
    expect(bar).toHaveAccessibleName('WO-2026-0001 PRINT on PRT-002, 09:30–10:40');
    expect(writes).toHaveLength(0);
    fireEvent.keyDown(bar, { key: 'Enter' });
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.path).toBe('/production-orders/101/operations/1/reschedule');
    expect(writes[0]!.body).toEqual({ resource_id: 2, is_printer: true, scheduled_start: iso(at(9, 30)) });
    // Shown at once in the new lane.
    const lane2 = document.querySelector('[data-lane="printer-2"]') as HTMLElement;
    expect(within(lane2).getByRole('button', { name: /^WO-2026-0001/ })).toBeInTheDocument();
  });

  it('Escape cancels a keyboard move', async () => {
    const writes = serve(boardOf());
    renderScheduler();
    const bar = await screen.findByRole('button', { name: /^WO-2026-0001 PRINT on PRT-001/ });
    fireEvent.keyDown(bar, { key: 'ArrowLeft' });
    expect(bar).toHaveAccessibleName(/07:45/);
    fireEvent.keyDown(bar, { key: 'Escape' });
    expect(bar).toHaveAccessibleName('WO-2026-0001 PRINT on PRT-001, 08:00–09:10');
    fireEvent.keyDown(bar, { key: 'Enter' });
    expect(writes).toHaveLength(0);
  });

  it('a refused move snaps back and shows the reason on the bar; "Use next free slot" books it there', async () => {
    const writes = serve(boardOf(), () =>
      writes.length === 1
        ? json(200, accepted({ success: false, message: 'ABS needs an enclosed printer', conflict_type: 'compatibility', next_available_start: iso(at(11)) }))
        : json(200, accepted()),
    );
    renderScheduler();
    const bar = await screen.findByRole('button', { name: /^WO-2026-0001 PRINT on PRT-001/ });
    fireEvent.keyDown(bar, { key: 'ArrowDown' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ABS needs an enclosed printer');
    // Back on its own lane, at its own time, marked refused.
    const lane1 = document.querySelector('[data-lane="printer-1"]') as HTMLElement;
    const back = within(lane1).getByRole('button', { name: 'WO-2026-0001 PRINT on PRT-001, 08:00–09:10' });
    expect(back).toHaveClass('is-refused');
    expect(within(lane1).getByRole('alert')).toBe(alert);

    await userEvent.click(within(alert).getByRole('button', { name: /Use next free slot/ }));
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]!.body).toEqual({ resource_id: 2, is_printer: true, scheduled_start: iso(at(11)) });
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('a move onto a printer that stands shows what is still worth a look there, in amber', async () => {
    const reads: string[] = [];
    serve(boardOf(), undefined, (path) => {
      reads.push(path);
      return path === '/production-orders/101/operations/1/compatibility'
        ? json(200, {
            operation_id: 1,
            operation_name: 'Print',
            printer_name: 'Printer 2',
            compatible: true,
            issues: [{ severity: 'warning', check: 'hardened_nozzle', message: 'PA-CF is abrasive; check that this printer has a hardened nozzle', material_name: 'PA-CF', printer_name: 'Printer 2' }],
          })
        : undefined;
    });
    renderScheduler();
    const bar = await screen.findByRole('button', { name: /^WO-2026-0001 PRINT on PRT-001/ });
    fireEvent.keyDown(bar, { key: 'ArrowDown' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    const note = await screen.findByRole('alert');
    expect(note).toHaveTextContent('PRT-002: PA-CF is abrasive; check that this printer has a hardened nozzle');
    expect(note).toHaveClass('sched-callout--warning');
    // The booking stands on the new printer, not marked refused.
    const lane2 = document.querySelector('[data-lane="printer-2"]') as HTMLElement;
    expect(within(lane2).getByRole('button', { name: /^WO-2026-0001 PRINT on PRT-002/ })).not.toHaveClass('is-refused');
    expect(within(lane2).getByRole('alert')).toBe(note);
    expect(reads).toContain('/production-orders/101/operations/1/compatibility');
  });

  it('a 404 from the move is shown on the bar with the server message', async () => {
    serve(boardOf(), () => json(404, { detail: 'Operation 1 not found' }));
    renderScheduler();
    const bar = await screen.findByRole('button', { name: /^WO-2026-0001 PRINT on PRT-001/ });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Operation 1 not found');
  });

  it('auto-schedules the shop and sums it up: booked, late orders, operations not placed', async () => {
    const result: AutoScheduleResult = {
      order_id: null,
      order_code: null,
      resource_id: null,
      is_printer: null,
      resource_code: null,
      resource_name: null,
      scheduled_start: null,
      scheduled_end: null,
      scheduled_operations: 7,
      late_orders: 1,
      orders: [
        { order_id: 1, order_code: 'WO-2026-0001', planned_finish: iso(at(18)), due_date: '2026-03-10', late: false, unplaced: [] },
        { order_id: 2, order_code: 'WO-2026-0002', planned_finish: iso(new Date(2026, 2, 12, 9).getTime()), due_date: '2026-03-05', late: true, unplaced: [{ operation_id: 44, reason: 'No machine in work center PAINT' }] },
      ],
    };
    const writes = serve(boardOf(), () => json(200, result));
    renderScheduler();
    await screen.findByRole('button', { name: /^WO-2026-0001 PRINT/ });
    await userEvent.click(screen.getByRole('button', { name: 'Auto-schedule shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Auto-schedule summary' });
    expect(writes[0]!.path).toBe('/scheduling/auto-schedule');
    expect(writes[0]!.query.get('order_id')).toBeNull();
    expect(within(dialog).getByText('Operations booked').nextSibling).toHaveTextContent('7');
    const late = within(dialog).getByRole('table', { name: 'Late orders' });
    expect(within(late).getAllByRole('row')).toHaveLength(2);
    expect(within(late).getByText('WO-2026-0002')).toBeInTheDocument();
    expect(within(late).getByText('2026-03-05')).toBeInTheDocument();
    expect(within(dialog).getByText(/No machine in work center PAINT/)).toBeInTheDocument();
  });

  it('says to add machines when there are none, and when nothing is booked', async () => {
    serve(boardOf([]));
    renderScheduler();
    expect(await screen.findByText('Add printers or resources to schedule work')).toBeInTheDocument();
  });

  it('says nothing is booked and lists the queue with priority, due date and count', async () => {
    serve(
      boardOf(
        [lane(1)],
        [
          {
            production_order_id: 9,
            production_order_code: 'WO-2026-0009',
            production_order_status: 'released',
            product_name: 'Widget',
            quantity: '4',
            priority: 1,
            due_date: '2026-03-06',
            unscheduled_operation_count: 2,
            first_unscheduled_operation: { id: 90, operation_code: 'PRINT', operation_name: 'Print', sequence: 10, status: 'pending', planned_setup_minutes: '10', planned_run_minutes: '30' },
          },
        ],
      ),
    );
    renderScheduler();
    expect(await screen.findByText('Nothing is booked in this window')).toBeInTheDocument();
    const queue = screen.getByRole('complementary', { name: 'Unscheduled orders' });
    expect(within(queue).getByText('WO-2026-0009')).toBeInTheDocument();
    expect(within(queue).getByText('P1')).toBeInTheDocument();
    expect(within(queue).getByText(/Due 2026-03-06 · 2 operations waiting/)).toBeInTheDocument();
  });
});
