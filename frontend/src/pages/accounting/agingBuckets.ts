import type { AgingRow } from '../../api/model';
import { toNumber } from '../../lib/format';

/** The ageing row's money by lateness (`Extract` fails the type-check if the server renames one). */
export type AgingBucket = Extract<keyof AgingRow, 'current' | 'days_1_30' | 'days_31_60' | 'days_61_90' | 'over_90'>;

/** The ageing buckets in order, labelled and coloured from fine (green) to late (red). */
export const AGING_BUCKETS: readonly { key: AgingBucket; label: string; color: string }[] = [
  { key: 'current', label: 'Current', color: '#34d399' },
  { key: 'days_1_30', label: '1–30 days', color: '#fbbf24' },
  { key: 'days_31_60', label: '31–60 days', color: '#fb923c' },
  { key: 'days_61_90', label: '61–90 days', color: '#f87171' },
  { key: 'over_90', label: 'Over 90 days', color: '#b91c1c' },
];

export type AgingBar = { name: string } & Record<AgingBucket, number>;

/** A row of the ageing as a bar of the chart (each bucket a number). */
export function agingBar(name: string, row: AgingRow): AgingBar {
  const bar = { name } as AgingBar;
  for (const b of AGING_BUCKETS) bar[b.key] = toNumber(row[b.key]) ?? 0;
  return bar;
}
