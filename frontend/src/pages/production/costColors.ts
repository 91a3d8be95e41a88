/** The cost chart's colours (shared by the chart and the HTML legend beside it). */
export const COST_COLORS = {
  estimated: '#a5b4fc',
  actual: '#4f46e5',
} as const;
