import { describe, expect, it } from 'vitest';
import {
  HOUR,
  barLabel,
  draggedLane,
  draggedStart,
  geometry,
  keyMove,
  laneIndexAt,
  layoutLane,
  moveOperation,
  shiftWindow,
  snap,
  timeToX,
  windowStart,
  xToTime,
  type Board,
} from './schedulerApi';
import { lane, op } from './fixtures';

const day = new Date(2026, 2, 4); // Wednesday 4 March 2026, local midnight
const at = (h: number, m = 0) => new Date(2026, 2, 4, h, m).getTime();

describe('the window', () => {
  it('starts a day at local midnight and a week on Monday', () => {
    expect(windowStart(new Date(2026, 2, 4, 15, 30), 'day')).toEqual(day);
    expect(windowStart(new Date(2026, 2, 4, 15, 30), 'week')).toEqual(new Date(2026, 2, 2));
    expect(windowStart(new Date(2026, 2, 8, 23), 'week')).toEqual(new Date(2026, 2, 2)); // Sunday
    expect(shiftWindow(day, 'day', -1)).toEqual(new Date(2026, 2, 3));
    expect(shiftWindow(new Date(2026, 2, 2), 'week', 1)).toEqual(new Date(2026, 2, 9));
  });
});

describe('geometry', () => {
  const g = geometry(day, shiftWindow(day, 'day', 1), 'day', 3);

  it('maps time to x and back, snapping to 15 minutes', () => {
    expect(g.width).toBe(24 * 96);
    expect(timeToX(at(0), g)).toBe(0);
    expect(timeToX(at(8, 30), g)).toBe(8.5 * 96);
    expect(xToTime(8.5 * 96, g)).toBe(at(8, 30));
    // 08:37 snaps to 08:30, 08:38 to 08:45
    expect(xToTime(timeToX(at(8, 37), g), g)).toBe(at(8, 30));
    expect(xToTime(timeToX(at(8, 38), g), g)).toBe(at(8, 45));
    expect(snap(at(8, 7))).toBe(at(8, 0));
    expect(snap(at(8, 8))).toBe(at(8, 15));
  });

  it('finds the lane under y, clamped to the lanes there are', () => {
    expect(laneIndexAt(0, g)).toBe(0);
    expect(laneIndexAt(g.laneHeight - 1, g)).toBe(0);
    expect(laneIndexAt(g.laneHeight, g)).toBe(1);
    expect(laneIndexAt(-40, g)).toBe(0);
    expect(laneIndexAt(10 * g.laneHeight, g)).toBe(2);
    expect(laneIndexAt(10, { laneHeight: 52, laneCount: 0 })).toBe(-1);
  });

  it('turns a drag into a snapped start and a lane', () => {
    const start = at(8);
    expect(draggedStart(start, 96, g)).toBe(at(9));
    expect(draggedStart(start, 20, g)).toBe(at(8, 15)); // 12.5 minutes
    expect(draggedStart(start, -5, g)).toBe(at(8));
    expect(draggedLane(1, 0, g)).toBe(1);
    expect(draggedLane(1, 30, g)).toBe(2);
    expect(draggedLane(1, -20, g)).toBe(1);
    expect(draggedLane(1, -30, g)).toBe(0);
    expect(draggedLane(2, 500, g)).toBe(2);
  });

  it('places bars and windows in one pass; a short booking stays visible', () => {
    const l = lane(1, [op(1, at(8), 70), op(2, at(10), 1)], { windows: [{ id: 9, starts_at: new Date(at(12)).toISOString(), ends_at: new Date(at(14)).toISOString(), reason: 'Nozzle swap', status: 'scheduled' }] });
    const { bars, windows } = layoutLane(l, g);
    expect(bars.map((b) => [b.left, Math.round(b.width)])).toEqual([
      [8 * 96, 112],
      [10 * 96, 6],
    ]);
    expect(windows).toEqual([{ window: l.windows[0], left: 12 * 96, width: 2 * 96 }]);
  });
});

describe('keyboard moves', () => {
  const from = { startMs: at(8), lane: 1 };
  it('moves 15 minutes, an hour with Shift, and lanes up and down within the board', () => {
    expect(keyMove('ArrowRight', false, from, 3)).toEqual({ startMs: at(8, 15), lane: 1 });
    expect(keyMove('ArrowLeft', false, from, 3)).toEqual({ startMs: at(7, 45), lane: 1 });
    expect(keyMove('ArrowRight', true, from, 3)).toEqual({ startMs: at(9), lane: 1 });
    expect(keyMove('ArrowLeft', true, from, 3)).toEqual({ startMs: at(7), lane: 1 });
    expect(keyMove('ArrowUp', false, from, 3)).toEqual({ startMs: at(8), lane: 0 });
    expect(keyMove('ArrowDown', false, from, 3)).toEqual({ startMs: at(8), lane: 2 });
    expect(keyMove('ArrowUp', false, { ...from, lane: 0 }, 3)?.lane).toBe(0);
    expect(keyMove('ArrowDown', false, { ...from, lane: 2 }, 3)?.lane).toBe(2);
    expect(keyMove('a', false, from, 3)).toBeNull();
  });
  it('snaps an off-grid start before moving it', () => {
    expect(keyMove('ArrowRight', false, { startMs: at(8, 5), lane: 0 }, 1)?.startMs).toBe(at(8, 15));
  });
});

describe('moving a booking in the board', () => {
  const a = lane(1, [op(1, at(8), 60), op(2, at(10), 60)]);
  const b = lane(2, [op(3, at(9), 30)]);
  const c = lane(3);
  const board: Board = { start: new Date(at(0)).toISOString(), end: new Date(at(24)).toISOString(), lanes: [a, b, c], unscheduled: [] };

  it('moves it to the lane and time, keeps its length and the untouched lanes', () => {
    const next = moveOperation(board, 2, 'printer-2', at(7));
    expect(next.lanes[0]!.operations.map((o) => o.id)).toEqual([1]);
    expect(next.lanes[1]!.operations.map((o) => o.id)).toEqual([2, 3]);
    expect(next.lanes[1]!.operations[0]!.scheduled_end).toBe(new Date(at(8)).toISOString());
    expect(next.lanes[2]).toBe(c);
  });
  it('moves it in time on its lane', () => {
    const next = moveOperation(board, 1, 'printer-1', at(11, 15));
    expect(next.lanes[0]!.operations.map((o) => [o.id, o.scheduled_start])).toEqual([
      [2, new Date(at(10)).toISOString()],
      [1, new Date(at(11, 15)).toISOString()],
    ]);
    expect(next.lanes[1]).toBe(b);
  });
  it('leaves the board alone for an unknown operation', () => {
    expect(moveOperation(board, 99, 'printer-1', at(1))).toBe(board);
  });
});

describe('words', () => {
  it('labels a bar with its order, operation, machine and times', () => {
    expect(barLabel(op(1, at(8), 70), 'PRT-001', at(8), at(9, 10))).toBe('WO-2026-0001 PRINT on PRT-001, 08:00–09:10');
    expect(HOUR).toBe(3_600_000);
  });
});
