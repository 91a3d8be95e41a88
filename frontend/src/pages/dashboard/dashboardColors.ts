/** The dashboard's series colours (shared by the charts and the HTML legends around them). */
export const COLORS = {
  sales: '#4f46e5',
  payments: '#34d399',
  completed: '#6366f1',
  scrapped: '#f87171',
  shipped: '#0ea5e9',
  spend: '#f59e0b',
} as const;
