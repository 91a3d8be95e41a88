import type { SortBy, LocationListQuery } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { MapPin } from 'lucide-react';
import { locationsApi } from '../../api/endpoints';
import type { Location, LocationList } from '../../api/model';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';

/** What the server sorts this list by. */
const SORTS = ['code', 'name', 'type', 'parent_id', 'created_at', 'updated_at'] as const satisfies readonly SortBy<LocationListQuery>[];

export function LocationsPage() {
  const list = useServerList({
    area: 'locations',
    filters: ['status'],
    fetch: (r, signal) =>
      locationsApi.list(
        {
          limit: r.limit,
          offset: r.offset,
          search: r.search,
          include_inactive: r.filters.status === 'all',
          sort_by: pickSort(SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    // A bare array: no total, so the pager offers "next" while pages are full.
    select: (rows: LocationList) => ({ rows }),
  });
  const includeInactive = list.table.filters.status === 'all';

  // Parents on the same page are shown by name, others by id.
  const byId = new Map((list.query.data?.rows ?? []).map((l) => [l.id, l]));
  const columns: Column<Location>[] = [
    { key: 'code', header: 'Code', shrink: true, sortable: true, render: (r) => <span className="mono">{r.code}</span> },
    { key: 'name', header: 'Name', sortable: true, render: (r) => <span className="cell-strong">{r.name}</span> },
    { key: 'type', header: 'Type', shrink: true, sortable: true, render: (r) => <Badge tone="info">{humanize(r.type)}</Badge> },
    { key: 'parent', header: 'Inside', render: (r) => (r.parent_id ? (byId.get(r.parent_id)?.name ?? `#${r.parent_id}`) : '—') },
    { key: 'active', header: 'Status', shrink: true, render: (r) => (r.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>) },
  ];

  return (
    <div className="page">
      <PageHeader title="Locations" description="Warehouses, shelves and bins where stock is kept." />
      <DataTable
        caption="Locations"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search code, name or type"
        searchLabel="Search locations"
        filters={
          <select
            className="input input--select"
            aria-label="Status"
            value={includeInactive ? 'all' : ''}
            onChange={(e) => list.table.setFilter('status', e.target.value)}
          >
            <option value="">Active only</option>
            <option value="all">Active and inactive</option>
          </select>
        }
        empty={{ icon: <MapPin size={22} />, title: 'No locations yet', description: 'A MAIN warehouse is created when stock first arrives.' }}
      />
    </div>
  );
}
