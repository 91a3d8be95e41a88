/**
 * The dashboard's charts (recharts; loaded on demand because recharts is large). They draw
 * rows already shaped by dashboardData.ts and hold no logic of their own.
 */
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/format';
import { COLORS } from './dashboardColors';
import { compactMoney, formatDay, plural, pointTitle, type SalesPoint, type StateSlice } from './dashboardData';


const AXIS_TICK = { fontSize: 11, fill: '#64748b' };
const GRID = '#e2e8f0';

interface TooltipRow {
  label: string;
  value: string;
  color?: string;
}

function TooltipBox({ title, rows }: { title: string; rows: TooltipRow[] }) {
  return (
    <div className="dash-tooltip">
      <div className="dash-tooltip__title">{title}</div>
      {rows.map((r) => (
        <div key={r.label} className="dash-tooltip__row">
          {r.color && <span className="dash-swatch" style={{ background: r.color }} aria-hidden="true" />}
          <span>{r.label}</span>
          <strong className="num">{r.value}</strong>
        </div>
      ))}
    </div>
  );
}

/** The tooltip's payload row (recharts hands the whole data point over). */
function pointOf<T>(payload: readonly { payload?: unknown }[] | undefined): T | null {
  const first = payload?.[0]?.payload;
  return first ? (first as T) : null;
}

/** The chart's box: a fixed height, or with `grow` at least that and whatever the card has spare. */
function ChartFrame({ label, height, grow, children }: { label: string; height: number; grow?: boolean; children: ReactNode }) {
  const chart = (
    <ResponsiveContainer width="100%" height="100%">
      {children}
    </ResponsiveContainer>
  );
  if (grow) {
    return (
      <div className="dash-chart dash-chart--grow" role="img" aria-label={label} style={{ minHeight: height }}>
        <div className="dash-chart__fill">{chart}</div>
      </div>
    );
  }
  return (
    <div className="dash-chart" role="img" aria-label={label} style={{ height }}>
      {chart}
    </div>
  );
}

/** Sales (bars) and payments received per day or week. */
export function SalesChart({ data, label }: { data: SalesPoint[]; label: string }) {
  const gap = data.length > 40 ? 1 : 4;
  return (
    <ChartFrame label={label} height={260} grow>
      <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }} barGap={gap > 1 ? 2 : 0} barCategoryGap={gap > 1 ? '22%' : '12%'}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={GRID} />
        <XAxis dataKey="date" tickFormatter={formatDay} tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} minTickGap={24} />
        <YAxis tickFormatter={compactMoney} tick={AXIS_TICK} tickLine={false} axisLine={false} width={56} allowDecimals={false} />
        <Tooltip
          cursor={{ fill: '#f1f5f9' }}
          content={({ active, payload }) => {
            const p = active ? pointOf<SalesPoint>(payload) : null;
            if (!p) return null;
            return (
              <TooltipBox
                title={pointTitle(p)}
                rows={[
                  { label: `Sales (${plural(p.orders, 'order')})`, value: formatMoney(p.sales), color: COLORS.sales },
                  { label: 'Payments', value: formatMoney(p.payments), color: COLORS.payments },
                ]}
              />
            );
          }}
        />
        <Bar dataKey="sales" name="Sales" fill={COLORS.sales} radius={[3, 3, 0, 0]} maxBarSize={28} isAnimationActive={false} />
        <Bar dataKey="payments" name="Payments" fill={COLORS.payments} radius={[3, 3, 0, 0]} maxBarSize={28} isAnimationActive={false} />
      </BarChart>
    </ChartFrame>
  );
}

export interface MiniSeries {
  key: string;
  label: string;
  color: string;
}

/** A point of a small chart: its x value, its tooltip title, one number per series. */
export interface MiniPoint {
  x: string;
  title: string;
  values: Record<string, number>;
}

interface MiniBarChartProps {
  data: MiniPoint[];
  series: MiniSeries[];
  /** How the x axis shows a point's `x`. */
  xFormat: (value: string) => string;
  /** How a value reads (axis and tooltip). */
  format: (n: number) => string;
  axisFormat?: (n: number) => string;
  stacked?: boolean;
  label: string;
}

/** A small bar chart (production, shipping, purchasing). */
export function MiniBarChart({ data, series, xFormat, format, axisFormat, stacked, label }: MiniBarChartProps) {
  return (
    <ChartFrame label={label} height={170}>
      <BarChart data={data} margin={{ top: 6, right: 4, left: 0, bottom: 0 }} barCategoryGap="18%">
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={GRID} />
        <XAxis dataKey="x" tickFormatter={(v) => xFormat(String(v))} tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} minTickGap={18} />
        <YAxis tickFormatter={(n: number) => (axisFormat ?? format)(n)} tick={AXIS_TICK} tickLine={false} axisLine={false} width={44} allowDecimals={false} />
        <Tooltip
          cursor={{ fill: '#f1f5f9' }}
          content={({ active, payload }) => {
            const p = active ? pointOf<MiniPoint>(payload) : null;
            if (!p) return null;
            return <TooltipBox title={p.title} rows={series.map((s) => ({ label: s.label, value: format(p.values[s.key] ?? 0), color: s.color }))} />;
          }}
        />
        {series.map((s, i) => (
          <Bar
            key={s.key}
            dataKey={(p: MiniPoint) => p.values[s.key] ?? 0}
            name={s.label}
            fill={s.color}
            stackId={stacked ? 'stack' : undefined}
            radius={!stacked || i === series.length - 1 ? [3, 3, 0, 0] : 0}
            maxBarSize={22}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}

/** Open orders by state as a ring, the total in the middle. */
export function OrdersDonut({ slices, total }: { slices: StateSlice[]; total: number }) {
  const shown = slices.filter((s) => s.value > 0);
  return (
    <div className="dash-donut">
      <ChartFrame label={`${plural(total, 'open order')}: ${slices.map((s) => `${s.label} ${s.value}`).join(', ')}`} height={150}>
        <PieChart>
          <Pie
            data={shown.length ? shown : [{ key: 'none', label: 'None', value: 1, color: '#e2e8f0' }]}
            dataKey="value"
            nameKey="label"
            innerRadius={48}
            outerRadius={70}
            paddingAngle={shown.length > 1 ? 2 : 0}
            stroke="none"
            isAnimationActive={false}
          >
            {(shown.length ? shown : [{ key: 'none', color: '#e2e8f0' }]).map((s) => (
              <Cell key={s.key} fill={s.color} />
            ))}
          </Pie>
          {shown.length > 0 && (
            <Tooltip
              content={({ active, payload }) => {
                const s = active ? pointOf<StateSlice>(payload) : null;
                return s ? <TooltipBox title={s.label} rows={[{ label: 'Orders', value: String(s.value), color: s.color }]} /> : null;
              }}
            />
          )}
        </PieChart>
      </ChartFrame>
      <div className="dash-donut__center" aria-hidden="true">
        <strong className="num">{total}</strong>
        <span>open</span>
      </div>
    </div>
  );
}
