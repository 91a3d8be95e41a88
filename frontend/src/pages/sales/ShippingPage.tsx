import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { PackageCheck, Truck } from 'lucide-react';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { useTableState } from '../../lib/useTableState';
import { ShipDialog } from './ShipDialog';
import { FULFILLMENT_TONE, ORDER_TONE, salesApi, type SalesOrderRow, type Shipment } from './salesApi';
import './sales.css';
import { queryKeys } from '../../api/queryKeys';

const SHIPMENT_PAGE = 25;

/** Orders waiting to ship (status ready to ship, or every line allocated), then what has shipped. */
export function ShippingPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const [shipping, setShipping] = useState<SalesOrderRow | null>(null);
  const [shipPage, setShipPage] = useState(1);
  const queue = useTableState([]);
  const ready = useQuery({
    queryKey: queryKeys.shipping.queue(),
    queryFn: async ({ signal }) => {
      const [byStatus, byState] = await Promise.all([
        salesApi.list({ status_filter: 'ready_to_ship', limit: 100, sort_by: 'due_date', sort_order: 'asc' }, signal),
        salesApi.list({ fulfillment_state: 'ready_to_ship', limit: 100, sort_by: 'due_date', sort_order: 'asc' }, signal),
      ]);
      const seen = new Set<number>();
      return [...byStatus, ...byState].filter((o) => {
        if (seen.has(o.id) || !['confirmed', 'in_production', 'ready_to_ship'].includes(o.status) || o.shipped_at) return false;
        seen.add(o.id);
        return true;
      });
    },
  });
  const shipments = useQuery({
    queryKey: queryKeys.shipping.list({ page: shipPage }),
    queryFn: ({ signal }) => salesApi.shipments({ limit: SHIPMENT_PAGE, offset: (shipPage - 1) * SHIPMENT_PAGE }, signal),
    placeholderData: keepPreviousData,
  });

  const queueColumns: Column<SalesOrderRow>[] = [
    { key: 'order_number', header: 'Order', shrink: true, render: (r) => <span className="mono">{r.order_number}</span> },
    { key: 'customer_name', header: 'Customer', render: (r) => r.customer_name ?? 'No customer' },
    { key: 'status', header: 'Status', shrink: true, render: (r) => <Badge tone={ORDER_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge> },
    { key: 'fulfillment_state', header: 'Fulfillment', shrink: true, render: (r) => <Badge tone={FULFILLMENT_TONE[r.fulfillment_state] ?? 'neutral'}>{humanize(r.fulfillment_state)}</Badge> },
    { key: 'total', header: 'Total', align: 'right', shrink: true, render: (r) => <span className="num">{formatMoney(r.grand_total)}</span> },
    { key: 'due_date', header: 'Due', shrink: true, render: (r) => r.due_date ?? '—' },
    {
      key: 'ship',
      header: 'Ship',
      shrink: true,
      render: (r) =>
        admin ? (
          <Button
            size="sm"
            variant="primary"
            icon={<Truck size={14} />}
            onClick={(e) => {
              e.stopPropagation();
              setShipping(r);
            }}
          >
            Ship
          </Button>
        ) : null,
    },
  ];
  const shipmentColumns: Column<Shipment>[] = [
    { key: 'shipment_number', header: 'Shipment', shrink: true, render: (r) => <span className="mono">{r.shipment_number}</span> },
    {
      key: 'order_number',
      header: 'Order',
      shrink: true,
      render: (r) => (
        <Link to={`/admin/orders/${r.sales_order_id}`} className="mono">
          {r.order_number ?? `#${r.sales_order_id}`}
        </Link>
      ),
    },
    { key: 'customer_name', header: 'Customer', render: (r) => r.customer_name ?? '—' },
    { key: 'carrier', header: 'Carrier', shrink: true, render: (r) => `${r.carrier} ${r.service}` },
    { key: 'tracking_number', header: 'Tracking', render: (r) => <span className="mono">{r.tracking_number ?? '—'}</span> },
    { key: 'cost_of_goods', header: 'COGS', align: 'right', shrink: true, hideOnTablet: true, render: (r) => <span className="num">{formatMoney(r.cost_of_goods)}</span> },
    { key: 'shipped_at', header: 'Shipped', shrink: true, render: (r) => formatDateTime(r.shipped_at) },
  ];
  return (
    <div className="page">
      <PageHeader title="Shipping" description="Orders ready to go out, and what has shipped." />
      <section aria-labelledby="ship-queue" className="page">
        <h2 id="ship-queue" className="section-title">
          Ready to ship
        </h2>
        <DataTable
          caption="Ready to ship"
          columns={queueColumns}
          rows={ready.data?.slice((queue.page - 1) * queue.pageSize, queue.page * queue.pageSize)}
          total={ready.data?.length}
          rowKey={(r) => r.id}
          page={queue.page}
          pageSize={queue.pageSize}
          onPageChange={queue.setPage}
          loading={ready.isPending}
          fetching={ready.isFetching}
          error={ready.error}
          onRetry={() => void ready.refetch()}
          onRowClick={(r) => navigate(`/admin/orders/${r.id}`)}
          rowLabel={(r) => `Open ${r.order_number}`}
          empty={{ icon: <PackageCheck size={22} />, title: 'Nothing to ship', description: 'Orders appear here when every line is allocated.' }}
        />
      </section>
      <section aria-labelledby="ship-list" className="page">
        <h2 id="ship-list" className="section-title">
          Shipments
        </h2>
        <DataTable
          caption="Shipments"
          columns={shipmentColumns}
          rows={shipments.data?.items}
          total={shipments.data?.total}
          rowKey={(r) => r.id}
          page={shipPage}
          pageSize={SHIPMENT_PAGE}
          onPageChange={setShipPage}
          loading={shipments.isPending}
          fetching={shipments.isFetching}
          error={shipments.error}
          onRetry={() => void shipments.refetch()}
          empty={{ icon: <Truck size={22} />, title: 'No shipments yet', description: 'Ship a ready order to see it here.' }}
        />
      </section>
      <ShipDialog order={shipping} open={shipping !== null} onClose={() => setShipping(null)} />
    </div>
  );
}
