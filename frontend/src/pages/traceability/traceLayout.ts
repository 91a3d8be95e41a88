/** Lays a trace out as columns from raw material (left) to customer (right). */
import type { TraceEdge, TraceNode } from './traceApi';

export const NODE_W = 184;
export const NODE_H = 46;
const COL_GAP = 64;
const ROW_GAP = 10;
const PAD = 12;
/** Nodes shown per column before the rest fold into one "+N more" box. */
export const MAX_PER_COLUMN = 20;

export const STAGE_LABELS = ['Vendors', 'Purchase orders', 'Lots', 'Spools', 'Work orders', 'Units', 'Sales orders', 'Customers'];

export interface PlacedNode {
  node: TraceNode;
  x: number;
  y: number;
}

export interface Column {
  stage: number;
  label: string;
  x: number;
  count: number;
  hidden: number;
}

export interface Layout {
  width: number;
  height: number;
  columns: Column[];
  nodes: PlacedNode[];
  /** Drawn links (both ends shown), as SVG path data. */
  links: { key: string; d: string; edge: TraceEdge }[];
  /** The folded boxes: where they sit and how many they hold. */
  more: { stage: number; x: number; y: number; count: number }[];
}

export function layoutTrace(nodes: readonly TraceNode[], edges: readonly TraceEdge[]): Layout {
  const stages = [...new Set(nodes.map((n) => n.stage))].sort((a, b) => a - b);
  const columns: Column[] = [];
  const placed = new Map<string, PlacedNode>();
  const more: Layout['more'] = [];
  let tallest = 0;
  stages.forEach((stage, i) => {
    const x = PAD + i * (NODE_W + COL_GAP);
    const inStage = nodes.filter((n) => n.stage === stage);
    // Start nodes first, then as the server ordered them (by number).
    const ordered = [...inStage.filter((n) => n.is_start), ...inStage.filter((n) => !n.is_start)];
    const shown = ordered.slice(0, MAX_PER_COLUMN);
    shown.forEach((node, row) => placed.set(node.key, { node, x, y: PAD + 24 + row * (NODE_H + ROW_GAP) }));
    const hidden = ordered.length - shown.length;
    let rows = shown.length;
    if (hidden > 0) {
      more.push({ stage, x, y: PAD + 24 + rows * (NODE_H + ROW_GAP), count: hidden });
      rows += 1;
    }
    tallest = Math.max(tallest, rows);
    columns.push({ stage, label: STAGE_LABELS[stage] ?? `Stage ${stage}`, x, count: inStage.length, hidden });
  });
  const links = edges.flatMap((edge) => {
    const a = placed.get(edge.from);
    const b = placed.get(edge.to);
    if (!a || !b) return [];
    const x1 = a.x + NODE_W;
    const y1 = a.y + NODE_H / 2;
    const x2 = b.x;
    const y2 = b.y + NODE_H / 2;
    // Links within a column (a split order) bow out to the right.
    const d =
      x2 > x1
        ? `M${x1},${y1} C${x1 + COL_GAP / 2},${y1} ${x2 - COL_GAP / 2},${y2} ${x2},${y2}`
        : `M${x1},${y1} C${x1 + COL_GAP / 2},${y1} ${x1 + COL_GAP / 2},${y2 + NODE_H / 2} ${b.x + NODE_W},${y2}`;
    return [{ key: `${edge.from}>${edge.to}`, d, edge }];
  });
  return {
    width: PAD * 2 + Math.max(1, stages.length) * NODE_W + Math.max(0, stages.length - 1) * COL_GAP,
    height: PAD * 2 + 24 + tallest * (NODE_H + ROW_GAP),
    columns,
    nodes: [...placed.values()],
    links,
    more,
  };
}
