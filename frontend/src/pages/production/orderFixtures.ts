/** Shapes the order page's unit tests answer with (an order, its cost, availability and compatibility). */
import type { CostBreakdown, MaterialAvailability, OrderCompatibility, ProductionOperation, ProductionOrder } from './productionApi';

export const admin = {
  id: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Admin',
  full_name: 'Ada Admin',
  account_type: 'admin',
  status: 'active',
  last_login_at: null,
  created_at: '2026-01-20T12:00:00Z',
};

export function operation(over: Partial<ProductionOperation> = {}): ProductionOperation {
  return {
    id: 11,
    production_order_id: 5,
    routing_operation_id: null,
    work_center_id: 2,
    work_center_code: 'FDM-POOL',
    work_center_name: 'FDM pool',
    resource_id: null,
    resource_code: null,
    resource_name: null,
    sequence: 10,
    operation_code: 'PRINT',
    operation_name: 'Print',
    status: 'queued',
    quantity_completed: '0',
    quantity_scrapped: '0',
    planned_setup_minutes: '10',
    planned_run_minutes: '120',
    actual_setup_minutes: null,
    actual_run_minutes: null,
    scheduled_start: null,
    scheduled_end: null,
    actual_start: null,
    actual_end: null,
    bambu_task_id: null,
    bambu_plate_index: null,
    operator_name: null,
    notes: null,
    is_complete: false,
    is_running: false,
    efficiency_percent: null,
    materials: [],
    created_at: '2026-11-24T12:00:00Z',
    updated_at: '2026-11-24T12:00:00Z',
    ...over,
  } as ProductionOperation;
}

export function order(over: Partial<ProductionOrder> = {}): ProductionOrder {
  return {
    id: 5,
    code: 'WO-2026-0005',
    product_id: 3,
    product_sku: 'ENCLOSURE',
    product_name: 'Enclosure',
    bom_id: null,
    bom_code: null,
    routing_id: null,
    routing_code: null,
    sales_order_id: null,
    sales_order_code: null,
    sales_order_line_id: null,
    location_id: null,
    quantity_ordered: '4',
    quantity_completed: '0',
    quantity_scrapped: '0',
    quantity_remaining: 4,
    completion_percent: 0,
    source: 'manual',
    order_type: 'make_to_order',
    status: 'released',
    priority: 3,
    qc_status: 'not_required',
    qc_notes: null,
    qc_inspected_by: null,
    qc_inspected_at: null,
    due_date: null,
    scheduled_start: null,
    scheduled_end: null,
    actual_start: null,
    actual_end: null,
    estimated_time_minutes: null,
    actual_time_minutes: null,
    estimated_material_cost: '6.00',
    estimated_labor_cost: '17.00',
    estimated_total_cost: '23.00',
    actual_material_cost: '0',
    actual_labor_cost: '0',
    actual_total_cost: '0',
    assigned_to: null,
    notes: null,
    remake_of_id: null,
    remake_of_code: null,
    remake_reason: null,
    scrap_reason: null,
    parent_id: null,
    operations: [operation()],
    materials: [],
    spools: [],
    serial_numbers: [],
    created_at: '2026-11-24T12:00:00Z',
    updated_at: '2026-11-24T12:00:00Z',
    created_by: null,
    released_at: null,
    completed_at: null,
    ...over,
  } as ProductionOrder;
}

export function cost(over: Partial<CostBreakdown> = {}): CostBreakdown {
  return {
    order_id: 5,
    order_code: 'WO-2026-0005',
    material_costs: [
      {
        operation_id: 11,
        component_id: 7,
        component_sku: 'MAT-ABS-BLACK',
        component_name: 'ABS Black',
        quantity: '220',
        quantity_required: '200',
        unit: 'G',
        unit_cost: '0.02',
        total_cost: '4.40',
        estimated_cost: '4.00',
      },
    ],
    labor_costs: [{ operation_id: 11, operation: 'Print', minutes: '100', planned_minutes: '130', hourly_rate: '6', cost: '10.00', estimated_cost: '13.00' }],
    summary: { total_material_cost: '4.40', total_labor_cost: '10.00', total_cost: '14.40', quantity_ordered: '4', unit_cost: '3.60' },
    estimated: { material: '4.00', labor: '13.00', total: '17.00' },
    actual: { material: '4.40', labor: '10.00', total: '14.40' },
    variance: { material: '0.40', labor: '-3.00', total: '-2.60' },
    ...over,
  };
}

export const emptyCost: CostBreakdown = cost({
  material_costs: [],
  labor_costs: [],
  summary: { total_material_cost: '0', total_labor_cost: '0', total_cost: '0', quantity_ordered: '4', unit_cost: '0' },
  estimated: { material: '0', labor: '0', total: '0' },
  actual: { material: '0', labor: '0', total: '0' },
  variance: { material: '0', labor: '0', total: '0' },
});

export function availability(): MaterialAvailability {
  const line = (material_id: number, sku: string, status: 'ok' | 'incoming' | 'short', opId: number | null, opName: string | null) => ({
    material_id,
    operation_id: opId,
    operation_name: opName,
    component_id: material_id + 100,
    component_sku: sku,
    component_name: null,
    unit: 'EA',
    quantity_required: '4',
    quantity_consumed: '0',
    quantity_allocated: status === 'ok' ? '4' : '1',
    quantity_available: status === 'ok' ? '4' : '1',
    quantity_incoming: status === 'incoming' ? '3' : '0',
    quantity_short_now: status === 'ok' ? '0' : '3',
    quantity_short: status === 'short' ? '3' : '0',
    status,
  });
  return {
    order_id: 5,
    order_code: 'WO-2026-0005',
    materials: [line(1, 'MAT-ABS-BLACK', 'ok', 11, 'Print'), line(2, 'SHELL', 'short', 11, 'Print'), line(3, 'BOX-S', 'incoming', 12, 'Pack')],
    summary: { total_materials: 3, materials_available: 1, materials_short: 2, can_start: false },
    can_release: false,
    shortage_count: 2,
  };
}

export function compatibility(over: Partial<OrderCompatibility> = {}): OrderCompatibility {
  return { production_order_id: 5, production_order_code: 'WO-2026-0005', compatible: true, total_issues: 0, operations: [], ...over };
}

export const pool = [
  {
    id: 2,
    code: 'FDM-POOL',
    name: 'FDM pool',
    center_type: 'printer_pool',
    active: true,
    printers: [
      { id: 31, code: 'A1-1', name: 'A1 one', status: 'idle' },
      { id: 32, code: 'X1-1', name: 'X1 one', status: 'idle' },
    ],
  },
];
