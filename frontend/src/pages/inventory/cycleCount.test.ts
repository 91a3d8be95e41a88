import { describe, expect, it } from 'vitest';
import type { StockBalance } from '../../api/model';
import { fromUnits, parseCount, summarize, toBatch, toUnits, variance, type CountEntry } from './cycleCount';

function balance(product_id: number, on_hand_quantity: string): StockBalance {
  return {
    inventory_id: product_id * 10,
    product_id,
    product_sku: `SKU-${product_id}`,
    product_name: `Part ${product_id}`,
    category_name: null,
    unit: 'EA',
    location_id: 1,
    location_code: 'MAIN',
    location_name: 'Main Warehouse',
    on_hand_quantity,
    allocated_quantity: '0.00',
    available_quantity: on_hand_quantity,
    last_counted: null,
  };
}

const entry = (b: StockBalance, counted: string, reason = ''): CountEntry => ({ balance: b, counted, reason });

describe('quantities in ten-thousandths', () => {
  it('reads and writes decimals exactly (no float drift)', () => {
    expect(toUnits('0.1')).toBe(1000);
    expect(toUnits('10.00')).toBe(100_000);
    expect(toUnits('-3.5')).toBe(-35_000);
    expect(toUnits('1.00001')).toBeNull();
    expect(toUnits('1e3')).toBeNull();
    expect(fromUnits(toUnits('0.3')! - toUnits('0.1')!)).toBe('0.2');
    expect(fromUnits(-30_000)).toBe('-3');
    expect(fromUnits(1)).toBe('0.0001');
  });
});

describe('parseCount', () => {
  it('treats blank as not counted', () => {
    expect(parseCount('  ')).toEqual({ kind: 'blank' });
  });
  it('accepts whole and decimal counts, thousands separators and a leading dot', () => {
    expect(parseCount('12')).toMatchObject({ kind: 'ok', units: 120_000, text: '12' });
    expect(parseCount('1,250.50')).toMatchObject({ kind: 'ok', text: '1250.5' });
    expect(parseCount('.5')).toMatchObject({ kind: 'ok', text: '0.5' });
    expect(parseCount('7.0000')).toMatchObject({ kind: 'ok', text: '7' });
  });
  it('refuses negatives, words and more than four decimal places, saying why', () => {
    expect(parseCount('-1')).toEqual({ kind: 'invalid', message: 'A count cannot be negative.' });
    expect(parseCount('ten')).toEqual({ kind: 'invalid', message: 'Enter a number, like 12 or 2.5.' });
    expect(parseCount('1.23456')).toEqual({ kind: 'invalid', message: 'Use at most 4 decimal places.' });
  });
});

describe('variance', () => {
  it('is counted minus the books, with a tone for its direction', () => {
    expect(variance('10.00', toUnits('7')!)).toEqual({ units: -30_000, text: '-3', tone: 'short', large: true });
    expect(variance('10.00', toUnits('10')!)).toMatchObject({ units: 0, text: '0', tone: 'match', large: false });
    expect(variance('10.00', toUnits('10.5')!)).toMatchObject({ text: '0.5', tone: 'over', large: false });
  });
  it('calls a difference of 10 % or more large, and any difference on zero stock', () => {
    expect(variance('100', toUnits('91')!).large).toBe(false);
    expect(variance('100', toUnits('90')!).large).toBe(true);
    expect(variance('100', toUnits('110')!).large).toBe(true);
    expect(variance('0', toUnits('1')!)).toMatchObject({ tone: 'over', large: true });
  });
  it('compares decimals exactly', () => {
    expect(variance('0.3', toUnits('0.1')! + toUnits('0.2')!).tone).toBe('match');
  });
});

describe('summarize and toBatch', () => {
  const a = balance(1, '10.00');
  const b = balance(2, '0.00');
  const c = balance(3, '5.00');
  const d = balance(4, '8.00');

  it('tallies counts and differences, and lists what blocks posting', () => {
    const s = summarize([entry(a, '7', 'damaged'), entry(b, '20'), entry(c, '5'), entry(d, 'lots'), entry(balance(5, '1'), '')]);
    expect(s.counted).toBe(3);
    expect(s.withVariance).toBe(2);
    expect(s.over).toBe(1);
    expect(s.short).toBe(1);
    // A difference without a reason, and a count that is not a number, block the review.
    expect(s.missingReason).toEqual([2]);
    expect([...s.invalid.keys()]).toEqual([4]);
    expect(s.lines.map((l) => [l.balance.product_id, l.variance.text])).toEqual([
      [1, '-3'],
      [2, '20'],
      [3, '0'],
    ]);
  });

  it('sends every counted line, a match with the cycle_count reason', () => {
    const s = summarize([entry(a, '7', 'damaged'), entry(c, '5.0')]);
    expect(toBatch(s.lines)).toEqual([
      { product_id: 1, counted_quantity: '7', reason: 'damaged' },
      { product_id: 3, counted_quantity: '5', reason: 'cycle_count' },
    ]);
  });
});
