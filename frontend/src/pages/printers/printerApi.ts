/** Printer and maintenance calls (CONTRACT 5.13 and the original's `/maintenance/` routes). */
import { api } from '../../api/client';
import type { Api, RequestBody } from '../../api/model';

export type PrinterDetail = Api<'/printers/{id}', 'get'>;
export type PrinterCreate = RequestBody<'/printers/', 'post'>;
export type PrinterUpdate = RequestBody<'/printers/{id}', 'put'>;
export type PrinterBrand = NonNullable<PrinterCreate['brand']>;
export type PrinterStatus = PrinterDetail['status'];

export type MaintenancePage = Api<'/maintenance/printers/{printer_id}/maintenance', 'get'>;
export type MaintenanceLog = MaintenancePage['items'][number];
export type MaintenanceType = MaintenanceLog['maintenance_type'];
export type MaintenanceCreate = RequestBody<'/maintenance/printers/{printer_id}/maintenance', 'post'>;
export type MaintenanceDueReport = Api<'/maintenance/due', 'get'>;
export type MaintenanceDue = MaintenanceDueReport['printers'][number];

/** The brands, with their display names, in the order the pickers show them. */
export const BRANDS: Record<PrinterBrand, string> = {
  bambulab: 'Bambu Lab',
  klipper: 'Klipper',
  octoprint: 'OctoPrint',
  prusa: 'Prusa',
  creality: 'Creality',
  generic: 'Generic',
};
export const BRAND_VALUES = Object.keys(BRANDS) as PrinterBrand[];

export const PRINTER_STATUSES: readonly PrinterStatus[] = ['idle', 'printing', 'paused', 'error', 'maintenance', 'offline'];

/** The kinds of maintenance with their labels, as the server's closed set. */
export const MAINTENANCE_TYPES: Record<MaintenanceType, string> = {
  routine: 'Routine',
  repair: 'Repair',
  calibration: 'Calibration',
  cleaning: 'Cleaning',
  nozzle_change: 'Nozzle change',
  belt_tension: 'Belt tension',
  firmware_update: 'Firmware update',
  other: 'Other',
};

/** How many days ahead the page warns about upcoming maintenance. */
export const DUE_DAYS_AHEAD = 7;

export const printerApi = {
  get: (id: number, signal?: AbortSignal) => api.get<PrinterDetail>(`/printers/${id}`, undefined, signal),
  create: (body: PrinterCreate) => api.post<PrinterDetail>('/printers/', body),
  update: (id: number, body: PrinterUpdate) => api.put<PrinterDetail>(`/printers/${id}`, body),
  suggestCode: (signal?: AbortSignal) => api.get<Api<'/printers/generate-code', 'get'>>('/printers/generate-code', undefined, signal),
  history: (printerId: number, page: number, signal?: AbortSignal) =>
    api.get<MaintenancePage>(`/maintenance/printers/${printerId}/maintenance`, { page, page_size: 20 }, signal),
  logMaintenance: (printerId: number, body: MaintenanceCreate) => api.post<MaintenanceLog>(`/maintenance/printers/${printerId}/maintenance`, body),
  deleteMaintenance: (logId: number) => api.del<unknown>(`/maintenance/${logId}`),
  due: (signal?: AbortSignal) => api.get<MaintenanceDueReport>('/maintenance/due', { days_ahead: DUE_DAYS_AHEAD }, signal),
};
