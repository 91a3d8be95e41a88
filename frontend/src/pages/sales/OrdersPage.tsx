import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FileUp, Plus, ShoppingCart } from 'lucide-react';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { pickSort, useServerList } from '../../lib/useServerList';
import { CreateSalesOrderDialog } from './CreateSalesOrderDialog';
import { FULFILLMENT_STATES, FULFILLMENT_TONE, ORDER_STATUSES, ORDER_TONE, PAYMENT_TONE, salesApi, type SalesOrderRow } from './salesApi';
import './sales.css';

/** The sort keys `/sales-orders/` accepts (spec 3.4). */
export const ORDER_SORTS = ['created_at', 'due_date', 'total_amount', 'fulfillment_priority', 'fulfillment_percent', 'customer_name'] as const;

const columns: Column<SalesOrderRow>[] = [
  { key: 'order_number', header: 'Order', shrink: true, render: (r) => <span className="mono">{r.order_number}</span> },
  {
    key: 'customer_name',
    header: 'Customer',
    sortable: true,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.customer_name ?? 'No customer'}</span>
        <span className="cell-sub">
          {r.lines.length} line{r.lines.length === 1 ? '' : 's'}
          {r.lines[0] ? ` · ${r.lines[0].product_sku ?? r.lines[0].product_name ?? ''}${r.lines.length > 1 ? ' …' : ''}` : ''}
        </span>
      </div>
    ),
  },
  { key: 'status', header: 'Status', shrink: true, render: (r) => <Badge tone={ORDER_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge> },
  {
    key: 'fulfillment_priority',
    header: 'Fulfillment',
    shrink: true,
    sortable: true,
    render: (r) => (
      <div className="cell-stack cell-stack--start">
        <Badge tone={FULFILLMENT_TONE[r.fulfillment_state] ?? 'neutral'}>{humanize(r.fulfillment_state)}</Badge>
        <span className="cell-sub">
          {r.fulfillment.lines_ready}/{r.fulfillment.lines_total} lines ready
        </span>
      </div>
    ),
  },
  {
    key: 'fulfillment_percent',
    header: 'Ready',
    shrink: true,
    sortable: true,
    hideOnTablet: true,
    render: (r) => (
      <span className="wo-progress" aria-label={`${Number(r.fulfillment_percent)}% ready`}>
        <span style={{ width: `${Math.min(100, Math.max(0, Number(r.fulfillment_percent)))}%` }} />
      </span>
    ),
  },
  { key: 'payment_status', header: 'Payment', shrink: true, hideOnTablet: true, render: (r) => <Badge tone={PAYMENT_TONE[r.payment_status] ?? 'neutral'}>{humanize(r.payment_status)}</Badge> },
  { key: 'total_amount', header: 'Total', align: 'right', shrink: true, sortable: true, render: (r) => <span className="num">{formatMoney(r.grand_total)}</span> },
  { key: 'due_date', header: 'Due', shrink: true, sortable: true, render: (r) => r.due_date ?? '—' },
  { key: 'created_at', header: 'Created', shrink: true, sortable: true, hideOnTablet: true, render: (r) => formatDateTime(r.created_at) },
];

export function OrdersPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  const [creating, setCreating] = useState(false);
  const list = useServerList({
    area: 'sales',
    filters: ['status', 'fulfillment'],
    // `q` in the URL; the server searches order number, customer name and e-mail, product,
    // tracking number and the marketplace's order number.
    fetch: (r, signal) =>
      salesApi.list(
        {
          skip: r.offset,
          limit: r.limit,
          search: r.search ?? null,
          status_filter: ORDER_STATUSES.find((s) => s === r.filters.status) ?? null,
          fulfillment_state: FULFILLMENT_STATES.find((s) => s === r.filters.fulfillment) ?? null,
          sort_by: pickSort(ORDER_SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    // A bare array: the route reports no total, so the pager offers "next" while pages are full.
    select: (rows: SalesOrderRow[]) => ({ rows }),
  });
  const newOrder = (
    <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
      New order
    </Button>
  );
  const headerActions = (
    <>
      {isAdmin(user) && (
        <Link className="btn btn--secondary btn--md" to="/admin/orders/import">
          <FileUp size={16} aria-hidden="true" />
          <span className="btn__label">Import orders</span>
        </Link>
      )}
      {newOrder}
    </>
  );
  return (
    <div className="page">
      <PageHeader title="Orders" description="Sales orders from pending to shipped, with what is ready to go." actions={headerActions} />
      <DataTable
        caption="Sales orders"
        columns={columns}
        {...list.tableProps}
        pageSizes={[25, 50, 100]}
        searchLabel="Search orders"
        searchPlaceholder="Order, customer, product, tracking…"
        rowKey={(r) => r.id}
        filters={
          <>
            <select className="input input--select" aria-label="Status" value={list.table.filters.status ?? ''} onChange={(e) => list.table.setFilter('status', e.target.value)}>
              <option value="">Any status</option>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {humanize(s)}
                </option>
              ))}
            </select>
            <select
              className="input input--select"
              aria-label="Fulfillment"
              value={list.table.filters.fulfillment ?? ''}
              onChange={(e) => list.table.setFilter('fulfillment', e.target.value)}
            >
              <option value="">Any fulfillment</option>
              {FULFILLMENT_STATES.map((s) => (
                <option key={s} value={s}>
                  {humanize(s)}
                </option>
              ))}
            </select>
          </>
        }
        onRowClick={(r) => navigate(`/admin/orders/${r.id}`)}
        rowLabel={(r) => `Open ${r.order_number}`}
        empty={{
          icon: <ShoppingCart size={22} />,
          title: 'No orders yet',
          description: 'Create one here, convert a quote, or import orders from a marketplace.',
          action: newOrder,
        }}
      />
      <CreateSalesOrderDialog open={creating} onClose={() => setCreating(false)} onCreated={(id) => navigate(`/admin/orders/${id}`)} />
    </div>
  );
}
