import { describe, expect, it } from 'vitest';
import { LOT_STATUSES, listQuery, lotRemaining, lotTone, SERIAL_STATUSES, serialTone, tabParams, traceHref } from './traceApi';

describe('lot and serial lists', () => {
  it('query: paging clamped, empty search and unknown status left out', () => {
    expect(listQuery({ limit: 25, offset: 50, search: 'PLA', status: 'recalled' }, LOT_STATUSES)).toEqual({ limit: 25, offset: 50, search: 'PLA', status: 'recalled' });
    expect(listQuery({ limit: 1000, offset: -5, search: '', status: '' }, LOT_STATUSES)).toEqual({ limit: 500, offset: 0 });
    expect(listQuery({ limit: 0, offset: 0, status: 'shipped' }, LOT_STATUSES)).toEqual({ limit: 1, offset: 0 });
    expect(listQuery({ limit: 25, offset: 0, status: 'shipped' }, SERIAL_STATUSES)).toEqual({ limit: 25, offset: 0, status: 'shipped' });
  });

  it('what is left of a lot', () => {
    expect(lotRemaining({ quantity_received: '1000.000', quantity_consumed: '120.5' })).toEqual({ remaining: 879.5, used: 0.1205 });
    expect(lotRemaining({ quantity_received: '10', quantity_consumed: '12' })).toEqual({ remaining: 0, used: 1 });
    expect(lotRemaining({ quantity_received: '0', quantity_consumed: '0' })).toEqual({ remaining: 0, used: 0 });
  });

  it('status tones', () => {
    expect(lotTone('recalled')).toBe('danger');
    expect(lotTone('quarantine')).toBe('warning');
    expect(lotTone('active')).toBe('success');
    expect(lotTone('whatever')).toBe('neutral');
    expect(serialTone('scrapped')).toBe('danger');
    expect(serialTone('returned')).toBe('warning');
    expect(serialTone('in_stock')).toBe('success');
  });

  it('links into the trace view', () => {
    expect(traceHref('LOT-1')).toBe('/admin/quality/traceability?q=LOT-1');
    expect(traceHref('BLB 1&2', 'BACKWARD')).toBe('/admin/quality/traceability?q=BLB+1%262&dir=backward');
  });

  it('tabs: trace and recall share the trace; a list starts afresh', () => {
    const p = (s: string) => new URLSearchParams(s);
    expect(tabParams(p('q=LOT-1&dir=backward'), 'recall').toString()).toBe('q=LOT-1&dir=backward&tab=recall');
    expect(tabParams(p('q=LOT-1&tab=recall'), 'trace').toString()).toBe('q=LOT-1');
    expect(tabParams(p('q=LOT-1'), 'lots').toString()).toBe('tab=lots');
    expect(tabParams(p('tab=lots&q=PLA&page=2&status=active'), 'trace').toString()).toBe('');
    expect(tabParams(p('tab=lots&q=PLA'), 'serials').toString()).toBe('tab=serials');
    expect(tabParams(p('tab=serials&q=BLB'), 'recall').toString()).toBe('tab=recall');
  });
});
