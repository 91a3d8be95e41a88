/**
 * The arithmetic of a count sheet, kept apart from the page so it can be tested: what a
 * typed count means, the variance against the books, and how loud to show it. Quantities
 * are compared in ten-thousandths (the ledger keeps four decimal places), never as floats.
 */
import type { CycleCountLine, StockBalance } from '../../api/model';

/** Most decimal places of a quantity (the server refuses more). */
export const QUANTITY_SCALE = 4;
const FACTOR = 10 ** QUANTITY_SCALE;

/** A variance at or above this share of the book quantity is shown as large. */
export const LARGE_VARIANCE_SHARE = 0.1;

export type ParsedCount =
  | { kind: 'blank' }
  | { kind: 'invalid'; message: string }
  | { kind: 'ok'; units: number; text: string };

/** A quantity as an integer number of ten-thousandths, or null when it is not a plain decimal. */
export function toUnits(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > QUANTITY_SCALE) return null;
  const units = Number(m[2]) * FACTOR + Number(frac.padEnd(QUANTITY_SCALE, '0') || '0');
  return m[1] ? -units : units;
}

/** Ten-thousandths back to the shortest decimal text ("12.5", "-3", "0.0001"). */
export function fromUnits(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  const whole = Math.floor(abs / FACTOR);
  const frac = String(abs % FACTOR).padStart(QUANTITY_SCALE, '0').replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}

/** What the counter typed: blank (not counted), a valid count, or why it is not one. */
export function parseCount(input: string): ParsedCount {
  const text = input.trim().replace(/,/g, '');
  if (text === '') return { kind: 'blank' };
  if (text.startsWith('-')) return { kind: 'invalid', message: 'A count cannot be negative.' };
  if (!/^\d+(\.\d+)?$/.test(text) && !/^\.\d+$/.test(text)) return { kind: 'invalid', message: 'Enter a number, like 12 or 2.5.' };
  const normal = text.startsWith('.') ? `0${text}` : text;
  const units = toUnits(normal);
  if (units === null) return { kind: 'invalid', message: `Use at most ${QUANTITY_SCALE} decimal places.` };
  return { kind: 'ok', units, text: fromUnits(units) };
}

export type VarianceTone = 'match' | 'over' | 'short';

export interface Variance {
  /** counted − on hand, in ten-thousandths. */
  units: number;
  /** The same as text ("-3", "2.5"). */
  text: string;
  tone: VarianceTone;
  /** |variance| ≥ 10 % of the book quantity (or any variance when the books say zero). */
  large: boolean;
}

/** The variance of a count against the book quantity. */
export function variance(onHand: string | number, countedUnits: number): Variance {
  const book = toUnits(onHand) ?? 0;
  const units = countedUnits - book;
  const tone: VarianceTone = units === 0 ? 'match' : units > 0 ? 'over' : 'short';
  const large = units !== 0 && (book === 0 || Math.abs(units) / Math.abs(book) >= LARGE_VARIANCE_SHARE);
  return { units, text: fromUnits(units), tone, large };
}

/** One row of the sheet as the counter left it (kept across pages of the sheet). */
export interface CountEntry {
  balance: StockBalance;
  counted: string;
  reason: string;
}

export interface SheetLine {
  balance: StockBalance;
  counted: string;
  reason: string;
  variance: Variance;
}

export interface SheetSummary {
  /** Rows with a valid count. */
  lines: SheetLine[];
  /** Rows whose typed count is not a number (product_id → message). */
  invalid: Map<number, string>;
  /** Rows with a variance but no reason. */
  missingReason: number[];
  counted: number;
  withVariance: number;
  over: number;
  short: number;
}

/**
 * The count sheet in one pass: the valid counts with their variances, the rows that block
 * posting (a count that is not a number, a variance without a reason) and the tallies the
 * page shows before posting.
 */
export function summarize(entries: Iterable<CountEntry>): SheetSummary {
  const lines: SheetLine[] = [];
  const invalid = new Map<number, string>();
  const missingReason: number[] = [];
  let over = 0;
  let short = 0;
  for (const entry of entries) {
    const { balance } = entry;
    const parsed = parseCount(entry.counted);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'invalid') {
      invalid.set(balance.product_id, parsed.message);
      continue;
    }
    const v = variance(balance.on_hand_quantity, parsed.units);
    if (v.tone === 'over') over += 1;
    if (v.tone === 'short') short += 1;
    if (v.tone !== 'match' && !entry.reason) missingReason.push(balance.product_id);
    lines.push({ balance, counted: parsed.text, reason: entry.reason, variance: v });
  }
  return { lines, invalid, missingReason, counted: lines.length, withVariance: over + short, over, short };
}

/** The batch the server receives: every counted row (a match still records the count date). */
export function toBatch(lines: readonly SheetLine[]): CycleCountLine[] {
  return lines.map((l) => ({
    product_id: l.balance.product_id,
    counted_quantity: l.counted,
    reason: l.reason || 'cycle_count',
  }));
}
