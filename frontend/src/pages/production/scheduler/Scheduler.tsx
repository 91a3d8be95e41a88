import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarRange, ChevronLeft, ChevronRight, Printer, Wand2 } from 'lucide-react';
import { queryKeys } from '../../../api/queryKeys';
import { errorMessage } from '../../../api/errors';
import { Button } from '../../../components/Button';
import { EmptyState, ErrorState, Badge } from '../../../components/States';
import { PageSpinner } from '../../../components/Spinner';
import { useToast } from '../../../components/Toast';
import { formatQty } from '../../../lib/format';
import { LIVE_INTERVAL, productionApi } from '../productionApi';
import { AutoScheduleDialog } from './AutoScheduleDialog';
import { SchedulerBoard, type BarActions, type Refusal } from './SchedulerBoard';
import {
  dayLabel,
  geometry,
  moveOperation,
  schedulerApi,
  shiftWindow,
  windowEnd,
  windowStart,
  type AutoScheduleResult,
  type Board,
  type BoardOperation,
  type Lane,
  type QueuedOrder,
  type Zoom,
} from './schedulerApi';
import './scheduler.css';

/**
 * Production's Scheduler tab (issue 32): the Gantt board of a day or a week, moves by drag or
 * keyboard (refusals shown on the bar), the unscheduled queue and the whole-shop auto-schedule.
 */
export function Scheduler({ initialDate, now }: { initialDate?: Date; now?: number } = {}) {
  const qc = useQueryClient();
  const toast = useToast();
  const [zoom, setZoom] = useState<Zoom>('day');
  const [start, setStart] = useState(() => windowStart(initialDate ?? new Date(), 'day'));
  const end = useMemo(() => windowEnd(start, zoom), [start, zoom]);
  const key = queryKeys.production.board(start.toISOString(), end.toISOString());
  const board = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => schedulerApi.board(start, end, signal),
    placeholderData: (prev) => prev,
    refetchInterval: LIVE_INTERVAL,
  });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [saving, setSaving] = useState<{ opId: number; laneKey: string } | null>(null);
  const [autoRunning, setAutoRunning] = useState(false);
  const [summary, setSummary] = useState<AutoScheduleResult | null>(null);
  const [placingOrder, setPlacingOrder] = useState<number | null>(null);
  const boardRef = useRef<HTMLDivElement>(null);

  const lanes = board.data?.lanes;
  const laneCount = lanes?.length ?? 0;
  const g = useMemo(() => geometry(start, end, zoom, laneCount), [start, end, zoom, laneCount]);

  const setZoomKeep = (z: Zoom) => {
    setZoom(z);
    setStart((s) => windowStart(z === 'day' && zoom === 'week' ? pickDay(s, now) : s, z));
  };

  /** Saves a move: shown at once, put back with the server's reason when refused. */
  const move = async (op: BoardOperation, fromLane: Lane, toLane: Lane, startMs: number) => {
    await qc.cancelQueries({ queryKey: key });
    const before = qc.getQueryData<Board>(key);
    setRefusal(null);
    if (before) qc.setQueryData<Board>(key, moveOperation(before, op.id, toLane.key, startMs));
    setSaving({ opId: op.id, laneKey: toLane.key });
    let refused: Refusal | null = null;
    try {
      const r = await schedulerApi.reschedule(op.production_order_id, op.id, {
        resource_id: toLane.id,
        is_printer: toLane.kind === 'printer',
        scheduled_start: new Date(startMs).toISOString(),
      });
      if (!r.success) refused = { op, laneKey: fromLane.key, toLane, message: r.message ?? 'The move was refused.', nextStart: r.next_available_start };
    } catch (e) {
      refused = { op, laneKey: fromLane.key, toLane, message: errorMessage(e), nextStart: null };
    }
    if (refused && before) qc.setQueryData<Board>(key, before);
    // A move onto a printer stands when the materials can print there; what is still worth a
    // look (abrasive filament where the nozzle is unknown) shows in amber on the bar.
    if (!refused && toLane.kind === 'printer') refused = await printerFindings(op, toLane);
    setRefusal(refused);
    setSaving(null);
    if (!refused) void qc.invalidateQueries({ queryKey: queryKeys.production.all });
    // Focus follows the bar to where it is now (a new lane mounts a new element).
    requestAnimationFrame(() => boardRef.current?.querySelector<HTMLElement>(`[data-op="${op.id}"]`)?.focus());
  };
  const moveRef = useRef(move);
  useEffect(() => {
    moveRef.current = move;
  });
  const lanesRef = useRef(lanes);
  useEffect(() => {
    lanesRef.current = lanes;
  }, [lanes]);

  // One object for every bar, for the life of the tab: bars never re-render because of it.
  const actions = useMemo<BarActions>(
    () => ({
      move: (op, from, to, startMs) => {
        const all = lanesRef.current;
        const fromLane = all?.[from];
        const toLane = all?.[to];
        if (fromLane && toLane) void moveRef.current(op, fromLane, toLane, startMs);
      },
      useNextSlot: (r) => {
        const all = lanesRef.current;
        const fromLane = all?.find((l) => l.key === r.laneKey);
        if (fromLane && r.nextStart) void moveRef.current(r.op, fromLane, r.toLane, Date.parse(r.nextStart));
      },
      dismiss: () => setRefusal(null),
    }),
    [],
  );

  const autoSchedule = async () => {
    setAutoRunning(true);
    try {
      const r = await schedulerApi.autoSchedule();
      setSummary(r);
      void qc.invalidateQueries({ queryKey: queryKeys.production.all });
    } catch (e) {
      toast.error('Auto-schedule failed', errorMessage(e));
    } finally {
      setAutoRunning(false);
    }
  };

  const placeOrder = useCallback(
    async (o: QueuedOrder) => {
      setPlacingOrder(o.production_order_id);
      try {
        const r = await schedulerApi.autoSchedule({ orderId: o.production_order_id });
        toast.success(`${o.production_order_code} scheduled`, r.resource_code && r.scheduled_start ? `From ${dayLabel(Date.parse(r.scheduled_start))} on ${r.resource_code}` : undefined);
        void qc.invalidateQueries({ queryKey: queryKeys.production.all });
      } catch (e) {
        toast.error(`Could not schedule ${o.production_order_code}`, errorMessage(e));
      } finally {
        setPlacingOrder(null);
      }
    },
    [qc, toast],
  );

  const title =
    zoom === 'day'
      ? dayLabel(start.getTime(), { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
      : `${dayLabel(start.getTime(), { day: 'numeric', month: 'short' })} – ${dayLabel(end.getTime() - 1, { day: 'numeric', month: 'short', year: 'numeric' })}`;
  const booked = lanes?.reduce((n, l) => n + l.operations.length, 0) ?? 0;

  return (
    <div className="sched" data-start={start.toISOString()} data-zoom={zoom}>
      <div className="sched-toolbar">
        <div className="sched-nav" role="group" aria-label="Dates">
          <Button size="sm" variant="ghost" icon={<ChevronLeft size={16} />} aria-label={zoom === 'day' ? 'Previous day' : 'Previous week'} onClick={() => setStart((s) => shiftWindow(s, zoom, -1))} />
          <Button size="sm" onClick={() => setStart(windowStart(now !== undefined ? new Date(now) : new Date(), zoom))}>
            Today
          </Button>
          <Button size="sm" variant="ghost" icon={<ChevronRight size={16} />} aria-label={zoom === 'day' ? 'Next day' : 'Next week'} onClick={() => setStart((s) => shiftWindow(s, zoom, 1))} />
          <h2 className="sched-title" aria-live="polite">
            {title}
          </h2>
        </div>
        <div className="sched-zoom" role="group" aria-label="Zoom">
          {(['day', 'week'] as const).map((z) => (
            <button key={z} type="button" className={`sched-zoom__btn${zoom === z ? ' is-active' : ''}`} aria-pressed={zoom === z} onClick={() => setZoomKeep(z)}>
              {z === 'day' ? 'Day' : 'Week'}
            </button>
          ))}
        </div>
        <Button variant="primary" icon={<Wand2 size={16} />} loading={autoRunning} onClick={() => void autoSchedule()}>
          Auto-schedule shop
        </Button>
      </div>

      <div className="sched-layout">
        <div className="sched-main" ref={boardRef}>
          {board.isPending ? (
            <PageSpinner label="Loading the schedule" />
          ) : board.isError ? (
            <ErrorState error={board.error} onRetry={() => void board.refetch()} />
          ) : laneCount === 0 ? (
            <EmptyState
              icon={<Printer size={22} />}
              title="Add printers or resources to schedule work"
              description="The board has a row per printer and per resource; bookings go on them."
              action={
                <Link className="btn btn--secondary btn--md" to="/admin/printers">
                  <span className="btn__label">Printers</span>
                </Link>
              }
            />
          ) : (
            <>
              {booked === 0 && (
                <EmptyState
                  compact
                  icon={<CalendarRange size={22} />}
                  title="Nothing is booked in this window"
                  description={board.data.unscheduled.length ? 'Orders are waiting in the queue: auto-schedule the shop to book them.' : 'Release production orders, then auto-schedule them.'}
                />
              )}
              <SchedulerBoard lanes={board.data.lanes} g={g} zoom={zoom} actions={actions} refusal={refusal} saving={saving} now={now} />
            </>
          )}
        </div>
        <Queue orders={board.data?.unscheduled ?? []} placing={placingOrder} onPlace={(o) => void placeOrder(o)} />
      </div>
      <AutoScheduleDialog result={summary} onClose={() => setSummary(null)} />
    </div>
  );
}

/** The findings of the printer an operation was just booked on, as an amber note (none: null). */
async function printerFindings(op: BoardOperation, lane: Lane): Promise<Refusal | null> {
  try {
    const c = await productionApi.operationCompatibility(op.production_order_id, op.id);
    if (c.issues.length === 0) return null;
    const errors = c.issues.some((i) => i.severity === 'error');
    return {
      op,
      laneKey: lane.key,
      toLane: lane,
      message: `${lane.code}: ${c.issues.map((i) => i.message).join('. ')}`,
      nextStart: null,
      tone: errors ? undefined : 'warning',
    };
  } catch {
    // The booking is saved; the findings are a courtesy.
    return null;
  }
}

/** Switching from a week to a day: today when the week holds it, else the week's Monday. */
function pickDay(weekStart: Date, now?: number): Date {
  const today = now !== undefined ? new Date(now) : new Date();
  const end = windowEnd(weekStart, 'week');
  return today >= weekStart && today < end ? today : weekStart;
}

const PRIORITY_TONE = { 1: 'danger', 2: 'warning', 3: 'info', 4: 'neutral', 5: 'neutral' } as const;

function Queue({ orders, placing, onPlace }: { orders: readonly QueuedOrder[]; placing: number | null; onPlace: (o: QueuedOrder) => void }) {
  return (
    <aside className="sched-queue card" aria-label="Unscheduled orders">
      <h2 className="section-title">
        Unscheduled <span className="sched-queue__count">{orders.length}</span>
      </h2>
      {orders.length === 0 ? (
        <p className="sched-queue__empty">Every released order has its bookings.</p>
      ) : (
        <ul className="sched-queue__list">
          {orders.map((o) => (
            <li key={o.production_order_id} className="sched-queue__item">
              <div className="sched-queue__head">
                <Link className="mono cell-strong" to={`/admin/production/${o.production_order_id}`}>
                  {o.production_order_code}
                </Link>
                <Badge tone={PRIORITY_TONE[o.priority as keyof typeof PRIORITY_TONE] ?? 'neutral'}>P{o.priority}</Badge>
              </div>
              <span className="cell-sub">
                {o.product_name} × {formatQty(o.quantity)}
              </span>
              <span className="cell-sub">
                {o.due_date ? `Due ${o.due_date}` : 'No due date'} · {o.unscheduled_operation_count} {o.unscheduled_operation_count === 1 ? 'operation' : 'operations'} waiting
                {o.first_unscheduled_operation ? ` (next: ${o.first_unscheduled_operation.operation_code})` : ''}
              </span>
              <Button size="sm" loading={placing === o.production_order_id} disabled={placing !== null} onClick={() => onPlace(o)} aria-label={`Schedule ${o.production_order_code}`}>
                Schedule
              </Button>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
