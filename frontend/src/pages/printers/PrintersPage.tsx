import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Printer as PrinterIcon } from 'lucide-react';
import { printersApi } from '../../api/endpoints';
import type { Printer } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { isMissingRoute, NotYetAvailable } from '../NotYetAvailable';

const STATUS_TONE: Record<string, 'success' | 'info' | 'warning' | 'danger' | 'neutral'> = {
  idle: 'success',
  printing: 'info',
  paused: 'warning',
  maintenance: 'warning',
  error: 'danger',
  offline: 'neutral',
};
const STATUSES = ['idle', 'printing', 'paused', 'error', 'maintenance', 'offline'];
const BRANDS: Record<string, string> = {
  bambulab: 'Bambu Lab',
  klipper: 'Klipper',
  octoprint: 'OctoPrint',
  prusa: 'Prusa',
  creality: 'Creality',
  generic: 'Generic',
};

const columns: Column<Printer>[] = [
  { key: 'code', header: 'Code', shrink: true, sortValue: (r) => r.code, render: (r) => <span className="mono">{r.code}</span> },
  {
    key: 'name',
    header: 'Printer',
    sortValue: (r) => r.name,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.name}</span>
        <span className="cell-sub">{[BRANDS[r.brand] ?? r.brand, r.model].filter(Boolean).join(' · ')}</span>
      </div>
    ),
  },
  { key: 'status', header: 'Status', shrink: true, sortValue: (r) => r.status, render: (r) => <Badge tone={STATUS_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge> },
  { key: 'location', header: 'Location', hideOnTablet: true, render: (r) => r.location ?? '—' },
  { key: 'ip_address', header: 'Address', shrink: true, hideOnTablet: true, render: (r) => <span className="mono">{r.ip_address ?? '—'}</span> },
  { key: 'last_seen', header: 'Last seen', shrink: true, render: (r) => formatDateTime(r.last_seen) },
];

export function PrintersPage() {
  const table = useTableState(['status', 'brand']);
  const query = {
    page: table.page,
    page_size: table.pageSize,
    search: table.search || undefined,
    status: table.filters.status || undefined,
    brand: table.filters.brand || undefined,
  };
  const list = useQuery({
    queryKey: ['printers', 'list', query],
    queryFn: ({ signal }) => printersApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
  if (isMissingRoute(list.error)) return <NotYetAvailable area="printers" />;

  return (
    <div className="page">
      <PageHeader title="Printers" description="Your print farm: every printer, its status and what it is doing." />
      <DataTable
        caption="Printers"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        rowKey={(r) => r.id}
        page={table.page}
        pageSize={table.pageSize}
        onPageChange={table.setPage}
        onPageSizeChange={table.setPageSize}
        sort={table.sort}
        onSortChange={table.setSort}
        clientSort
        search={table.search}
        onSearchChange={table.setSearch}
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
        filtered={Boolean(table.search || table.filters.status || table.filters.brand)}
        onClearFilters={table.clearAll}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{ icon: <PrinterIcon size={22} />, title: 'No printers yet', description: 'Printers you add appear here with their live status.' }}
      />
    </div>
  );
}
