import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { AlertTriangle, CalendarClock, X } from 'lucide-react';
import { Button } from '../../../components/Button';
import {
  HOUR,
  DAY,
  STATUS_CLASS,
  barLabel,
  clock,
  dayLabel,
  draggedLane,
  draggedStart,
  keyMove,
  layoutLane,
  timeToX,
  type BoardOperation,
  type Geometry,
  type KeyMove,
  type Lane,
  type PlacedBar,
  type Zoom,
} from './schedulerApi';

/** A move the server refused, shown on the bar that snapped back. */
export interface Refusal {
  op: BoardOperation;
  /** The lane the bar is in (where it snapped back to). */
  laneKey: string;
  /** The lane it was dropped on (the next free slot is there). */
  toLane: Lane;
  message: string;
  nextStart: string | null;
  /**
   * `warning`: not a refusal, the move stands: findings of the printer it now is on (abrasive
   * filament where the nozzle is unknown). Shown in amber on the bar where it landed.
   */
  tone?: 'warning';
}

/** What bars ask of the board; one stable object, so a bar re-renders only for its own state. */
export interface BarActions {
  move: (op: BoardOperation, fromLane: number, toLane: number, startMs: number) => void;
  useNextSlot: (refusal: Refusal) => void;
  dismiss: () => void;
}

interface BoardProps {
  lanes: readonly Lane[];
  g: Geometry;
  zoom: Zoom;
  actions: BarActions;
  refusal: Refusal | null;
  /** The operation being saved and the lane it is shown in. */
  saving: { opId: number; laneKey: string } | null;
  /** For tests: the clock's now. */
  now?: number;
}

export const LABEL_WIDTH = 232;
/** Room under the last lane for a refusal's callout. */
const CALLOUT_ROOM = 64;

/** The Gantt board: a time header, one row per machine, bars by time, maintenance hatched, a now line. */
export function SchedulerBoard({ lanes, g, zoom, actions, refusal, saving, now }: BoardProps) {
  const hintId = useId();
  // Stable while the machines stay the same (a move gives new lane objects, not new codes).
  const codesKey = lanes.map((l) => l.code).join('\u0000');
  const laneCodes = useMemo(() => codesKey.split('\u0000'), [codesKey]);
  const scroller = useRef<HTMLDivElement>(null);
  // A new window opens an hour before now (today) or at 07:00 (another day); a week at its start.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const at = now ?? Date.now();
    const from = zoom === 'week' ? g.startMs : at >= g.startMs && at < g.endMs ? at - HOUR : g.startMs + 7 * HOUR;
    el.scrollLeft = Math.max(0, timeToX(from, g));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the window changes, not on every refetch
  }, [g.startMs, zoom]);
  return (
    <div ref={scroller} className="sched-board" role="region" aria-label="Schedule board" style={{ ['--label-w' as string]: `${LABEL_WIDTH}px` }}>
      <p id={hintId} className="sr-only">
        Arrow keys move a bar by 15 minutes (Shift: an hour), Up and Down to another machine; Enter saves, Escape cancels.
      </p>
      <div className="sched-board__inner" style={{ width: LABEL_WIDTH + g.width }}>
        <TimeHeader g={g} zoom={zoom} />
        <div className="sched-lanes" style={{ height: lanes.length * g.laneHeight + CALLOUT_ROOM }}>
          {lanes.map((lane, i) => (
            <LaneRow
              key={lane.key}
              lane={lane}
              index={i}
              g={g}
              zoom={zoom}
              laneCodes={laneCodes}
              actions={actions}
              hintId={hintId}
              refusal={refusal?.laneKey === lane.key ? refusal : undefined}
              savingId={saving?.laneKey === lane.key ? saving.opId : undefined}
            />
          ))}
          <NowLine g={g} now={now} />
        </div>
      </div>
    </div>
  );
}

const TimeHeader = memo(function TimeHeader({ g, zoom }: { g: Geometry; zoom: Zoom }) {
  const ticks = useMemo(() => {
    const out: { ms: number; x: number; label: string; major: boolean }[] = [];
    const step = zoom === 'day' ? HOUR : 6 * HOUR;
    for (let ms = g.startMs; ms < g.endMs; ms += step) {
      const d = new Date(ms);
      const major = zoom === 'week' && d.getHours() === 0;
      out.push({ ms, x: timeToX(ms, g), major, label: zoom === 'day' ? clock(ms) : major ? dayLabel(ms) : String(d.getHours()).padStart(2, '0') });
    }
    return out;
  }, [g, zoom]);
  return (
    <div className="sched-head" aria-hidden="true">
      <div className="sched-head__corner">{zoom === 'day' ? dayLabel(g.startMs, { weekday: 'long', day: 'numeric', month: 'long' }) : 'Machine'}</div>
      <div className="sched-head__track" style={{ width: g.width }}>
        {ticks.map((t) => (
          <span key={t.ms} className={`sched-tick${t.major ? ' sched-tick--major' : ''}`} style={{ left: t.x }}>
            {t.label}
          </span>
        ))}
      </div>
    </div>
  );
});

/** The now line; it alone re-renders as the minutes pass. */
function NowLine({ g, now: fixed }: { g: Geometry; now?: number }) {
  const [now, setNow] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) return;
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, [fixed]);
  const at = fixed ?? now;
  if (at < g.startMs || at > g.endMs) return null;
  return <div className="sched-now" style={{ left: LABEL_WIDTH + timeToX(at, g) }} title={`Now, ${clock(at)}`} data-testid="now-line" />;
}

interface LaneRowProps {
  lane: Lane;
  index: number;
  g: Geometry;
  zoom: Zoom;
  laneCodes: readonly string[];
  actions: BarActions;
  hintId: string;
  refusal: Refusal | undefined;
  savingId: number | undefined;
}

/** One machine: memoised, so a move re-renders the lanes it touches only. */
const LaneRow = memo(function LaneRow({ lane, index, g, zoom, laneCodes, actions, hintId, refusal, savingId }: LaneRowProps) {
  const { bars, windows } = useMemo(() => layoutLane(lane, g), [lane, g]);
  const util = Math.max(0, Math.min(100, lane.utilization_percent));
  const tick = zoom === 'day' ? HOUR * g.pxPerMs : DAY * g.pxPerMs;
  return (
    <div className="sched-lane" style={{ top: index * g.laneHeight, height: g.laneHeight }} data-lane={lane.key}>
      <div className="sched-lane__label">
        <div className="sched-lane__title">
          <span className="mono cell-strong">{lane.code}</span>
          <span className="sched-lane__name" title={lane.name}>
            {lane.name}
          </span>
        </div>
        <div className="sched-lane__meta">
          <span>{lane.work_center_code ?? (lane.kind === 'printer' ? 'Printer' : 'Resource')}</span>
          <span className="sched-util" title={`${util}% of this window booked`}>
            <span className="sched-util__bar" aria-hidden="true">
              <span style={{ width: `${util}%` }} />
            </span>
            {util}%
          </span>
        </div>
      </div>
      <div className="sched-lane__track" style={{ width: g.width, backgroundSize: `${tick}px 100%` }}>
        {windows.map((w) => (
          <div
            key={w.window.id}
            className="sched-window"
            style={{ left: w.left, width: w.width }}
            title={`Maintenance${w.window.reason ? `: ${w.window.reason}` : ''}, ${clock(Date.parse(w.window.starts_at))}–${clock(Date.parse(w.window.ends_at))}`}
          >
            <span>{w.window.reason ?? 'Maintenance'}</span>
          </div>
        ))}
        {bars.map((b) => (
          <Bar
            key={b.op.id}
            placed={b}
            laneIndex={index}
            g={g}
            laneCodes={laneCodes}
            actions={actions}
            hintId={hintId}
            refusal={refusal?.op.id === b.op.id ? refusal : undefined}
            saving={savingId === b.op.id}
          />
        ))}
      </div>
    </div>
  );
});

interface BarProps {
  placed: PlacedBar;
  laneIndex: number;
  g: Geometry;
  laneCodes: readonly string[];
  actions: BarActions;
  hintId: string;
  refusal: Refusal | undefined;
  saving: boolean;
}

const DRAG_THRESHOLD = 3;

/**
 * One booking. Dragging and keyboard moves live in the bar's own state: only this bar
 * re-renders until the move is dropped (or Enter), when the board saves it.
 */
export const Bar = memo(function Bar({ placed, laneIndex, g, laneCodes, actions, hintId, refusal, saving }: BarProps) {
  const { op, startMs, endMs } = placed;
  const [draft, setDraft] = useState<KeyMove | null>(null);
  const drag = useRef<{ x0: number; y0: number; moving: boolean } | null>(null);
  const length = endMs - startMs;
  const at = draft ?? { startMs, lane: laneIndex };
  const changed = draft !== null && (draft.startMs !== startMs || draft.lane !== laneIndex);

  const commit = (d: KeyMove | null) => {
    setDraft(null);
    if (d && (d.startMs !== startMs || d.lane !== laneIndex)) actions.move(op, laneIndex, d.lane, d.startMs);
  };
  const update = (next: KeyMove) => setDraft((prev) => (prev && prev.startMs === next.startMs && prev.lane === next.lane ? prev : next));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || saving) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { x0: e.clientX, y0: e.clientY, moving: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x0;
    const dy = e.clientY - d.y0;
    if (!d.moving && Math.abs(dx) < DRAG_THRESHOLD && Math.abs(dy) < DRAG_THRESHOLD) return;
    d.moving = true;
    update({ startMs: draggedStart(startMs, dx, g), lane: draggedLane(laneIndex, dy, g) });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    if (!d?.moving) return;
    const dx = e.clientX - d.x0;
    const dy = e.clientY - d.y0;
    commit({ startMs: draggedStart(startMs, dx, g), lane: draggedLane(laneIndex, dy, g) });
  };
  const onPointerCancel = () => {
    drag.current = null;
    setDraft(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (saving) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      commit(draft);
      return;
    }
    if (e.key === 'Escape') {
      if (draft) e.preventDefault();
      setDraft(null);
      if (refusal) actions.dismiss();
      return;
    }
    const next = keyMove(e.key, e.shiftKey, at, g.laneCount);
    if (!next) return;
    e.preventDefault();
    update(next);
  };

  // Drawn inside the window: a booking that starts before it or runs past it is cut at the edge.
  const left = Math.max(0, placed.left);
  const right = Math.min(g.width, placed.left + placed.width);
  const width = Math.max(6, right - left);
  const dx = draft ? timeToX(draft.startMs, g) - timeToX(startMs, g) : 0;
  const dy = draft ? (draft.lane - laneIndex) * g.laneHeight : 0;
  const label = barLabel(op, laneCodes[at.lane] ?? '', at.startMs, at.startMs + length);
  const cls = [
    'sched-bar',
    `sched-bar--${STATUS_CLASS[op.production_order_status] ?? 'released'}`,
    op.late ? 'is-late' : '',
    draft ? 'is-dragging' : '',
    refusal && refusal.tone !== 'warning' ? 'is-refused' : '',
    saving ? 'is-saving' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <>
      <div
        role="button"
        tabIndex={0}
        className={cls}
        data-op={op.id}
        aria-label={label}
        aria-describedby={hintId}
        aria-busy={saving || undefined}
        title={`${op.production_order_code} · ${op.operation_name}\n${op.product_name} × ${Number(op.quantity)}\n${clock(startMs)}–${clock(endMs)}${op.due_date ? `\nDue ${op.due_date}` : ''}${op.late ? ' (late)' : ''}`}
        style={{ left, width, transform: draft ? `translate(${dx}px, ${dy}px)` : undefined }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerCancel}
        onKeyDown={onKeyDown}
        onBlur={() => setDraft(null)}
      >
        {op.late && <AlertTriangle size={12} className="sched-bar__late" aria-label="Late" />}
        <span className="sched-bar__text">
          <span className="sched-bar__order">{op.production_order_code}</span> <span className="sched-bar__op">{op.operation_code}</span>
        </span>
        {changed && (
          <span className="sched-bar__ghost" aria-hidden="true">
            {laneCodes[at.lane]} {clock(at.startMs)}
          </span>
        )}
      </div>
      {refusal && (
        <div className={`sched-callout${refusal.tone === 'warning' ? ' sched-callout--warning' : ''}`} role="alert" style={{ left }}>
          {refusal.tone === 'warning' && <AlertTriangle size={14} className="sched-callout__icon" aria-hidden="true" />}
          <span className="sched-callout__msg">{refusal.message}</span>
          <span className="sched-callout__actions">
            {refusal.nextStart && (
              <Button size="sm" icon={<CalendarClock size={14} />} onClick={() => actions.useNextSlot(refusal)}>
                Use next free slot ({clock(Date.parse(refusal.nextStart))})
              </Button>
            )}
            <button type="button" className="icon-btn icon-btn--sm" aria-label="Dismiss" onClick={actions.dismiss}>
              <X size={14} />
            </button>
          </span>
        </div>
      )}
    </>
  );
});
