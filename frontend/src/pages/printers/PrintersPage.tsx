import type { SortBy } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { Printer as PrinterIcon } from 'lucide-react';
import { printersApi } from '../../api/endpoints';
import type { Printer, PrinterList, PrinterListQuery } from '../../api/model';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { NotYetAvailable } from '../NotYetAvailable';

/** What the server sorts this list by. */
const SORTS = ['code', 'name', 'model', 'brand', 'status', 'location', 'last_seen', 'created_at', 'updated_at'] as const satisfies readonly SortBy<PrinterListQuery>[];

type PrinterStatus = NonNullable<PrinterListQuery['status']>;
type PrinterBrand = NonNullable<PrinterListQuery['brand']>;

const STATUS_TONE: Record<string, 'success' | 'info' | 'warning' | 'danger' | 'neutral'> = {
  idle: 'success',
  printing: 'info',
  paused: 'warning',
  maintenance: 'warning',
  error: 'danger',
  offline: 'neutral',
};
const STATUSES: PrinterStatus[] = ['idle', 'printing', 'paused', 'error', 'maintenance', 'offline'];
const BRANDS: Record<PrinterBrand, string> = {
  bambulab: 'Bambu Lab',
  klipper: 'Klipper',
  octoprint: 'OctoPrint',
  prusa: 'Prusa',
  creality: 'Creality',
  generic: 'Generic',
};
const BRAND_VALUES = Object.keys(BRANDS) as PrinterBrand[];

const columns: Column<Printer>[] = [
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
  { key: 'location', header: 'Location', hideOnTablet: true, render: (r) => r.location ?? '—' },
  { key: 'ip_address', header: 'Address', shrink: true, hideOnTablet: true, render: (r) => <span className="mono">{r.ip_address ?? '—'}</span> },
  { key: 'last_seen', header: 'Last seen', shrink: true, render: (r) => formatDateTime(r.last_seen) },
];

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
          status: STATUSES.find((s) => s === r.filters.status),
          brand: BRAND_VALUES.find((b) => b === r.filters.brand),
          sort_by: pickSort(SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    select: (data: PrinterList) => ({ rows: data.items, total: data.total }),
  });
  const { table } = list;
  if (list.missing) return <NotYetAvailable area="printers" />;

  return (
    <div className="page">
      <PageHeader title="Printers" description="Your print farm: every printer, its status and what it is doing." />
      <DataTable
        caption="Printers"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search code, name or model"
        searchLabel="Search printers"
        filters={
          <>
            <select className="input input--select" aria-label="Status" value={table.filters.status ?? ''} onChange={(e) => table.setFilter('status', e.target.value)}>
              <option value="">Any status</option>
              {STATUSES.map((s) => (
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
        empty={{ icon: <PrinterIcon size={22} />, title: 'No printers yet', description: 'Printers you add appear here with their live status.' }}
      />
    </div>
  );
}
