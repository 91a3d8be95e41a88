import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Factory, Plus } from 'lucide-react';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { clientPage } from '../../lib/clientPage';
import { formatQty, humanize } from '../../lib/format';
import { useTableState, type SortState } from '../../lib/useTableState';
import { isMissingRoute, NotYetAvailable } from '../NotYetAvailable';
import { CreateOrderDialog } from './CreateOrderDialog';
import { LIVE_INTERVAL, ORDER_STATUSES, ORDER_TONE, QC_TONE, productionApi, type OrderStatus, type ProductionOrderRow } from './productionApi';
import './production.css';

/** The route answers at most this many rows and has no total; sorting and paging are done here over them. */
export const LIST_CAP = 500;

const columns: Column<ProductionOrderRow>[] = [
  { key: 'code', header: 'Order', shrink: true, sortable: true, render: (r) => <span className="mono">{r.code}</span> },
  {
    key: 'product_sku',
    header: 'Product',
    sortable: true,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.product_sku ?? `#${r.product_id}`}</span>
        {r.product_name && <span className="cell-sub">{r.product_name}</span>}
      </div>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    shrink: true,
    sortable: true,
    render: (r) => (
      <div className="cell-stack cell-stack--start">
        <Badge tone={ORDER_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge>
        {r.qc_status !== 'not_required' && <Badge tone={QC_TONE[r.qc_status] ?? 'neutral'}>QC {humanize(r.qc_status).toLowerCase()}</Badge>}
      </div>
    ),
  },
  {
    key: 'quantity_ordered',
    header: 'Progress',
    shrink: true,
    sortable: true,
    render: (r) => (
      <div className="cell-stack">
        <span className="num">
          {formatQty(r.quantity_completed)} / {formatQty(r.quantity_ordered)}
        </span>
        <span className="wo-progress" aria-hidden="true">
          <span style={{ width: `${Math.min(100, Math.max(0, r.completion_percent))}%` }} />
        </span>
      </div>
    ),
  },
  { key: 'current_operation', header: 'Operation', hideOnTablet: true, render: (r) => r.current_operation ?? '—' },
  { key: 'priority', header: 'Priority', shrink: true, align: 'right', sortable: true, render: (r) => <span className="num">{r.priority}</span> },
  { key: 'due_date', header: 'Due', shrink: true, sortable: true, render: (r) => r.due_date ?? '—' },
  { key: 'sales_order_code', header: 'Sales order', shrink: true, hideOnTablet: true, render: (r) => r.sales_order_code ?? '—' },
];

type SortKey = 'code' | 'product_sku' | 'status' | 'quantity_ordered' | 'priority' | 'due_date';
const SORT_VALUE: Record<SortKey, (r: ProductionOrderRow) => string | number | null> = {
  code: (r) => r.code,
  product_sku: (r) => r.product_sku,
  status: (r) => ORDER_STATUSES.indexOf(r.status),
  quantity_ordered: (r) => Number(r.quantity_ordered),
  priority: (r) => r.priority,
  due_date: (r) => r.due_date,
};

/** The rows in the chosen order (nulls last), or the server's (priority, due date, newest) when none is chosen. */
export function sortOrders(rows: ProductionOrderRow[], sort: SortState | null): ProductionOrderRow[] {
  const value = sort && SORT_VALUE[sort.key as SortKey];
  if (!sort || !value) return rows;
  const dir = sort.dir === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === y) return a.id - b.id;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * dir;
  });
}

export function ProductionPage() {
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const table = useTableState(['status']);
  const status = ORDER_STATUSES.find((s) => s === table.filters.status) as OrderStatus | undefined;
  const request = { status, search: table.search || undefined, limit: LIST_CAP };
  const list = useQuery({
    queryKey: ['production', 'list', request],
    queryFn: ({ signal }) => productionApi.list(request, signal),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_INTERVAL,
  });
  if (isMissingRoute(list.error)) return <NotYetAvailable area="production" />;
  const rows = list.data ? sortOrders(list.data, table.sort) : undefined;
  return (
    <div className="page">
      <PageHeader
        title="Production"
        description="Work orders from draft to complete, operation by operation."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
            New production order
          </Button>
        }
      />
      {rows && rows.length >= LIST_CAP && (
        <div className="alert alert--info" role="status">
          Showing the first {LIST_CAP} orders; narrow the list with the status filter or search.
        </div>
      )}
      <DataTable
        caption="Production orders"
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
        searchPlaceholder="Search order, product or sales order"
        searchLabel="Search production orders"
        filters={
          <select className="input input--select" aria-label="Status" value={table.filters.status ?? ''} onChange={(e) => table.setFilter('status', e.target.value)}>
            <option value="">Any status</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        }
        filtered={Boolean(table.search) || Boolean(table.filters.status)}
        onClearFilters={table.clearAll}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        onRowClick={(r) => navigate(`/admin/production/${r.id}`)}
        rowLabel={(r) => `Open ${r.code}`}
        empty={{
          icon: <Factory size={22} />,
          title: 'No production orders yet',
          description: 'Create one for a product, or confirm a sales order that needs making.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
              New production order
            </Button>
          ),
        }}
      />
      <CreateOrderDialog open={creating} onClose={() => setCreating(false)} onCreated={(id) => navigate(`/admin/production/${id}`)} />
    </div>
  );
}
