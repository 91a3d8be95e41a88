import type { Decimal } from '../../api/model';
import { toNumber } from '../../lib/format';

/** The fields of an explosion row the tree needs (GET /admin/bom/{id}/explode). */
export interface ExplodedLine {
  level: number;
  line_id: number;
  component_id: number;
  extended_quantity: Decimal;
  inventory_available?: Decimal | null;
}

export interface TreeNode<T> {
  row: T;
  /** `line ids from the root` joined by '/', unique within one explosion. */
  key: string;
  depth: number;
  children: TreeNode<T>[];
}

/**
 * Rebuilds the tree from the depth-first rows: a row's parent is the nearest row above it
 * one level up. A row that skips levels (should not happen) hangs from the deepest open
 * ancestor, so nothing is lost.
 */
export function buildBomTree<T extends { level: number; line_id: number }>(rows: readonly T[]): TreeNode<T>[] {
  const roots: TreeNode<T>[] = [];
  const stack: TreeNode<T>[] = [];
  for (const row of rows) {
    const level = Math.max(1, row.level);
    while (stack.length >= level) stack.pop();
    const parent = stack[stack.length - 1];
    const node: TreeNode<T> = {
      row,
      key: parent ? `${parent.key}/${row.line_id}` : String(row.line_id),
      depth: stack.length,
      children: [],
    };
    (parent ? parent.children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

/** The rows to show: each node, then its children only when its key is expanded. */
export function visibleNodes<T>(roots: readonly TreeNode<T>[], expanded: ReadonlySet<string>): TreeNode<T>[] {
  const out: TreeNode<T>[] = [];
  const walk = (nodes: readonly TreeNode<T>[]) => {
    for (const n of nodes) {
      out.push(n);
      if (n.children.length > 0 && expanded.has(n.key)) walk(n.children);
    }
  };
  walk(roots);
  return out;
}

/** Every key that has children (for "expand all"). */
export function expandableKeys<T>(roots: readonly TreeNode<T>[]): string[] {
  const out: string[] = [];
  const walk = (nodes: readonly TreeNode<T>[]) => {
    for (const n of nodes) {
      if (n.children.length > 0) {
        out.push(n.key);
        walk(n.children);
      }
    }
  };
  walk(roots);
  return out;
}

/** How much is missing for the row's extended quantity (0 when enough is available or unknown). */
export function shortageOf(row: Pick<ExplodedLine, 'extended_quantity' | 'inventory_available'>): number {
  const need = toNumber(row.extended_quantity) ?? 0;
  const have = toNumber(row.inventory_available ?? null);
  if (have === null) return 0;
  return need > have ? Math.round((need - have) * 1000) / 1000 : 0;
}
