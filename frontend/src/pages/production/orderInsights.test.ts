import { describe, expect, it } from 'vitest';
import { availabilityByOperation, checkReasons, compatibilityIssues, costIsEmpty, costRows, formatPercent, varianceTone } from './orderInsights';
import { availability, compatibility, cost, emptyCost } from './orderFixtures';

describe('order insights', () => {
  it('rows of estimate, actual and variance, with the variance as a share of the estimate', () => {
    const [material, labor, total] = costRows(cost());
    expect(material).toMatchObject({ key: 'material', label: 'Material', estimated: 4, actual: 4.4, variance: 0.4 });
    expect(material.percent).toBeCloseTo(10, 6);
    expect(labor.label).toBe('Machine & labour');
    expect(labor.variance).toBe(-3);
    expect(total.percent).toBeCloseTo(-15.294, 3);
    // Nothing estimated: no share.
    expect(costRows(cost({ estimated: { material: '0', labor: '0', total: '0' } }))[0].percent).toBeNull();
  });

  it('over the estimate is red, under it green', () => {
    expect(varianceTone(0.01)).toBe('over');
    expect(varianceTone(-2)).toBe('under');
    expect(varianceTone(0)).toBe('even');
    expect(formatPercent(10)).toBe('+10 %');
    expect(formatPercent(-15.29)).toBe('−15.3 %');
    expect(formatPercent(0)).toBe('0 %');
    expect(formatPercent(null)).toBe('—');
  });

  it('a breakdown with no line to cost and nothing spent is empty', () => {
    expect(costIsEmpty(emptyCost)).toBe(true);
    expect(costIsEmpty(cost())).toBe(false);
    expect(costIsEmpty({ ...emptyCost, actual: { material: '1', labor: '0', total: '1' } })).toBe(false);
    // A draft's stored estimate alone is nothing to compare.
    expect(costIsEmpty({ ...emptyCost, estimated: { material: '0', labor: '2.50', total: '2.50' } })).toBe(true);
  });

  it('groups availability by operation, lines of no operation last', () => {
    const a = availability();
    const lines = [{ ...a.materials[0]!, operation_id: null, operation_name: null, material_id: 9 }, ...a.materials];
    expect(availabilityByOperation(lines).map((g) => [g.title, g.lines.map((l) => l.material_id)])).toEqual([
      ['Print', [1, 2]],
      ['Pack', [3]],
      ['Whole order', [9]],
    ]);
  });

  it('splits the check’s reasons without cutting one that names "this printer"', () => {
    expect(checkReasons('Compatible')).toEqual(['Compatible']);
    expect(checkReasons('ABS needs an enclosed printer; PC needs a 300 °C nozzle; this printer reaches 260 °C; PA-CF is abrasive and needs a hardened nozzle; this printer\'s is not')).toEqual([
      'ABS needs an enclosed printer',
      'PC needs a 300 °C nozzle; this printer reaches 260 °C',
      "PA-CF is abrasive and needs a hardened nozzle; this printer's is not",
    ]);
  });

  it('lists every finding of an order, errors first', () => {
    const c = compatibility({
      operations: [
        { operation_id: 1, operation_name: 'Print', printer_name: 'A1', compatible: true, issues: [{ severity: 'warning', check: 'hardened_nozzle', message: 'w', material_name: 'PA-CF', printer_name: 'A1' }] },
        { operation_id: 2, operation_name: 'Print 2', printer_name: 'A1', compatible: false, issues: [{ severity: 'error', check: 'enclosure', message: 'e', material_name: 'ABS', printer_name: 'A1' }] },
      ],
    });
    expect(compatibilityIssues(c).map((i) => [i.operation, i.severity])).toEqual([
      ['Print 2', 'error'],
      ['Print', 'warning'],
    ]);
  });
});
