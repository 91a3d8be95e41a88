import type { SortBy, VendorListQuery } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { NavLink, useSearchParams } from 'react-router';
import { ShoppingBag, Store } from 'lucide-react';
import { purchaseOrdersApi, vendorsApi } from '../../api/endpoints';
import type { PurchaseOrderList, PurchaseOrderRow, VendorList, VendorListRow } from '../../api/model';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatMoney, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { NotYetAvailable } from '../NotYetAvailable';
import { useState } from 'react';
import { Plus } from 'lucide-react';
import { Button } from '../../components/Button';
import { LowStock } from './LowStock';
import { PO_TONE, PoDetailModal } from './PoDetailModal';
import { PoFormModal } from './PoFormModal';
import { VendorDetailModal } from './VendorDetailModal';
import './purchasing.css';

/** What the server sorts the vendor list by. */
const VENDOR_SORTS = ['code', 'name', 'contact_name', 'email', 'city', 'country', 'lead_time_days', 'rating', 'created_at', 'updated_at'] as const satisfies readonly SortBy<VendorListQuery>[];

const PO_STATUSES = ['draft', 'ordered', 'shipped', 'received', 'closed', 'cancelled'];

const poColumns: Column<PurchaseOrderRow>[] = [
  { key: 'po_number', header: 'PO', shrink: true, sortable: true, render: (r) => <span className="mono">{r.po_number}</span> },
  { key: 'vendor_name', header: 'Vendor', sortable: true, render: (r) => <span className="cell-strong">{r.vendor_name}</span> },
  { key: 'status', header: 'Status', shrink: true, sortable: true, render: (r) => <Badge tone={PO_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge> },
  { key: 'order_date', header: 'Ordered', shrink: true, sortable: true, render: (r) => r.order_date ?? '—' },
  { key: 'expected_date', header: 'Expected', shrink: true, hideOnTablet: true, sortable: true, render: (r) => r.expected_date ?? '—' },
  { key: 'line_count', header: 'Lines', align: 'right', shrink: true, hideOnTablet: true, render: (r) => <span className="num">{r.line_count}</span> },
  { key: 'total_amount', header: 'Total', align: 'right', shrink: true, sortable: true, render: (r) => <span className="num">{formatMoney(r.total_amount)}</span> },
];

const vendorColumns: Column<VendorListRow>[] = [
  { key: 'code', header: 'Code', shrink: true, sortable: true, render: (r) => <span className="mono">{r.code}</span> },
  {
    key: 'name',
    header: 'Vendor',
    sortable: true,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.name}</span>
        {r.contact_name && <span className="cell-sub">{r.contact_name}</span>}
      </div>
    ),
  },
  { key: 'email', header: 'Email', hideOnTablet: true, render: (r) => r.email ?? '—' },
  { key: 'phone', header: 'Phone', shrink: true, render: (r) => r.phone ?? '—' },
  { key: 'where', header: 'Location', hideOnTablet: true, render: (r) => [r.city, r.state].filter(Boolean).join(', ') || '—' },
  { key: 'po_count', header: 'POs', align: 'right', shrink: true, render: (r) => <span className="num">{r.po_count}</span> },
  { key: 'is_active', header: 'Status', shrink: true, render: (r) => (r.is_active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>) },
];

function PurchaseOrders({ onOpen }: { onOpen: (id: number) => void }) {
  const list = useServerList({
    area: 'purchase-orders',
    filters: ['status'],
    fetch: (r, signal) =>
      purchaseOrdersApi.list(
        { offset: r.offset, limit: r.limit, search: r.search, status: r.filters.status || undefined, sort_by: r.sort_by, sort_order: r.sort_order },
        signal,
      ),
    select: (data: PurchaseOrderList) => ({ rows: data.items, total: data.pagination.total }),
  });
  const { table } = list;
  if (list.missing) return <NotYetAvailable area="purchasing" embedded />;
  return (
    <DataTable
      caption="Purchase orders"
      columns={poColumns}
      {...list.tableProps}
      rowKey={(r) => r.id}
      onRowClick={(r) => onOpen(r.id)}
      rowLabel={(r) => `Open ${r.po_number}`}
      searchPlaceholder="Search by PO number"
      searchLabel="Search purchase orders"
      filters={
        <select className="input input--select" aria-label="Status" value={table.filters.status ?? ''} onChange={(e) => table.setFilter('status', e.target.value)}>
          <option value="">Any status</option>
          {PO_STATUSES.map((s) => (
            <option key={s} value={s}>
              {humanize(s)}
            </option>
          ))}
        </select>
      }
      empty={{ icon: <ShoppingBag size={22} />, title: 'No purchase orders yet', description: 'Purchase orders you raise appear here.' }}
    />
  );
}

function Vendors({ onOpen }: { onOpen: (id: number) => void }) {
  const list = useServerList({
    area: 'vendors',
    filters: ['status'],
    fetch: (r, signal) =>
      vendorsApi.list(
        { offset: r.offset, limit: r.limit, search: r.search, active_only: r.filters.status !== 'all', sort_by: pickSort(VENDOR_SORTS, r.sort_by), sort_order: r.sort_order },
        signal,
      ),
    select: (data: VendorList) => ({ rows: data.items, total: data.pagination.total }),
  });
  const { table } = list;
  const includeInactive = table.filters.status === 'all';
  if (list.missing) return <NotYetAvailable area="purchasing" embedded />;
  return (
    <DataTable
      caption="Vendors"
      columns={vendorColumns}
      {...list.tableProps}
      rowKey={(r) => r.id}
      onRowClick={(r) => onOpen(r.id)}
      rowLabel={(r) => `Open ${r.name}`}
      searchPlaceholder="Search vendors"
      searchLabel="Search vendors"
      filters={
        <select className="input input--select" aria-label="Status" value={includeInactive ? 'all' : ''} onChange={(e) => table.setFilter('status', e.target.value)}>
          <option value="">Active only</option>
          <option value="all">Active and inactive</option>
        </select>
      }
      empty={{ icon: <Store size={22} />, title: 'No vendors yet', description: 'The suppliers you buy from appear here.' }}
    />
  );
}

export function PurchasingPage() {
  const [params] = useSearchParams();
  const tabParam = params.get('tab');
  const tab = tabParam === 'vendors' ? 'vendors' : tabParam === 'low-stock' ? 'low-stock' : 'orders';
  const [openPo, setOpenPo] = useState<number | null>(null);
  const [openVendor, setOpenVendor] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const tabLink = (to: string, name: typeof tab, label: string) => (
    <NavLink to={to} end className={() => `tab${tab === name ? ' is-active' : ''}`} aria-current={tab === name ? 'page' : undefined}>
      {label}
    </NavLink>
  );
  return (
    <div className="page">
      <PageHeader
        title="Purchasing"
        description="Purchase orders, receiving, low-stock reorders and the vendors you buy from."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
            New purchase order
          </Button>
        }
      />
      <nav className="tabs" aria-label="Purchasing sections">
        {tabLink('/admin/purchasing', 'orders', 'Purchase orders')}
        {tabLink('/admin/purchasing?tab=low-stock', 'low-stock', 'Low stock')}
        {tabLink('/admin/purchasing?tab=vendors', 'vendors', 'Vendors')}
      </nav>
      {tab === 'vendors' ? (
        <Vendors key="vendors" onOpen={setOpenVendor} />
      ) : tab === 'low-stock' ? (
        <LowStock onOpen={setOpenPo} />
      ) : (
        <PurchaseOrders key="orders" onOpen={setOpenPo} />
      )}
      <PoDetailModal poId={openPo} onClose={() => setOpenPo(null)} />
      <VendorDetailModal vendorId={openVendor} onClose={() => setOpenVendor(null)} />
      <PoFormModal open={creating} onClose={() => setCreating(false)} onCreated={setOpenPo} />
    </div>
  );
}
