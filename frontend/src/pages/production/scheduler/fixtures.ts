/** Board fixtures for the scheduler's unit tests. */
import { MINUTE, type BoardOperation, type Lane } from './schedulerApi';

export function op(id: number, start: number, minutes: number, over: Partial<BoardOperation> = {}): BoardOperation {
  return {
    id,
    operation_code: 'PRINT',
    operation_name: 'Print',
    sequence: 10,
    status: 'queued',
    scheduled_start: new Date(start).toISOString(),
    scheduled_end: new Date(start + minutes * MINUTE).toISOString(),
    planned_setup_minutes: '10',
    planned_run_minutes: String(minutes - 10),
    production_order_id: 100 + id,
    production_order_code: `WO-2026-${String(id).padStart(4, '0')}`,
    production_order_status: 'released',
    product_name: 'Widget',
    quantity: '1',
    due_date: '2026-03-10',
    late: false,
    ...over,
  };
}

export function lane(id: number, operations: BoardOperation[] = [], over: Partial<Lane> = {}): Lane {
  return {
    key: `printer-${id}`,
    kind: 'printer',
    id,
    code: `PRT-${String(id).padStart(3, '0')}`,
    name: `Printer ${id}`,
    status: 'idle',
    work_center_code: 'FDM',
    utilization_percent: 12.5,
    operations,
    windows: [],
    ...over,
  };
}
