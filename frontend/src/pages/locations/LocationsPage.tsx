import { useQuery } from '@tanstack/react-query';
import { MapPin } from 'lucide-react';
import { locationsApi } from '../../api/endpoints';
import type { Location } from '../../api/types';
import { DataTable, sortRows, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { clientPage, matches } from '../../lib/clientPage';
import { humanize } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { isMissingRoute, NotYetAvailable } from '../NotYetAvailable';

export function LocationsPage() {
  const table = useTableState(['status']);
  const includeInactive = table.filters.status === 'all';
  const list = useQuery({
    queryKey: ['locations', 'list', includeInactive],
    queryFn: ({ signal }) => locationsApi.list(includeInactive, signal),
  });
  if (isMissingRoute(list.error)) return <NotYetAvailable area="locations" />;

  const byId = new Map((list.data ?? []).map((l) => [l.id, l]));
  const filtered = list.data?.filter((l) => matches(table.search, l.code, l.name, l.type));
  const columns: Column<Location>[] = [
    { key: 'code', header: 'Code', shrink: true, sortValue: (r) => r.code, render: (r) => <span className="mono">{r.code}</span> },
    { key: 'name', header: 'Name', sortValue: (r) => r.name, render: (r) => <span className="cell-strong">{r.name}</span> },
    { key: 'type', header: 'Type', shrink: true, sortValue: (r) => r.type, render: (r) => <Badge tone="info">{humanize(r.type)}</Badge> },
    { key: 'parent', header: 'Inside', render: (r) => (r.parent_id ? (byId.get(r.parent_id)?.name ?? `#${r.parent_id}`) : '—') },
    { key: 'active', header: 'Status', shrink: true, render: (r) => (r.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>) },
  ];

  return (
    <div className="page">
      <PageHeader title="Locations" description="Warehouses, shelves and bins where stock is kept." />
      <DataTable
        caption="Locations"
        columns={columns}
        rows={clientPage(sortRows(filtered, columns, table.sort), table.page, table.pageSize)}
        total={filtered?.length}
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
        searchPlaceholder="Search code, name or type"
        searchLabel="Search locations"
        filters={
          <select className="input input--select" aria-label="Status" value={includeInactive ? 'all' : ''} onChange={(e) => table.setFilter('status', e.target.value)}>
            <option value="">Active only</option>
            <option value="all">Active and inactive</option>
          </select>
        }
        filtered={Boolean(table.search || includeInactive)}
        onClearFilters={table.clearAll}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{ icon: <MapPin size={22} />, title: 'No locations yet', description: 'A MAIN warehouse is created when stock first arrives.' }}
      />
    </div>
  );
}
