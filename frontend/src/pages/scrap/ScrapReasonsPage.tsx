import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Recycle } from 'lucide-react';
import { scrapReasonsApi } from '../../api/endpoints';
import type { ScrapReason } from '../../api/model';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { clientPage, matches } from '../../lib/clientPage';
import { useTableState } from '../../lib/useTableState';
import { queryKeys } from '../../api/queryKeys';

const columns: Column<ScrapReason>[] = [
  { key: 'sequence', header: '#', shrink: true, align: 'right', sortable: true, render: (r) => <span className="num muted">{r.sequence}</span> },
  { key: 'code', header: 'Code', shrink: true, sortable: true, render: (r) => <span className="mono">{r.code}</span> },
  { key: 'name', header: 'Name', sortable: true, render: (r) => <span className="cell-strong">{r.name}</span> },
  { key: 'description', header: 'Description', render: (r) => <span className="muted">{r.description ?? '—'}</span> },
];

export function ScrapReasonsPage() {
  const table = useTableState();
  // The route answers the whole (short) list, sorted on the server; search and pages are local.
  const sort = { sort_by: table.sort?.key, sort_order: table.sort?.dir };
  const list = useQuery({
    queryKey: queryKeys.scrapReasons.list(sort),
    queryFn: ({ signal }) => scrapReasonsApi.list(sort, signal),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.details.filter((r) => matches(table.search, r.code, r.name, r.description));
  return (
    <div className="page">
      <PageHeader title="Scrap Reasons" description="The reasons operators choose when they scrap a part." />
      <DataTable
        caption="Scrap reasons"
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
        searchLabel="Search scrap reasons"
        filtered={Boolean(table.search)}
        onClearFilters={table.clearAll}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{ icon: <Recycle size={22} />, title: 'No scrap reasons', description: 'Add the reasons your team records when a part fails.' }}
      />
    </div>
  );
}
