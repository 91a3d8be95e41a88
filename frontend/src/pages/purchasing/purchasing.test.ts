import { describe, expect, it } from 'vitest';
import { NEXT_STATUSES, parseWeights } from './purchasingApi';

describe('purchasing helpers', () => {
  it('reads spool weights in grams', () => {
    expect(parseWeights('1000, 750')).toEqual([1000, 750]);
    expect(parseWeights('')).toEqual([]);
    expect(parseWeights('1000, x')).toBeNull();
    expect(parseWeights('0')).toBeNull();
  });
  it('offers the moves of the contract', () => {
    expect(NEXT_STATUSES.draft).toEqual(['ordered', 'cancelled']);
    expect(NEXT_STATUSES.closed).toEqual([]);
  });
});
