import { describe, expect, it } from 'vitest';
import {
  createdOrders,
  groupBuyList,
  indexExceptions,
  lowestBalance,
  plannedOrdersQuery,
  releaseBatches,
  releaseSchema,
  runSchema,
  sumDecimals,
  supplyDemandSeries,
  type BuyListItem,
  type MrpException,
  type SupplyDemandEntry,
} from './planningApi';

const entry = (date: string, entry_type: SupplyDemandEntry['entry_type'], quantity: string, running_balance: string | null, source_code: string | null = null): SupplyDemandEntry => ({
  date,
  entry_type,
  source_type: entry_type === 'on_hand' ? 'inventory' : entry_type === 'demand' ? 'sales_order' : 'planned_order',
  source_id: null,
  source_code,
  quantity,
  running_balance,
});

describe('supplyDemandSeries', () => {
  it('draws one point per day with the balance after the day, carried over quiet days', () => {
    const series = supplyDemandSeries(
      {
        current_available: '5',
        entries: [
          entry('2026-12-01', 'on_hand', '5', '5'),
          entry('2026-12-03', 'supply', '10', '15', 'PLN-7'),
          entry('2026-12-03', 'demand', '6', '9', 'SO-2026-001'),
          entry('2026-12-05', 'demand', '12', '-3', 'SO-2026-002'),
        ],
      },
      6,
    );
    expect(series.map((p) => p.date)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06', '2026-12-07']);
    expect(series.map((p) => p.balance)).toEqual([5, 5, 9, 9, -3, -3, -3]);
    expect(series[2]).toEqual({ date: '2026-12-03', balance: 9, supply: 10, demand: -6, sources: ['PLN-7', 'SO-2026-001'], overdue: false });
    expect(series[4]).toMatchObject({ supply: 0, demand: -12 });
    expect(series[1]).toMatchObject({ supply: 0, demand: 0, sources: [] });
    expect(lowestBalance(series)).toMatchObject({ date: '2026-12-05', balance: -3 });
  });

  it('counts open orders already due today, and leaves out what falls past the window', () => {
    const series = supplyDemandSeries(
      {
        current_available: '4',
        entries: [
          entry('2026-12-10', 'on_hand', '4', '4'),
          entry('2026-11-28', 'demand', '3', '1', 'SO-OLD'),
          entry('2026-12-11', 'supply', '5', '6', 'PO-1'),
          entry('2026-12-30', 'demand', '6', '0', 'SO-LATER'),
        ],
      },
      2,
    );
    expect(series).toHaveLength(3);
    expect(series[0]).toMatchObject({ date: '2026-12-10', balance: 1, demand: -3, overdue: true, sources: ['SO-OLD'] });
    expect(series.map((p) => p.balance)).toEqual([1, 6, 6]);
  });

  it('adds the entries up itself when the server sends no running balance', () => {
    const series = supplyDemandSeries(
      { current_available: '2', entries: [entry('2026-12-01', 'on_hand', '2', null), entry('2026-12-02', 'supply', '3', null), entry('2026-12-02', 'demand', '1.5', null)] },
      1,
    );
    expect(series.map((p) => p.balance)).toEqual([2, 3.5]);
  });

  it('is empty without entries', () => {
    expect(supplyDemandSeries({ current_available: '0', entries: [] }, 30)).toEqual([]);
    expect(lowestBalance([])).toBeNull();
  });
});

describe('planned orders', () => {
  it('asks for a page with exceptions first and the filters as the server names them', () => {
    expect(plannedOrdersQuery({ page: 2, limit: 50, filters: { type: 'buy', status: 'firmed' } })).toEqual({
      page: 2,
      page_size: 50,
      order_type: 'purchase',
      status: 'firmed',
      exceptions_first: true,
    });
    expect(plannedOrdersQuery({ page: 1, limit: 500, filters: { type: 'make', status: 'bogus' } })).toMatchObject({ page_size: 200, order_type: 'production', status: null });
    expect(plannedOrdersQuery({ page: 1, limit: 25, filters: { type: '', status: '' } })).toMatchObject({ order_type: null, status: null });
  });

  it('splits a release so the chosen vendor only reaches the buys without one', () => {
    const orders = [
      { id: 1, order_type: 'purchase' as const, vendor_id: 9 },
      { id: 2, order_type: 'purchase' as const, vendor_id: null },
      { id: 3, order_type: 'production' as const, vendor_id: null },
    ];
    expect(releaseBatches(orders, 4, 'rush')).toEqual([
      { ids: [1, 3], notes: 'rush' },
      { ids: [2], vendor_id: 4, notes: 'rush' },
    ]);
    expect(releaseBatches(orders.slice(0, 1), null, null)).toEqual([{ ids: [1], notes: null }]);
    expect(releaseBatches(orders.slice(1, 2), 4, null)).toEqual([{ ids: [2], vendor_id: 4, notes: null }]);
  });

  it('lists each created order once, with the planned orders that went into it', () => {
    const made = createdOrders([
      { planned_order_id: 1, order_type: 'purchase', created_purchase_order_id: 30, created_purchase_order_code: 'PO-2026-030', created_production_order_id: null, created_production_order_code: null },
      { planned_order_id: 2, order_type: 'purchase', created_purchase_order_id: 30, created_purchase_order_code: 'PO-2026-030', created_production_order_id: null, created_production_order_code: null },
      { planned_order_id: 3, order_type: 'production', created_purchase_order_id: null, created_purchase_order_code: null, created_production_order_id: 8, created_production_order_code: 'WO-2026-0008' },
    ]);
    expect(made).toEqual([
      { kind: 'purchase', id: 30, code: 'PO-2026-030', plannedIds: [1, 2] },
      { kind: 'production', id: 8, code: 'WO-2026-0008', plannedIds: [3] },
    ]);
  });

  it('files exceptions under their planned order, the rest apart', () => {
    const ex = (id: number, planned_order_id: number | null, kind: MrpException['kind']): MrpException => ({
      id,
      mrp_run_id: 1,
      product_id: 5,
      kind,
      message: `m${id}`,
      due_date: null,
      quantity: null,
      planned_order_id,
    });
    const { byOrder, general } = indexExceptions([ex(1, 7, 'late'), ex(2, 7, 'excess'), ex(3, null, 'no_vendor')]);
    expect(byOrder.get(7)?.map((e) => e.kind)).toEqual(['late', 'excess']);
    expect(general.map((e) => e.id)).toEqual([3]);
  });

  it('checks the forms as the server does', () => {
    expect(runSchema.safeParse({ planning_horizon_days: '30', include_draft_orders: true, regenerate_planned: false }).data).toEqual({
      planning_horizon_days: 30,
      include_draft_orders: true,
      regenerate_planned: false,
    });
    for (const bad of ['0', '366', '2.5', '', 'ten']) expect(runSchema.safeParse({ planning_horizon_days: bad, include_draft_orders: true, regenerate_planned: true }).success).toBe(false);
    expect(releaseSchema(true).safeParse({ vendor_id: '', notes: '' }).success).toBe(false);
    expect(releaseSchema(true).safeParse({ vendor_id: '4', notes: ' ok ' }).data).toEqual({ vendor_id: 4, notes: 'ok' });
    expect(releaseSchema(false).safeParse({ vendor_id: '', notes: '' }).data).toEqual({ vendor_id: null, notes: null });
  });
});

describe('buy list', () => {
  const item = (product_id: number, vendor: [number, string] | null, value: string): BuyListItem => ({
    product_id,
    sku: `SKU-${product_id}`,
    name: `Item ${product_id}`,
    unit: 'EA',
    gross_demand: '10',
    on_hand: '0',
    allocated: '0',
    available: '0',
    incoming_qty: '0',
    projected: '0',
    safety_stock: '0',
    net_shortage: '10',
    suggested_qty: '10',
    preferred_vendor_id: vendor?.[0] ?? null,
    preferred_vendor_name: vendor?.[1] ?? null,
    unit_cost: '1',
    estimated_buy_value: value,
    earliest_need: null,
    incoming_details: [],
  });

  it('groups items by preferred vendor with exact subtotals, the items without a vendor last', () => {
    const groups = groupBuyList([item(1, null, '5'), item(2, [3, 'Filament Co'], '10.10'), item(3, [3, 'Filament Co'], '0.2'), item(4, [8, 'Bolt Depot'], '7.0001')]);
    expect(groups.map((g) => [g.vendorName, g.items.map((i) => i.product_id), g.subtotal])).toEqual([
      ['Filament Co', [2, 3], '10.3000'],
      ['Bolt Depot', [4], '7.0001'],
      ['No preferred vendor', [1], '5.0000'],
    ]);
  });

  it('adds decimals without float error', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3000');
    expect(sumDecimals(['19.99', '0.01', null, '', '-5'], 2)).toBe('15.00');
    expect(sumDecimals([])).toBe('0.0000');
    expect(sumDecimals(['-0.5', '0.25'], 2)).toBe('-0.25');
  });
});
