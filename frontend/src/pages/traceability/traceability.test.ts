import { describe, expect, it } from 'vitest';
import { toCsv } from '../../lib/csv';
import { customerRows, parseNumbers, type TraceEdge, type TraceNode } from './traceApi';
import { MAX_PER_COLUMN, NODE_W, layoutTrace } from './traceLayout';

const node = (kind: string, id: number, stage: number, extra: Partial<TraceNode> = {}): TraceNode =>
  ({ key: `${kind}:${id}`, kind, id, code: `${kind}-${id}`, name: null, status: null, at: null, stage, is_start: false, ...extra }) as TraceNode;
const edge = (from: string, to: string): TraceEdge => ({ from, to, relation: 'CONSUMED_BY', quantity: '100', unit: 'G' }) as TraceEdge;

describe('trace layout', () => {
  it('puts one column per stage, left to right, start nodes first', () => {
    const nodes = [node('production_order', 2, 4), node('spool', 1, 3, { is_start: true }), node('production_order', 1, 4, { is_start: false })];
    const l = layoutTrace(nodes, [edge('spool:1', 'production_order:2'), edge('spool:1', 'production_order:1')]);
    expect(l.columns.map((c) => c.label)).toEqual(['Spools', 'Work orders']);
    const spool = l.nodes.find((n) => n.node.key === 'spool:1')!;
    const wo = l.nodes.find((n) => n.node.key === 'production_order:2')!;
    expect(wo.x).toBeGreaterThan(spool.x + NODE_W);
    expect(l.links).toHaveLength(2);
    expect(l.links[0]!.d.startsWith(`M${spool.x + NODE_W},`)).toBe(true);
  });

  it('folds a long column into "+N more" and drops links to folded nodes', () => {
    const units = Array.from({ length: MAX_PER_COLUMN + 5 }, (_, i) => node('serial_number', i, 5));
    const l = layoutTrace([node('production_order', 1, 4, { is_start: true }), ...units], units.map((u) => edge('production_order:1', u.key)));
    expect(l.more).toEqual([expect.objectContaining({ stage: 5, count: 5 })]);
    expect(l.links).toHaveLength(MAX_PER_COLUMN);
    expect(l.columns[1]).toMatchObject({ count: MAX_PER_COLUMN + 5, hidden: 5 });
  });

  it('has a size even when empty', () => {
    const l = layoutTrace([], []);
    expect(l.width).toBeGreaterThan(0);
    expect(l.nodes).toEqual([]);
  });
});

describe('recall input and exports', () => {
  it('reads numbers one per line or comma separated, once each ignoring case', () => {
    expect(parseNumbers(' LOT-A,lot-a\nSP-1;  SP-2 \n\n')).toEqual(['LOT-A', 'SP-1', 'SP-2']);
    expect(parseNumbers('   ')).toEqual([]);
  });

  it('writes customers as CSV with quoting', () => {
    const csv = toCsv(customerRows([{ id: 1, name: 'Ada, Inc.', email: 'a@x.test', order_numbers: ['SO-1', 'SO-2'] }]));
    expect(csv).toBe('Customer,Email,Orders\r\n"Ada, Inc.",a@x.test,SO-1 SO-2\r\n');
  });
});
