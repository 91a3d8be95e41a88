/**
 * The scheduler (issue 32): the Gantt board of `/scheduling/board`, moves
 * (`/production-orders/{order}/operations/{op}/reschedule`), unschedule and the whole-shop
 * auto-schedule. The pure geometry below (time <-> x with 15-minute snapping, lane from y,
 * bar layout, moving a booking in the cached board) is tested on its own in
 * scheduler.test.ts.
 */
import { api } from '../../../api/client';
import type { Api, RequestBody } from '../../../api/model';

export type Board = Api<'/scheduling/board', 'get'>;
export type Lane = Board['lanes'][number];
export type BoardOperation = Lane['operations'][number];
export type MaintenanceWindow = Lane['windows'][number];
export type QueuedOrder = Board['unscheduled'][number];
export type RescheduleRequest = RequestBody<'/production-orders/{order_id}/operations/{op_id}/reschedule', 'post'>;
export type RescheduleResult = Api<'/production-orders/{order_id}/operations/{op_id}/reschedule', 'post'>;
export type UnscheduleResult = Api<'/production-orders/{order_id}/operations/{op_id}/unschedule', 'post'>;
export type AutoScheduleResult = Api<'/scheduling/auto-schedule', 'post'>;
export type AutoScheduledOrder = AutoScheduleResult['orders'][number];

export const schedulerApi = {
  /** At most 92 days; both ends RFC 3339 with `Z`. */
  board: (start: Date, end: Date, signal?: AbortSignal) =>
    api.get<Board>('/scheduling/board', { start_date: start.toISOString(), end_date: end.toISOString() }, signal),
  /** Always 200: a refusal is `success: false` with the reason and the next free slot. */
  reschedule: (orderId: number, opId: number, body: RescheduleRequest) =>
    api.post<RescheduleResult>(`/production-orders/${orderId}/operations/${opId}/reschedule`, body),
  unschedule: (orderId: number, opId: number) => api.post<UnscheduleResult>(`/production-orders/${orderId}/operations/${opId}/unschedule`),
  /** Without `orderId` the whole shop; one order answers 409 with the reason when it cannot be placed. */
  autoSchedule: (opts: { orderId?: number; horizonDays?: number } = {}) =>
    api.post<AutoScheduleResult>('/scheduling/auto-schedule', undefined, { query: { order_id: opts.orderId, horizon_days: opts.horizonDays } }),
};

// ------------------------------------------------------------------------ the window

export type Zoom = 'day' | 'week';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Moves snap to this. */
export const SNAP_MS = 15 * MINUTE;
/** Pixels per hour of each zoom. */
export const HOUR_PX: Record<Zoom, number> = { day: 96, week: 14 };
export const LANE_HEIGHT = 52;

/** The first moment of the window holding `anchor`: local midnight (day) or Monday's (week). */
export function windowStart(anchor: Date, zoom: Zoom): Date {
  const d = new Date(anchor.getFullYear(), anchor.getMonth(), anchor.getDate());
  if (zoom === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d;
}

/** The window after (`step` 1) or before (-1) the one starting at `start`. */
export function shiftWindow(start: Date, zoom: Zoom, step: number): Date {
  const d = new Date(start);
  d.setDate(d.getDate() + step * (zoom === 'week' ? 7 : 1));
  return d;
}

export function windowEnd(start: Date, zoom: Zoom): Date {
  return shiftWindow(start, zoom, 1);
}

/** What the pixels of the board mean: where it starts and how wide an hour is. */
export interface Geometry {
  startMs: number;
  endMs: number;
  pxPerMs: number;
  width: number;
  laneHeight: number;
  laneCount: number;
}

export function geometry(start: Date, end: Date, zoom: Zoom, laneCount: number): Geometry {
  const pxPerMs = HOUR_PX[zoom] / HOUR;
  const startMs = start.getTime();
  const endMs = end.getTime();
  return { startMs, endMs, pxPerMs, width: Math.round((endMs - startMs) * pxPerMs), laneHeight: LANE_HEIGHT, laneCount };
}

/** Rounds a moment to the nearest 15 minutes. */
export const snap = (ms: number, step: number = SNAP_MS) => Math.round(ms / step) * step;

/** The x of a moment (px from the window's start; outside the window is off the board). */
export const timeToX = (ms: number, g: Pick<Geometry, 'startMs' | 'pxPerMs'>) => (ms - g.startMs) * g.pxPerMs;

/** The moment at x, snapped to 15 minutes. */
export const xToTime = (x: number, g: Pick<Geometry, 'startMs' | 'pxPerMs'>, step: number = SNAP_MS) => snap(g.startMs + x / g.pxPerMs, step);

/** The lane under y (px from the first lane's top), clamped to the lanes there are. */
export function laneIndexAt(y: number, g: Pick<Geometry, 'laneHeight' | 'laneCount'>): number {
  if (g.laneCount <= 0) return -1;
  return Math.min(g.laneCount - 1, Math.max(0, Math.floor(y / g.laneHeight)));
}

/** A bar's start after dragging it `dx` pixels: snapped to 15 minutes. */
export const draggedStart = (startMs: number, dx: number, g: Pick<Geometry, 'pxPerMs'>) => snap(startMs + dx / g.pxPerMs);

/** A bar's lane after dragging it `dy` pixels from the middle of lane `from`. */
export const draggedLane = (from: number, dy: number, g: Pick<Geometry, 'laneHeight' | 'laneCount'>) => laneIndexAt(from * g.laneHeight + g.laneHeight / 2 + dy, g);

export interface KeyMove {
  startMs: number;
  lane: number;
}

/**
 * A keyboard move of a bar being placed: Left/Right 15 minutes (Shift: an hour), Up/Down the
 * lane before or after; null for any other key.
 */
export function keyMove(key: string, shift: boolean, at: KeyMove, laneCount: number): KeyMove | null {
  const step = shift ? HOUR : SNAP_MS;
  switch (key) {
    case 'ArrowLeft':
      return { ...at, startMs: snap(at.startMs) - step };
    case 'ArrowRight':
      return { ...at, startMs: snap(at.startMs) + step };
    case 'ArrowUp':
      return { ...at, lane: Math.max(0, at.lane - 1) };
    case 'ArrowDown':
      return { ...at, lane: Math.min(laneCount - 1, at.lane + 1) };
    default:
      return null;
  }
}

/** One bar, placed: left and width in px (at least a sliver, so a short job stays visible). */
export interface PlacedBar {
  op: BoardOperation;
  startMs: number;
  endMs: number;
  left: number;
  width: number;
}

export interface PlacedWindow {
  window: MaintenanceWindow;
  left: number;
  width: number;
}

export const MIN_BAR_PX = 6;

/** A lane's bars and maintenance windows in px, in one pass over each. */
export function layoutLane(lane: Pick<Lane, 'operations' | 'windows'>, g: Pick<Geometry, 'startMs' | 'pxPerMs'>): { bars: PlacedBar[]; windows: PlacedWindow[] } {
  const bars = lane.operations.map((op) => {
    const startMs = Date.parse(op.scheduled_start);
    const endMs = Date.parse(op.scheduled_end);
    const left = timeToX(startMs, g);
    return { op, startMs, endMs, left, width: Math.max(MIN_BAR_PX, timeToX(endMs, g) - left) };
  });
  const windows = lane.windows.map((w) => {
    const left = timeToX(Date.parse(w.starts_at), g);
    return { window: w, left, width: Math.max(2, timeToX(Date.parse(w.ends_at), g) - left) };
  });
  return { bars, windows };
}

/**
 * The board with operation `opId` moved to lane `toKey` at `startMs` (its length kept). Lanes
 * it does not touch keep their identity, so their memoised rows do not re-render.
 */
export function moveOperation(board: Board, opId: number, toKey: string, startMs: number): Board {
  let moved: BoardOperation | undefined;
  for (const lane of board.lanes) {
    moved = lane.operations.find((o) => o.id === opId);
    if (moved) break;
  }
  if (!moved) return board;
  const length = Date.parse(moved.scheduled_end) - Date.parse(moved.scheduled_start);
  const next: BoardOperation = { ...moved, scheduled_start: new Date(startMs).toISOString(), scheduled_end: new Date(startMs + length).toISOString() };
  const lanes = board.lanes.map((lane) => {
    const has = lane.operations.some((o) => o.id === opId);
    if (!has && lane.key !== toKey) return lane;
    const kept = lane.operations.filter((o) => o.id !== opId);
    const ops = lane.key === toKey ? [...kept, next].sort((a, b) => Date.parse(a.scheduled_start) - Date.parse(b.scheduled_start)) : kept;
    return { ...lane, operations: ops };
  });
  return { ...board, lanes };
}

// ------------------------------------------------------------------------ words

const two = (n: number) => String(n).padStart(2, '0');
/** `08:00` in local time. */
export const clock = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}`;
};

/** "WO-2026-0001 print on PRT-001, 08:00–09:10". */
export const barLabel = (op: Pick<BoardOperation, 'production_order_code' | 'operation_code'>, laneCode: string, startMs: number, endMs: number) =>
  `${op.production_order_code} ${op.operation_code} on ${laneCode}, ${clock(startMs)}–${clock(endMs)}`;

export const dayLabel = (ms: number, opts: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' }) =>
  new Date(ms).toLocaleDateString(undefined, opts);

/** The bar colours: one class per production order status. */
export const STATUS_CLASS: Record<BoardOperation['production_order_status'], string> = {
  draft: 'draft',
  released: 'released',
  in_progress: 'running',
  on_hold: 'hold',
  short: 'hold',
  complete: 'done',
  cancelled: 'done',
  split: 'done',
  scrapped: 'done',
};
