/**
 * The order page's cost, availability and compatibility views, as plain data: what the Cost
 * tab charts and tabulates, how availability lines group by operation, and which printer
 * findings block a start. The components draw these and hold no rules of their own.
 */
import { toNumber } from '../../lib/format';
import type { AvailabilityLine, AvailabilityStatus, CompatibilityIssue, CostBreakdown, OrderCompatibility, Tone } from './productionApi';

export type CostKey = 'material' | 'labor' | 'total';

/** One row of the cost table and one group of the chart. */
export interface CostRow {
  key: CostKey;
  label: string;
  estimated: number;
  actual: number;
  /** Actual minus estimate: positive is over the estimate. */
  variance: number;
  /** The variance as a share of the estimate, in %; null when nothing was estimated. */
  percent: number | null;
}

/** The labour figure is the work centers' hourly rate: machine time and the people at it. */
export const COST_LABELS: Record<CostKey, string> = { material: 'Material', labor: 'Machine & labour', total: 'Total' };

const num = (v: string | number | null | undefined) => toNumber(v) ?? 0;
const cents = (n: number) => Math.round(n * 100) / 100;

function costRow(b: CostBreakdown, key: CostKey): CostRow {
  const estimated = num(b.estimated[key]);
  const actual = num(b.actual[key]);
  const variance = cents(num(b.variance[key]));
  return { key, label: COST_LABELS[key], estimated, actual, variance, percent: estimated !== 0 ? (variance / estimated) * 100 : null };
}

/** Material, machine & labour, and the total, in that order. */
export function costRows(b: CostBreakdown): [CostRow, CostRow, CostRow] {
  return [costRow(b, 'material'), costRow(b, 'labor'), costRow(b, 'total')];
}

/**
 * No line to cost and nothing spent (a draft: its materials and operations come on release):
 * the tab shows its empty state. A stored estimate alone is no comparison (there is nothing
 * actual to set against it), so the empty state mentions it instead.
 */
export function costIsEmpty(b: CostBreakdown): boolean {
  return b.material_costs.length === 0 && b.labor_costs.length === 0 && num(b.actual.total) === 0;
}

/** Over the estimate is red, under it green, on it neutral. */
export function varianceTone(variance: number): 'over' | 'under' | 'even' {
  return variance > 0 ? 'over' : variance < 0 ? 'under' : 'even';
}

const pct = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
export function formatPercent(p: number | null): string {
  // A true minus sign, like the amounts beside it.
  return p === null ? '—' : `${pct.format(p).replace('-', '−')} %`;
}

export const AVAILABILITY_TONE: Record<AvailabilityStatus, Tone> = { ok: 'success', incoming: 'info', short: 'danger' };
export const AVAILABILITY_LABEL: Record<AvailabilityStatus, string> = { ok: 'Available', incoming: 'Incoming', short: 'Short' };

export interface AvailabilityGroup {
  /** The operation's id, or null for lines no operation consumes. */
  operationId: number | null;
  title: string;
  lines: AvailabilityLine[];
}

/** The lines by the operation that consumes them, in the order the operations first appear. */
export function availabilityByOperation(lines: readonly AvailabilityLine[]): AvailabilityGroup[] {
  const groups = new Map<number | null, AvailabilityGroup>();
  for (const l of lines) {
    const k = l.operation_id ?? null;
    let g = groups.get(k);
    if (!g) {
      g = { operationId: k, title: l.operation_name ?? (k === null ? 'Whole order' : `Operation #${k}`), lines: [] };
      groups.set(k, g);
    }
    g.lines.push(l);
  }
  // Lines of no operation (a BOM without a routing) last.
  return [...groups.values()].sort((a, b) => Number(a.operationId === null) - Number(b.operationId === null));
}

/** Every finding of an order, errors first. */
export function compatibilityIssues(c: OrderCompatibility): (CompatibilityIssue & { operation: string })[] {
  return c.operations
    .flatMap((o) => o.issues.map((i) => ({ ...i, operation: o.operation_name })))
    .sort((a, b) => Number(a.severity !== 'error') - Number(b.severity !== 'error'));
}

/**
 * The check answers "Compatible" or its reasons joined by "; ", one line each. A reason may
 * hold "; " itself ("PC needs a 300 °C nozzle; this printer reaches 260 °C"): a part about
 * "this printer" belongs to the reason before it.
 */
export function checkReasons(reason: string): string[] {
  const out: string[] = [];
  for (const part of reason.split(';').map((r) => r.trim())) {
    if (!part) continue;
    const last = out.length - 1;
    if (last >= 0 && /^(this printer|check that)\b/i.test(part)) out[last] = `${out[last]}; ${part}`;
    else out.push(part);
  }
  return out;
}
