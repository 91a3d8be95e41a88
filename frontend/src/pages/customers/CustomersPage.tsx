import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { customersApi } from '../../api/endpoints';
import type { CustomerListRow } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, formatMoney, humanize, toNumber } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { isMissingRoute, NotYetAvailable } from '../NotYetAvailable';

const columns: Column<CustomerListRow>[] = [
  {
    key: 'name',
    header: 'Customer',
    sortValue: (r) => r.full_name ?? r.email,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.full_name || [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email}</span>
        <span className="cell-sub">{r.email}</span>
      </div>
    ),
  },
  { key: 'customer_number', header: 'Number', shrink: true, render: (r) => <span className="mono">{r.customer_number ?? '—'}</span> },
  { key: 'company_name', header: 'Company', hideOnTablet: true, sortValue: (r) => r.company_name, render: (r) => r.company_name ?? '—' },
  { key: 'phone', header: 'Phone', shrink: true, hideOnTablet: true, render: (r) => r.phone ?? '—' },
  { key: 'order_count', header: 'Orders', align: 'right', shrink: true, sortValue: (r) => r.order_count, render: (r) => <span className="num">{r.order_count}</span> },
  { key: 'total_spent', header: 'Total spent', align: 'right', shrink: true, sortValue: (r) => toNumber(r.total_spent), render: (r) => <span className="num">{formatMoney(r.total_spent)}</span> },
  { key: 'last_order_date', header: 'Last order', shrink: true, hideOnTablet: true, render: (r) => formatDateTime(r.last_order_date) },
  { key: 'status', header: 'Status', shrink: true, render: (r) => <Badge tone={r.status === 'active' ? 'success' : 'neutral'}>{humanize(r.status)}</Badge> },
];

export function CustomersPage() {
  const table = useTableState(['status']);
  const includeInactive = table.filters.status === 'all';
  const query = { skip: table.offset, limit: table.pageSize, search: table.search || undefined, include_inactive: includeInactive };
  const list = useQuery({
    queryKey: ['customers', 'list', query],
    queryFn: ({ signal }) => customersApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
  if (isMissingRoute(list.error)) return <NotYetAvailable area="customers" />;

  return (
    <div className="page">
      <PageHeader title="Customers" description="The people and companies you sell to." />
      <DataTable
        caption="Customers"
        columns={columns}
        rows={list.data}
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
        searchPlaceholder="Search name, email, company, phone or number"
        searchLabel="Search customers"
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
        empty={{ icon: <Users size={22} />, title: 'No customers yet', description: 'Customers appear here when you import them or when orders come in.' }}
      />
    </div>
  );
}
