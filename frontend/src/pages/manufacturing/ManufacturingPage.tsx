import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { NavLink, useSearchParams } from 'react-router';
import { Pencil, Plus, Warehouse } from 'lucide-react';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { clientPage, matches } from '../../lib/clientPage';
import { formatMoney, humanize } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { productionApi, type WorkCenter } from '../production/productionApi';
import { RoutingEditor } from './RoutingEditor';
import { WorkCenterDialog } from './WorkCenterDialog';
import '../production/production.css';
import { queryKeys } from '../../api/queryKeys';

type SortKey = 'code' | 'name' | 'center_type' | 'hourly_rate';

function sorted(rows: WorkCenter[], key: SortKey | undefined, dir: 'asc' | 'desc' | undefined): WorkCenter[] {
  if (!key) return rows;
  const f = dir === 'desc' ? -1 : 1;
  const v = (w: WorkCenter) => (key === 'hourly_rate' ? Number(w.hourly_rate) : w[key]);
  return [...rows].sort((a, b) => (v(a) === v(b) ? a.id - b.id : v(a) < v(b) ? -f : f));
}

function WorkCenters({ onEdit }: { onEdit: (w: WorkCenter) => void }) {
  const table = useTableState(['status']);
  const activeOnly = table.filters.status !== 'all';
  const list = useQuery({
    queryKey: queryKeys.production.workCenters(activeOnly),
    queryFn: ({ signal }) => productionApi.workCenters(activeOnly, signal),
    placeholderData: keepPreviousData,
  });
  const columns: Column<WorkCenter>[] = [
    { key: 'code', header: 'Code', shrink: true, sortable: true, render: (r) => <span className="mono">{r.code}</span> },
    {
      key: 'name',
      header: 'Work center',
      sortable: true,
      render: (r) => (
        <div className="cell-stack">
          <span className="cell-strong">{r.name}</span>
          {r.description && <span className="cell-sub">{r.description}</span>}
        </div>
      ),
    },
    { key: 'center_type', header: 'Type', shrink: true, sortable: true, render: (r) => humanize(r.center_type) },
    { key: 'hourly_rate', header: 'Hourly rate', shrink: true, align: 'right', sortable: true, render: (r) => <span className="num">{formatMoney(r.hourly_rate)}</span> },
    {
      key: 'printers',
      header: 'Printers',
      hideOnTablet: true,
      render: (r) => (r.printers.length ? r.printers.map((p) => p.code).join(', ') : '—'),
    },
    { key: 'active', header: 'Status', shrink: true, render: (r) => (r.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>) },
    {
      key: 'edit',
      header: 'Edit',
      shrink: true,
      render: (r) => <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${r.code}`} onClick={() => onEdit(r)} />,
    },
  ];
  const rows = list.data
    ? sorted(
        list.data.filter((w) => matches(table.search, w.code, w.name, w.description)),
        table.sort?.key as SortKey | undefined,
        table.sort?.dir,
      )
    : undefined;
  return (
    <DataTable
      caption="Work centers"
      columns={columns}
      rows={clientPage(rows, table.page, table.pageSize)}
      total={rows?.length}
      rowKey={(r) => r.id}
      page={table.page}
      pageSize={table.pageSize}
      onPageChange={table.setPage}
      onPageSizeChange={table.setPageSize}
      sort={table.sort}
      onSortChange={table.setSort}
      search={table.search}
      onSearchChange={table.setSearch}
      searchLabel="Search work centers"
      filters={
        <select className="input input--select" aria-label="Status" value={activeOnly ? '' : 'all'} onChange={(e) => table.setFilter('status', e.target.value)}>
          <option value="">Active only</option>
          <option value="all">Active and inactive</option>
        </select>
      }
      filtered={Boolean(table.search) || !activeOnly}
      onClearFilters={table.clearAll}
      loading={list.isPending}
      fetching={list.isFetching}
      error={list.error}
      onRetry={() => void list.refetch()}
      empty={{ icon: <Warehouse size={22} />, title: 'No work centers yet', description: 'Add the printer pools and stations your routings use.' }}
    />
  );
}

export function ManufacturingPage() {
  const [params] = useSearchParams();
  const tab = params.get('tab') === 'routings' ? 'routings' : 'work-centers';
  const [editing, setEditing] = useState<WorkCenter | null>(null);
  const [creating, setCreating] = useState(false);
  const centers = useQuery({
    queryKey: queryKeys.production.workCenters(true),
    queryFn: ({ signal }) => productionApi.workCenters(true, signal),
    enabled: tab === 'routings',
  });
  const tabLink = (to: string, name: typeof tab, label: string) => (
    <NavLink to={to} end className={() => `tab${tab === name ? ' is-active' : ''}`} aria-current={tab === name ? 'page' : undefined}>
      {label}
    </NavLink>
  );
  return (
    <div className="page">
      <PageHeader
        title="Manufacturing"
        description="Work centers, routings and the resources that do the work."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
            New work center
          </Button>
        }
      />
      <nav className="tabs" aria-label="Manufacturing sections">
        {tabLink('/admin/manufacturing', 'work-centers', 'Work centers')}
        {tabLink('/admin/manufacturing?tab=routings', 'routings', 'Routings')}
      </nav>
      {tab === 'routings' ? <RoutingEditor workCenters={centers.data ?? []} /> : <WorkCenters onEdit={setEditing} />}
      <WorkCenterDialog open={creating || editing !== null} editing={editing} onClose={() => {
          setCreating(false);
          setEditing(null);
        }} />
    </div>
  );
}
