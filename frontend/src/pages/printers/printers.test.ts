import { describe, expect, it } from 'vitest';
import { isoToLocalInput, localInputToIso } from '../../lib/localTime';
import { maintenanceFormSchema } from './MaintenanceForm';
import { printerFormSchema } from './PrinterFormModal';
import { workCenterName, workCenterOptions } from './workCenters';
import type { WorkCenter } from '../production/productionApi';

const base = {
  maintenance_type: 'cleaning',
  description: ' Cleaned the bed ',
  performed_by: '',
  performed_at: '',
  next_due_at: '',
  cost: '',
  downtime_minutes: '',
  parts_used: '',
  notes: '',
};

describe('maintenance form', () => {
  it('sends trimmed text, nulls for empty fields and instants for local times', () => {
    const done = new Date(Date.now() - 3_600_000);
    const due = new Date(Date.now() + 7 * 86_400_000);
    const r = maintenanceFormSchema.parse({ ...base, performed_at: isoToLocalInput(done), next_due_at: isoToLocalInput(due), cost: '12.5', downtime_minutes: '30' });
    expect(r.description).toBe('Cleaned the bed');
    expect(r.performed_by).toBeNull();
    expect(r.cost).toBe('12.5');
    expect(r.downtime_minutes).toBe(30);
    expect(Math.abs(Date.parse(r.performed_at!) - done.getTime())).toBeLessThan(60_000);
    expect(r.next_due_at).toBe(localInputToIso(isoToLocalInput(due)));
  });

  it('refuses the future, a due time before the work, bad amounts and an empty description', () => {
    const future = maintenanceFormSchema.safeParse({ ...base, performed_at: isoToLocalInput(new Date(Date.now() + 86_400_000)) });
    expect(future.success).toBe(false);
    expect(future.error?.issues.map((i) => i.path[0])).toContain('performed_at');
    const early = maintenanceFormSchema.safeParse({ ...base, performed_at: isoToLocalInput(new Date(Date.now() - 86_400_000)), next_due_at: isoToLocalInput(new Date(Date.now() - 2 * 86_400_000)) });
    expect(early.error?.issues.map((i) => i.message)).toContain('The next due time must come after the maintenance.');
    const fields = maintenanceFormSchema.safeParse({ ...base, description: '  ', cost: '1.234', downtime_minutes: '-5' });
    expect(fields.error?.issues.map((i) => i.path[0]).sort()).toEqual(['cost', 'description', 'downtime_minutes']);
  });

  it('reads empty and invalid local times as null', () => {
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('not a date')).toBeNull();
  });
});

const printer = { code: 'PRT-001', name: 'Bay 1', model: 'MK4', brand: 'prusa', serial_number: '', ip_address: ' 10.0.0.5 ', location: '', work_center_id: '', notes: '' };

describe('printer form', () => {
  it('requires code, name and model and drops empty optional fields', () => {
    const bad = printerFormSchema.safeParse({ ...printer, code: '', name: ' ', model: '', brand: 'bambulab', ip_address: '' });
    expect(bad.error?.issues.map((i) => i.path[0]).sort()).toEqual(['code', 'model', 'name']);
    const ok = printerFormSchema.parse(printer);
    expect(ok).toEqual({ code: 'PRT-001', name: 'Bay 1', model: 'MK4', brand: 'prusa', serial_number: null, ip_address: '10.0.0.5', location: null, work_center_id: null, notes: null });
  });

  it('sends the chosen work center as its id, and null for none', () => {
    expect(printerFormSchema.parse({ ...printer, work_center_id: '4' })).toMatchObject({ work_center_id: 4 });
    expect(printerFormSchema.parse({ ...printer, work_center_id: '' })).toHaveProperty('work_center_id', null);
  });

  it('refuses an address with spaces or slashes', () => {
    const r = printerFormSchema.safeParse({ ...printer, brand: 'generic', ip_address: 'http://x/y' });
    expect(r.error?.issues[0]?.path[0]).toBe('ip_address');
  });
});

const center = (id: number, code: string, active = true) => ({ id, code, name: `${code} pool`, active, printers: [] }) as unknown as WorkCenter;

describe('work center picker', () => {
  const centers = [center(1, 'FDM'), center(2, 'OLD', false), center(3, 'RESIN')];

  it("offers the active work centers, and keeps a printer's inactive or unknown one", () => {
    expect(workCenterOptions(centers, '')).toEqual([
      { value: '1', label: 'FDM · FDM pool' },
      { value: '3', label: 'RESIN · RESIN pool' },
    ]);
    expect(workCenterOptions(centers, '2').map((o) => o.label)).toEqual(['FDM · FDM pool', 'OLD · OLD pool (inactive)', 'RESIN · RESIN pool']);
    expect(workCenterOptions(centers, '9').at(-1)).toEqual({ value: '9', label: 'Work center #9' });
  });

  it("names a printer's work center by code and name", () => {
    expect(workCenterName(centers, 3)).toBe('RESIN · RESIN pool');
    expect(workCenterName(centers, null)).toBe('—');
    expect(workCenterName(undefined, 3)).toBe('#3');
  });
});
