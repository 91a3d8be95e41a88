import { humanize } from '../../lib/format';
import type { TraceEdge, TraceNode } from './traceApi';
import { NODE_H, NODE_W, layoutTrace } from './traceLayout';

/** Kinds a user can trace from by clicking (they have numbers the search box accepts). */
const TRACEABLE = new Set(['material_lot', 'spool', 'serial_number', 'production_order', 'sales_order', 'purchase_order']);

/** Text cut to `max` characters with an ellipsis, so it stays inside its box. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

interface TraceGraphProps {
  nodes: readonly TraceNode[];
  edges: readonly TraceEdge[];
  /** Called with a node's number when the user picks it to trace from. */
  onPick?: (node: TraceNode) => void;
}

/** The genealogy as a left-to-right graph: one column per stage, links between them. */
export function TraceGraph({ nodes, edges, onPick }: TraceGraphProps) {
  const layout = layoutTrace(nodes, edges);
  return (
    <div className="trace-graph" role="region" aria-label="Trace graph">
      <svg width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} role="img" aria-label={`${nodes.length} records, ${edges.length} links`}>
        {layout.columns.map((c) => (
          <text key={c.stage} x={c.x} y={20} className="trace-graph__column">
            {c.label} ({c.count})
          </text>
        ))}
        {layout.links.map((l) => (
          <path key={l.key} d={l.d} className={`trace-graph__link trace-graph__link--${l.edge.relation.toLowerCase()}`}>
            <title>
              {humanize(l.edge.relation.toLowerCase())}
              {l.edge.quantity != null ? ` · ${Number(l.edge.quantity)} ${l.edge.unit ?? ''}` : ''}
            </title>
          </path>
        ))}
        {layout.nodes.map(({ node, x, y }) => {
          const pickable = Boolean(onPick) && TRACEABLE.has(node.kind) && !node.is_start;
          return (
            <g
              key={node.key}
              transform={`translate(${x},${y})`}
              className={`trace-node trace-node--${node.kind}${node.is_start ? ' trace-node--start' : ''}${pickable ? ' trace-node--pick' : ''}`}
              data-kind={node.kind}
              data-code={node.code}
              {...(pickable
                ? {
                    role: 'button',
                    tabIndex: 0,
                    'aria-label': `Trace ${humanize(node.kind)} ${node.code}`,
                    onClick: () => onPick?.(node),
                    onKeyDown: (e: React.KeyboardEvent) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        onPick?.(node);
                      }
                    },
                  }
                : {})}
            >
              <rect width={NODE_W} height={NODE_H} rx={8} />
              <text x={10} y={19} className="trace-node__code">
                {clip(node.code, 24)}
              </text>
              <text x={10} y={36} className="trace-node__meta">
                {clip([node.name, node.status ? humanize(node.status) : null].filter(Boolean).join(' · '), 27)}
              </text>
            </g>
          );
        })}
        {layout.more.map((m) => (
          <g key={`more-${m.stage}`} transform={`translate(${m.x},${m.y})`} className="trace-node trace-node--more">
            <rect width={NODE_W} height={NODE_H} rx={8} />
            <text x={10} y={28} className="trace-node__code">
              +{m.count} more
            </text>
          </g>
        ))}
      </svg>
    </div>
  );
}
