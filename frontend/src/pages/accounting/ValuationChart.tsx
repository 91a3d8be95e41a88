import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/format';

export interface ValuationBar {
  name: string;
  'Stock value': number;
  'Ledger balance': number;
}

/** Stock value next to the ledger balance per inventory account (loaded on demand: recharts is large). */
export default function ValuationChart({ data }: { data: ValuationBar[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="name" tick={{ fontSize: 12, fill: '#64748b' }} tickLine={false} axisLine={{ stroke: '#cbd5e1' }} />
        <YAxis tick={{ fontSize: 12, fill: '#64748b' }} tickLine={false} axisLine={false} tickFormatter={(n: number) => formatMoney(n).replace(/\.00$/, '')} width={72} />
        <Tooltip formatter={(n) => formatMoney(Number(n))} cursor={{ fill: '#f1f5f9' }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="Stock value" fill="#4f46e5" radius={[4, 4, 0, 0]} maxBarSize={48} isAnimationActive={false} />
        <Bar dataKey="Ledger balance" fill="#a5b4fc" radius={[4, 4, 0, 0]} maxBarSize={48} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
