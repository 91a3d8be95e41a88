import { describe, expect, it } from 'vitest';
import { formatGrams, weightBar } from './spoolWeight';

describe('weightBar', () => {
  it('fills with the share of the initial weight left', () => {
    const b = weightBar({ current_weight_kg: '812', initial_weight_kg: '1000', status: 'active' });
    expect(b.percent).toBe(81.2);
    expect(b.tone).toBe('ok');
    expect(b.label).toBe('812 g of 1 kg (81.2 %)');
  });

  it('is low under 10 % of an active spool, empty under 0.05 g or when marked empty', () => {
    expect(weightBar({ current_weight_kg: '99', initial_weight_kg: '1000', status: 'active' }).tone).toBe('low');
    expect(weightBar({ current_weight_kg: '100', initial_weight_kg: '1000', status: 'active' }).tone).toBe('ok');
    expect(weightBar({ current_weight_kg: '0.04', initial_weight_kg: '1000', status: 'active' }).tone).toBe('empty');
    expect(weightBar({ current_weight_kg: '500', initial_weight_kg: '1000', status: 'empty' }).tone).toBe('empty');
    // A damaged spool with little left is not "low" (only active ones are).
    expect(weightBar({ current_weight_kg: '50', initial_weight_kg: '1000', status: 'damaged' }).tone).toBe('ok');
  });

  it('uses the server flags when it sends them', () => {
    expect(weightBar({ current_weight_kg: '500', initial_weight_kg: '1000', is_low: true, is_empty: false }).tone).toBe('low');
    expect(weightBar({ current_weight_kg: '500', initial_weight_kg: '1000', is_low: false, is_empty: true }).tone).toBe('empty');
  });

  it('never overflows nor divides by zero', () => {
    expect(weightBar({ current_weight_kg: '1200', initial_weight_kg: '1000' }).percent).toBe(100);
    expect(weightBar({ current_weight_kg: '10', initial_weight_kg: '0' }).percent).toBe(0);
    expect(weightBar({ current_weight_kg: '-5', initial_weight_kg: '1000' }).current).toBe(0);
  });

  it('writes grams, and kilograms from 1000 g', () => {
    expect(formatGrams(950)).toBe('950 g');
    expect(formatGrams(1250)).toBe('1.25 kg');
  });
});

describe('formatDate', () => {
  it('shows a calendar date without a time and keeps the day of a bare date', async () => {
    const { formatDate } = await import('./spoolOptions');
    expect(formatDate(null)).toBe('—');
    expect(formatDate('2026-11-23')).toContain('23');
    expect(formatDate('2026-11-23')).not.toMatch(/AM|PM|:/);
  });
});
