import { useState } from 'react';
import { NavLink, useNavigate, useSearchParams } from 'react-router';
import { Factory, Plus } from 'lucide-react';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatQty, humanize } from '../../lib/format';
import { pickSort, useServerList } from '../../lib/useServerList';
import { CreateOrderDialog } from './CreateOrderDialog';
import { Scheduler } from './scheduler/Scheduler';
import { LIVE_INTERVAL, ORDER_STATUSES, ORDER_TONE, QC_TONE, productionApi, type ProductionOrderRow } from './productionApi';
import './production.css';

/** The sort keys `/production-orders/` accepts; without one the server keeps CONTRACT 5.12's order (priority, due date, newest). */
export const ORDER_SORTS = ['code', 'product_sku', 'status', 'priority', 'due_date', 'quantity_ordered', 'scheduled_start', 'created_at'] as const;

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

type Tab = 'orders' | 'scheduler';

const TABS: { id: Tab; label: string; to: string }[] = [
  { id: 'orders', label: 'Orders', to: '/admin/production' },
  { id: 'scheduler', label: 'Scheduler', to: '/admin/production?tab=scheduler' },
];

/** Production: the orders list, and the Scheduler's Gantt board (`?tab=scheduler`, issue 32). */
export function ProductionPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tab: Tab = params.get('tab') === 'scheduler' ? 'scheduler' : 'orders';
  const [creating, setCreating] = useState(false);
  return (
    <div className="page">
      <PageHeader
        title="Production"
        description="Work orders from draft to complete, operation by operation."
        actions={
          <Button variant={tab === 'orders' ? 'primary' : 'secondary'} icon={<Plus size={16} />} onClick={() => setCreating(true)}>
            New production order
          </Button>
        }
      />
      <nav className="tabs" aria-label="Production sections">
        {TABS.map((t) => (
          <NavLink key={t.id} to={t.to} end className={() => `tab${tab === t.id ? ' is-active' : ''}`} aria-current={tab === t.id ? 'page' : undefined}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      {tab === 'scheduler' ? <Scheduler /> : <OrdersList onCreate={() => setCreating(true)} />}
      <CreateOrderDialog open={creating} onClose={() => setCreating(false)} onCreated={(id) => navigate(`/admin/production/${id}`)} />
    </div>
  );
}

function OrdersList({ onCreate }: { onCreate: () => void }) {
  const navigate = useNavigate();
  const list = useServerList({
    area: 'production',
    filters: ['status'],
    // The server searches the order code and the product's SKU and name, and sorts over
    // every order (the shop floor's list can be thousands long).
    fetch: (r, signal) =>
      productionApi.list(
        {
          offset: r.offset,
          limit: r.limit,
          search: r.search ?? null,
          status: ORDER_STATUSES.find((s) => s === r.filters.status) ?? null,
          sort_by: pickSort(ORDER_SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    // A bare array: the route reports no total, so the pager offers "next" while pages are full.
    select: (rows: ProductionOrderRow[]) => ({ rows }),
    // Subscriptions keep the page live; this is the fallback.
    refetchInterval: LIVE_INTERVAL,
  });
  return (
      <DataTable
        caption="Production orders"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search order, product or sales order"
        searchLabel="Search production orders"
        filters={
          <select className="input input--select" aria-label="Status" value={list.table.filters.status ?? ''} onChange={(e) => list.table.setFilter('status', e.target.value)}>
            <option value="">Any status</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        }
        onRowClick={(r) => navigate(`/admin/production/${r.id}`)}
        rowLabel={(r) => `Open ${r.code}`}
        empty={{
          icon: <Factory size={22} />,
          title: 'No production orders yet',
          description: 'Create one for a product, or confirm a sales order that needs making.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={onCreate}>
              New production order
            </Button>
          ),
        }}
      />
  );
}
