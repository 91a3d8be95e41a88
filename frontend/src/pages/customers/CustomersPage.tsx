import type { SortBy, CustomerListQuery } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { useState } from 'react';
import { Pencil, Plus, Users } from 'lucide-react';
import { customersApi } from '../../api/endpoints';
import type { CustomerList, CustomerListRow } from '../../api/model';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { CustomerFormDialog } from './CustomerFormDialog';
import { CustomerOrdersDialog } from './CustomerOrdersDialog';

/** What the server sorts this list by. */
const SORTS = ['customer_number', 'email', 'first_name', 'last_name', 'company_name', 'status', 'created_at', 'updated_at'] as const satisfies readonly SortBy<CustomerListQuery>[];

/** How each payment term reads. */
const TERMS: Record<CustomerListRow['payment_terms'], string> = {
  cod: 'Cash on delivery',
  prepay: 'Prepay',
  net15: 'Net 15',
  net30: 'Net 30',
  net60: 'Net 60',
  card_on_file: 'Card on file',
};

function customerColumns(showOrders: (c: CustomerListRow) => void, edit: (c: CustomerListRow) => void): Column<CustomerListRow>[] {
  return [
  {
    key: 'full_name',
    sortKey: 'last_name',
    header: 'Customer',
    sortable: true,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.full_name || [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email}</span>
        <span className="cell-sub">{r.email}</span>
      </div>
    ),
  },
  { key: 'customer_number', header: 'Number', shrink: true, sortable: true, render: (r) => <span className="mono">{r.customer_number ?? '—'}</span> },
  { key: 'company_name', header: 'Company', hideOnTablet: true, sortable: true, render: (r) => r.company_name ?? '—' },
  { key: 'phone', header: 'Phone', shrink: true, hideOnTablet: true, render: (r) => r.phone ?? '—' },
  {
    key: 'order_count',
    header: 'Orders',
    align: 'right',
    shrink: true,
    render: (r) =>
      r.order_count > 0 ? (
        <button type="button" className="link-btn num" onClick={() => showOrders(r)} aria-label={`Orders of ${r.full_name || r.email}`}>
          {r.order_count}
        </button>
      ) : (
        <span className="num">0</span>
      ),
  },
  { key: 'total_spent', header: 'Total spent', align: 'right', shrink: true, render: (r) => <span className="num">{formatMoney(r.total_spent)}</span> },
  {
    key: 'outstanding_balance',
    header: 'Owed',
    align: 'right',
    shrink: true,
    render: (r) => {
      const owed = Number(r.outstanding_balance);
      const over = r.credit_limit != null && owed > Number(r.credit_limit);
      return (
        <span className="cell-stack">
          <span className={`num${owed > 0 ? ' cell-strong' : ''}`}>{formatMoney(r.outstanding_balance)}</span>
          {r.credit_limit != null && (
            <span className={`cell-sub${over ? ' text-danger' : ''}`} title={over ? 'Over the credit limit' : undefined}>
              limit {formatMoney(r.credit_limit)}
            </span>
          )}
        </span>
      );
    },
  },
  { key: 'payment_terms', header: 'Terms', shrink: true, hideOnTablet: true, render: (r) => <Badge tone={r.approved_for_terms ? 'info' : 'neutral'}>{TERMS[r.payment_terms]}</Badge> },
  { key: 'last_order_date', header: 'Last order', shrink: true, hideOnTablet: true, render: (r) => formatDateTime(r.last_order_date) },
  { key: 'status', header: 'Status', shrink: true, render: (r) => <Badge tone={r.status === 'active' ? 'success' : 'neutral'}>{humanize(r.status)}</Badge> },
  {
    key: 'actions',
    header: 'Actions',
    shrink: true,
    align: 'right',
    render: (r) => (
      <span className="row-actions">
        <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${r.full_name || r.email}`} onClick={() => edit(r)} />
      </span>
    ),
  },
  ];
}

export function CustomersPage() {
  const [ordersOf, setOrdersOf] = useState<CustomerListRow | null>(null);
  const [editing, setEditing] = useState<{ customer: CustomerListRow | null } | null>(null);
  const list = useServerList({
    area: 'customers',
    filters: ['status'],
    fetch: (r, signal) =>
      customersApi.list(
        {
          skip: r.offset,
          limit: r.limit,
          search: r.search,
          include_inactive: r.filters.status === 'all',
          sort_by: pickSort(SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    // A bare array: the route reports no total, so the pager offers "next" while pages are full.
    select: (rows: CustomerList) => ({ rows }),
  });
  const includeInactive = list.table.filters.status === 'all';

  return (
    <div className="page">
      <PageHeader
        title="Customers"
        description="The people and companies you sell to."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing({ customer: null })}>
            Add customer
          </Button>
        }
      />
      <DataTable
        caption="Customers"
        columns={customerColumns(setOrdersOf, (customer) => setEditing({ customer }))}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search name, email, company, phone or number"
        searchLabel="Search customers"
        filters={
          <select className="input input--select" aria-label="Status" value={includeInactive ? 'all' : ''} onChange={(e) => list.table.setFilter('status', e.target.value)}>
            <option value="">Active only</option>
            <option value="all">Active and inactive</option>
          </select>
        }
        empty={{ icon: <Users size={22} />, title: 'No customers yet', description: 'Customers appear here when you import them or when orders come in.' }}
      />
      <CustomerOrdersDialog customer={ordersOf} onClose={() => setOrdersOf(null)} />
      <CustomerFormDialog key={editing?.customer?.id ?? 'new'} open={editing !== null} customer={editing?.customer ?? null} onClose={() => setEditing(null)} />
    </div>
  );
}
