/** The supply and demand chart's colours (shared by the chart and the HTML legend beside it). */
export const CHART_COLORS = {
  balance: '#4f46e5',
  supply: '#34d399',
  demand: '#f87171',
  safety: '#d97706',
  shortage: '#dc2626',
} as const;
