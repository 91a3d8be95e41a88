/**
 * The quality dashboard's charts (recharts, loaded on demand): the daily first-pass yield
 * over the scrap cost, and scrap cost by reason.
 */
import { Bar, BarChart, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/format';
import { QUALITY_COLORS, shortDay, type ScrapByReason, type TrendDay } from './qualityDashboard';

const AXIS_TICK = { fontSize: 11, fill: '#64748b' };
const GRID = '#e2e8f0';

function Box({ title, rows }: { title: string; rows: { label: string; value: string; color: string }[] }) {
  return (
    <div className="dash-tooltip">
      <div className="dash-tooltip__title">{title}</div>
      {rows.map((r) => (
        <div key={r.label} className="dash-tooltip__row">
          <span className="dash-swatch" style={{ background: r.color }} aria-hidden="true" />
          <span>{r.label}</span>
          <strong className="num">{r.value}</strong>
        </div>
      ))}
    </div>
  );
}

const compact = (n: number) => (n >= 1000 ? `$${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : `$${Math.round(n)}`);

/** First-pass yield per day (line, left axis, %) over the scrap cost per day (bars, right axis). */
export function TrendChart({ data, label }: { data: TrendDay[]; label: string }) {
  return (
    <div className="qd-chart" role="img" aria-label={label} style={{ height: 260 }}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={GRID} />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} minTickGap={24} />
          <YAxis yAxisId="yield" domain={[0, 100]} tickFormatter={(v: number) => `${v}%`} tick={AXIS_TICK} tickLine={false} axisLine={false} width={44} />
          <YAxis yAxisId="cost" orientation="right" tickFormatter={compact} tick={AXIS_TICK} tickLine={false} axisLine={false} width={52} allowDecimals={false} />
          <Tooltip
            cursor={{ fill: '#f1f5f9' }}
            content={({ active, payload }) => {
              const p = active ? (payload?.[0]?.payload as TrendDay | undefined) : undefined;
              if (!p) return null;
              return (
                <Box
                  title={shortDay(p.day)}
                  rows={[
                    { label: 'First-pass yield', value: p.first_pass_yield === null ? '—' : `${p.first_pass_yield}%`, color: QUALITY_COLORS.yield },
                    { label: 'Inspections', value: String(p.inspections), color: QUALITY_COLORS.inspections },
                    { label: 'Scrap cost', value: formatMoney(p.scrap_cost), color: QUALITY_COLORS.scrap },
                  ]}
                />
              );
            }}
          />
          <Bar yAxisId="cost" dataKey="scrap_cost" name="Scrap cost" fill={QUALITY_COLORS.scrap} radius={[3, 3, 0, 0]} maxBarSize={28} isAnimationActive={false} />
          <Line yAxisId="yield" type="monotone" dataKey="first_pass_yield" name="First-pass yield" stroke={QUALITY_COLORS.yield} strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Scrap cost by reason, costliest first (horizontal bars). */
export function ScrapChart({ data, label }: { data: ScrapByReason[]; label: string }) {
  const height = Math.max(220, data.length * 40 + 30);
  return (
    <div className="qd-chart" role="img" aria-label={label} style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke={GRID} />
          <XAxis type="number" tickFormatter={compact} tick={AXIS_TICK} tickLine={false} axisLine={false} allowDecimals={false} />
          <YAxis type="category" dataKey="reason_name" tick={AXIS_TICK} tickLine={false} axisLine={false} width={120} />
          <Tooltip
            cursor={{ fill: '#f1f5f9' }}
            content={({ active, payload }) => {
              const p = active ? (payload?.[0]?.payload as ScrapByReason | undefined) : undefined;
              if (!p) return null;
              return (
                <Box
                  title={p.reason_name}
                  rows={[
                    { label: 'Cost', value: formatMoney(p.total_cost), color: QUALITY_COLORS.scrap },
                    { label: 'Units', value: String(p.total_quantity), color: QUALITY_COLORS.inspections },
                    { label: 'Records', value: String(p.count), color: QUALITY_COLORS.inspections },
                  ]}
                />
              );
            }}
          />
          <Bar dataKey="total_cost" name="Scrap cost" fill={QUALITY_COLORS.scrap} radius={[0, 3, 3, 0]} maxBarSize={24} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
