import type { GlAccountType } from '../../api/model';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export const ACCOUNT_TYPE_LABEL: Record<GlAccountType, string> = {
  asset: 'Asset',
  liability: 'Liability',
  equity: 'Equity',
  revenue: 'Revenue',
  expense: 'Expense',
};

export const ACCOUNT_TYPE_TONE: Record<GlAccountType, Tone> = {
  asset: 'info',
  liability: 'warning',
  equity: 'neutral',
  revenue: 'success',
  expense: 'danger',
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "March 2026" for fiscal period 3 of 2026 (periods are calendar months). */
export function periodName(year: number, period: number): string {
  return `${MONTHS[period - 1] ?? `Period ${period}`} ${year}`;
}

/** A calendar date (YYYY-MM-DD) as "Mar 5, 2026" in the display locale, without a time-zone shift. */
export { formatDate } from '../../lib/format';

/** Today as YYYY-MM-DD in the user's time zone. */
export function today(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}
