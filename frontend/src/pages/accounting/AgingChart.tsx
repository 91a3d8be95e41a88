import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/format';
import { AGING_BUCKETS, type AgingBar } from './agingBuckets';

/**
 * What customers owe as one stacked bar, current on the left and the oldest on the right
 * (loaded on demand: recharts is large). It draws `agingBars` and holds no logic.
 */
export default function AgingChart({ data }: { data: AgingBar[] }) {
  return (
    <ResponsiveContainer width="100%" height={140}>
      <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 0 }} barCategoryGap="20%">
        <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
        <XAxis type="number" tick={{ fontSize: 12, fill: '#64748b' }} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} tickFormatter={(n: number) => formatMoney(n).replace(/\.00$/, '')} />
        <YAxis type="category" dataKey="name" tick={{ fontSize: 12, fill: '#64748b' }} tickLine={false} axisLine={false} width={72} />
        <Tooltip formatter={(n) => formatMoney(Number(n))} cursor={{ fill: '#f1f5f9' }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {AGING_BUCKETS.map((b, i) => (
          <Bar
            key={b.key}
            dataKey={b.key}
            name={b.label}
            stackId="ar"
            fill={b.color}
            maxBarSize={44}
            isAnimationActive={false}
            radius={i === AGING_BUCKETS.length - 1 ? [0, 4, 4, 0] : i === 0 ? [4, 0, 0, 4] : undefined}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
