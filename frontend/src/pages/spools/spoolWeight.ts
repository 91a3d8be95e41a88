import type { Decimal } from '../../api/model';
import { toNumber } from '../../lib/format';

export type WeightTone = 'ok' | 'low' | 'empty';

export interface WeightBar {
  /** Grams left (the API's `current_weight_kg` holds grams). */
  current: number;
  initial: number;
  /** 0..100, rounded to one decimal; what the bar fills. */
  percent: number;
  tone: WeightTone;
  /** "812 g of 1,000 g (81.2 %)". */
  label: string;
}

const grams = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const kilos = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatGrams(g: number): string {
  return g >= 1000 ? `${kilos.format(g / 1000)} kg` : `${grams.format(g)} g`;
}

/**
 * The remaining-weight bar of a spool: empty below 0.05 g or when marked empty, low under
 * 10 % of the initial weight (CONTRACT 5.10), otherwise ok. The server's flags win when given.
 */
export function weightBar(s: {
  current_weight_kg: Decimal;
  initial_weight_kg: Decimal;
  status?: string;
  is_low?: boolean;
  is_empty?: boolean;
}): WeightBar {
  const current = Math.max(0, toNumber(s.current_weight_kg) ?? 0);
  const initial = Math.max(0, toNumber(s.initial_weight_kg) ?? 0);
  const raw = initial > 0 ? (current / initial) * 100 : 0;
  const percent = Math.round(Math.min(100, raw) * 10) / 10;
  const empty = s.is_empty ?? (current < 0.05 || s.status === 'empty');
  const low = s.is_low ?? (raw < 10 && (s.status ?? 'active') === 'active');
  const tone: WeightTone = empty ? 'empty' : low ? 'low' : 'ok';
  return { current, initial, percent, tone, label: `${formatGrams(current)} of ${formatGrams(initial)} (${percent} %)` };
}
