/**
 * Estimated against actual cost as grouped bars, one group per figure (material, machine &
 * labour, total). Loaded on demand (recharts is large); it draws `costRows` and holds no logic.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { displayCurrency, displayLocale, formatMoney } from '../../lib/format';
import { COST_COLORS } from './costColors';
import type { CostRow } from './orderInsights';

const AXIS_TICK = { fontSize: 12, fill: '#64748b' };
const compact = {
  format: (n: number) =>
    new Intl.NumberFormat(displayLocale(), { style: 'currency', currency: displayCurrency(), notation: 'compact', maximumFractionDigits: 1 }).format(n),
};

function RowTooltip({ row }: { row: CostRow }) {
  return (
    <div className="plan-tooltip">
      <div className="plan-tooltip__title">{row.label}</div>
      <div className="plan-tooltip__row">
        <span className="plan-swatch" style={{ background: COST_COLORS.estimated }} aria-hidden="true" />
        <span>Estimated</span>
        <strong className="num">{formatMoney(row.estimated)}</strong>
      </div>
      <div className="plan-tooltip__row">
        <span className="plan-swatch" style={{ background: COST_COLORS.actual }} aria-hidden="true" />
        <span>Actual</span>
        <strong className="num">{formatMoney(row.actual)}</strong>
      </div>
    </div>
  );
}

export default function CostChart({ rows, label }: { rows: CostRow[]; label: string }) {
  return (
    <div className="cost-chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 12, right: 8, left: 0, bottom: 0 }} barCategoryGap="28%" barGap={4}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} />
          <YAxis tick={AXIS_TICK} tickLine={false} axisLine={false} width={64} tickFormatter={(n: number) => compact.format(n)} />
          <Tooltip
            cursor={{ fill: '#f1f5f9' }}
            content={({ active, payload }) => {
              const r = active ? (payload?.[0]?.payload as CostRow | undefined) : undefined;
              return r ? <RowTooltip row={r} /> : null;
            }}
          />
          <Bar dataKey="estimated" name="Estimated" fill={COST_COLORS.estimated} radius={[4, 4, 0, 0]} maxBarSize={56} isAnimationActive={false} />
          <Bar dataKey="actual" name="Actual" fill={COST_COLORS.actual} radius={[4, 4, 0, 0]} maxBarSize={56} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
