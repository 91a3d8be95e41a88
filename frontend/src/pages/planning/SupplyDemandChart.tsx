/**
 * An item's projected balance over time (recharts; loaded on demand because recharts is
 * large): the balance as a step line, supply and demand as bars above and below the axis,
 * the safety stock and the first shortage as reference lines. It draws the series that
 * `supplyDemandSeries` shaped and holds no logic of its own.
 */
import { Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatQty } from '../../lib/format';
import { formatDay } from '../dashboard/dashboardData';
import { CHART_COLORS } from './chartColors';
import type { SupplyDemandPoint } from './planningApi';

const AXIS_TICK = { fontSize: 11, fill: '#64748b' };
const qty = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

interface ChartProps {
  series: SupplyDemandPoint[];
  safetyStock: number;
  shortageDate: string | null;
  /** The chart's accessible description. */
  label: string;
}

function PointTooltip({ point }: { point: SupplyDemandPoint }) {
  return (
    <div className="plan-tooltip">
      <div className="plan-tooltip__title">
        {formatDay(point.date)}, {point.date.slice(0, 4)}
      </div>
      <div className="plan-tooltip__row">
        <span className="plan-swatch" style={{ background: CHART_COLORS.balance }} aria-hidden="true" />
        <span>Projected balance</span>
        <strong className="num">{formatQty(point.balance)}</strong>
      </div>
      {point.supply > 0 && (
        <div className="plan-tooltip__row">
          <span className="plan-swatch" style={{ background: CHART_COLORS.supply }} aria-hidden="true" />
          <span>Supply</span>
          <strong className="num">+{formatQty(point.supply)}</strong>
        </div>
      )}
      {point.demand < 0 && (
        <div className="plan-tooltip__row">
          <span className="plan-swatch" style={{ background: CHART_COLORS.demand }} aria-hidden="true" />
          <span>Demand{point.overdue ? ' (incl. overdue)' : ''}</span>
          <strong className="num">{formatQty(point.demand)}</strong>
        </div>
      )}
      {point.sources.length > 0 && <div className="plan-tooltip__sources">{point.sources.join(', ')}</div>}
    </div>
  );
}

export default function SupplyDemandChart({ series, safetyStock, shortageDate, label }: ChartProps) {
  const inWindow = shortageDate !== null && series.some((p) => p.date === shortageDate);
  return (
    <div className="plan-chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={series} margin={{ top: 20, right: 16, left: 0, bottom: 0 }} stackOffset="sign" barCategoryGap="20%">
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="date" tickFormatter={formatDay} tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} minTickGap={28} />
          <YAxis tick={AXIS_TICK} tickLine={false} axisLine={false} width={52} tickFormatter={(n: number) => qty.format(n)} />
          <Tooltip
            cursor={{ fill: '#f1f5f9' }}
            content={({ active, payload }) => {
              const p = active ? (payload?.[0]?.payload as SupplyDemandPoint | undefined) : undefined;
              return p ? <PointTooltip point={p} /> : null;
            }}
          />
          <ReferenceLine y={0} stroke="#94a3b8" />
          {safetyStock > 0 && (
            <ReferenceLine
              y={safetyStock}
              stroke={CHART_COLORS.safety}
              strokeDasharray="6 4"
              ifOverflow="extendDomain"
              label={{ value: `Safety stock ${formatQty(safetyStock)}`, position: 'insideTopRight', fill: CHART_COLORS.safety, fontSize: 11 }}
            />
          )}
          {inWindow && (
            <ReferenceLine
              x={shortageDate}
              stroke={CHART_COLORS.shortage}
              strokeDasharray="4 4"
              label={{ value: 'Shortage', position: 'insideTopLeft', fill: CHART_COLORS.shortage, fontSize: 11 }}
            />
          )}
          <Bar dataKey="supply" name="Supply" stackId="flow" fill={CHART_COLORS.supply} maxBarSize={16} isAnimationActive={false} />
          <Bar dataKey="demand" name="Demand" stackId="flow" fill={CHART_COLORS.demand} maxBarSize={16} isAnimationActive={false} />
          <Line type="stepAfter" dataKey="balance" name="Projected balance" stroke={CHART_COLORS.balance} strokeWidth={2.25} dot={false} activeDot={{ r: 4 }} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
