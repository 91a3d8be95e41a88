import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Plus, Printer as PrinterIcon } from 'lucide-react';
import { printersApi } from '../../api/endpoints';
import type { Printer, PrinterList, PrinterListQuery, SortBy } from '../../api/model';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { pickSort, useServerList } from '../../lib/useServerList';
import type { WorkCenter } from '../production/productionApi';
import { PrinterDetailModal } from './PrinterDetailModal';
import { PrinterFormModal } from './PrinterFormModal';
import { BRANDS, BRAND_VALUES, DUE_DAYS_AHEAD, MAINTENANCE_TYPES, PRINTER_STATUSES, printerApi, type MaintenanceDue, type PrinterBrand, type PrinterDetail } from './printerApi';
import { STATUS_TONE } from './printerStatus';
import { useWorkCenters, workCenterName } from './workCenters';
import './printers.css';
import { queryKeys } from '../../api/queryKeys';

/** What the server sorts this list by. */
const SORTS = ['code', 'name', 'model', 'brand', 'status', 'location', 'last_seen', 'created_at', 'updated_at'] as const satisfies readonly SortBy<PrinterListQuery>[];

/** The list's columns; `centers` names each printer's work center. */
function printerColumns(centers: readonly WorkCenter[] | undefined): Column<Printer>[] {
  return [
    { key: 'code', header: 'Code', shrink: true, sortable: true, render: (r) => <span className="mono">{r.code}</span> },
    {
      key: 'name',
      header: 'Printer',
      sortable: true,
      render: (r) => (
        <div className="cell-stack">
          <span className="cell-strong">{r.name}</span>
          <span className="cell-sub">{[BRANDS[r.brand as PrinterBrand] ?? r.brand, r.model].filter(Boolean).join(' · ')}</span>
        </div>
      ),
    },
    { key: 'status', header: 'Status', shrink: true, sortable: true, render: (r) => <Badge tone={STATUS_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge> },
    { key: 'work_center_id', header: 'Work center', hideOnTablet: true, render: (r) => workCenterName(centers, r.work_center_id) },
    { key: 'location', header: 'Location', hideOnTablet: true, render: (r) => r.location ?? '—' },
    { key: 'ip_address', header: 'Address', shrink: true, hideOnTablet: true, render: (r) => <span className="mono">{r.ip_address ?? '—'}</span> },
    { key: 'last_seen', header: 'Last seen', shrink: true, render: (r) => formatDateTime(r.last_seen) },
  ];
}

export function PrintersPage() {
  const list = useServerList({
    area: 'printers',
    filters: ['status', 'brand'],
    fetch: (r, signal) =>
      printersApi.list(
        {
          page: r.page,
          page_size: r.limit,
          search: r.search,
          status: PRINTER_STATUSES.find((s) => s === r.filters.status),
          brand: BRAND_VALUES.find((b) => b === r.filters.brand),
          sort_by: pickSort(SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    select: (data: PrinterList) => ({ rows: data.items, total: data.total }),
  });
  const { table } = list;
  const [openId, setOpenId] = useState<number | null>(null);
  /** The printer being edited, `null` for a new one, `undefined` when the form is closed. */
  const [editing, setEditing] = useState<PrinterDetail | null | undefined>(undefined);
  const centers = useWorkCenters();
  const due = useQuery({ queryKey: queryKeys.printers.maintenanceDue(), queryFn: ({ signal }) => printerApi.due(signal) });

  return (
    <div className="page">
      <PageHeader
        title="Printers"
        description="Your print farm: every printer, its status and what it is doing."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing(null)}>
            Add printer
          </Button>
        }
      />
      {due.data && due.data.printers.length > 0 && <MaintenanceDueAlert due={due.data.printers} onOpen={setOpenId} />}
      <DataTable
        caption="Printers"
        columns={printerColumns(centers.data)}
        {...list.tableProps}
        rowKey={(r) => r.id}
        onRowClick={(r) => setOpenId(r.id)}
        rowLabel={(r) => `Open ${r.code}`}
        searchPlaceholder="Search code, name or model"
        searchLabel="Search printers"
        filters={
          <>
            <select className="input input--select" aria-label="Status" value={table.filters.status ?? ''} onChange={(e) => table.setFilter('status', e.target.value)}>
              <option value="">Any status</option>
              {PRINTER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {humanize(s)}
                </option>
              ))}
            </select>
            <select className="input input--select" aria-label="Brand" value={table.filters.brand ?? ''} onChange={(e) => table.setFilter('brand', e.target.value)}>
              <option value="">Any brand</option>
              {Object.entries(BRANDS).map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          </>
        }
        empty={{
          icon: <PrinterIcon size={22} />,
          title: 'No printers yet',
          description: 'Printers you add appear here with their live status.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing(null)}>
              Add printer
            </Button>
          ),
        }}
      />
      <PrinterDetailModal printerId={openId} onClose={() => setOpenId(null)} onEdit={(p) => setEditing(p)} />
      <PrinterFormModal open={editing !== undefined} printer={editing ?? null} onClose={() => setEditing(undefined)} />
    </div>
  );
}

/** Printers whose maintenance is overdue or due within a week; each opens its printer. */
function MaintenanceDueAlert({ due, onOpen }: { due: MaintenanceDue[]; onOpen: (id: number) => void }) {
  const overdue = due.filter((d) => d.overdue).length;
  return (
    <div className={`alert ${overdue ? 'alert--warning' : 'alert--info'}`} role="status" aria-label="Maintenance due">
      <AlertTriangle size={18} className="alert__icon" aria-hidden="true" />
      <div>
        <span className="alert__title">
          {overdue ? `${overdue} printer${overdue === 1 ? '' : 's'} overdue for maintenance` : `Maintenance due within ${DUE_DAYS_AHEAD} days`}
        </span>
        <div className="maintenance-due">
          {due.map((d) => (
            <button key={d.printer_id} type="button" onClick={() => onOpen(d.printer_id)} title={`Last: ${MAINTENANCE_TYPES[d.last_maintenance_type]} on ${formatDateTime(d.last_maintenance_at)}`}>
              <Badge tone={d.overdue ? 'danger' : 'warning'}>
                {d.printer_code} · {d.overdue ? `${Math.max(d.days_overdue, 0)} d overdue` : `due ${formatDateTime(d.next_due_at)}`}
              </Badge>
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
