import { describe, expect, it } from 'vitest';
import { buildBomTree, expandableKeys, shortageOf, visibleNodes } from './bomTree';

// The widget of tests/bom.rs: 2 brackets (each 10 G of PLA), PLA, a box.
const rows = [
  { level: 1, line_id: 11, component_id: 2, sku: 'BRACKET', extended_quantity: '6', inventory_available: '0' },
  { level: 2, line_id: 21, component_id: 3, sku: 'PLA-BLK', extended_quantity: '60', inventory_available: '1000' },
  { level: 1, line_id: 12, component_id: 3, sku: 'PLA-BLK', extended_quantity: '165', inventory_available: '1000' },
  { level: 1, line_id: 13, component_id: 4, sku: 'BOX-S', extended_quantity: '3', inventory_available: '1' },
];

describe('buildBomTree', () => {
  it('nests depth-first rows under the nearest row one level up', () => {
    const tree = buildBomTree(rows);
    expect(tree.map((n) => n.row.sku)).toEqual(['BRACKET', 'PLA-BLK', 'BOX-S']);
    expect(tree[0]!.children.map((n) => n.row.sku)).toEqual(['PLA-BLK']);
    expect(tree[0]!.children[0]!.depth).toBe(1);
    expect(tree[0]!.children[0]!.key).toBe('11/21');
    expect(tree[1]!.children).toEqual([]);
  });

  it('handles three levels and going back up more than one level', () => {
    const tree = buildBomTree([
      { level: 1, line_id: 1 },
      { level: 2, line_id: 2 },
      { level: 3, line_id: 3 },
      { level: 1, line_id: 4 },
    ]);
    expect(tree).toHaveLength(2);
    expect(tree[0]!.children[0]!.children[0]!.key).toBe('1/2/3');
    expect(tree[1]!.key).toBe('4');
  });

  it('keeps a row that skips a level under the deepest open ancestor', () => {
    const tree = buildBomTree([
      { level: 1, line_id: 1 },
      { level: 3, line_id: 3 },
    ]);
    expect(tree[0]!.children[0]!.key).toBe('1/3');
  });

  it('shows children only when their parent is expanded', () => {
    const tree = buildBomTree(rows);
    expect(visibleNodes(tree, new Set()).map((n) => n.key)).toEqual(['11', '12', '13']);
    expect(visibleNodes(tree, new Set(['11'])).map((n) => n.key)).toEqual(['11', '11/21', '12', '13']);
    expect(expandableKeys(tree)).toEqual(['11']);
  });

  it('computes the shortage against the available stock', () => {
    expect(shortageOf(rows[0]!)).toBe(6);
    expect(shortageOf(rows[1]!)).toBe(0);
    expect(shortageOf(rows[3]!)).toBe(2);
    expect(shortageOf({ extended_quantity: '5', inventory_available: null })).toBe(0);
  });
});
