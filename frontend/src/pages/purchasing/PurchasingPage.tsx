import type { PurchaseOrderListQuery, SortBy, VendorListQuery } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { NavLink, useSearchParams } from 'react-router';
import { Pencil, ShoppingBag, Store, Trash2 } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { purchaseOrdersApi, vendorsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { PurchaseOrderList, PurchaseOrderRow, VendorList, VendorListRow } from '../../api/model';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { useState } from 'react';
import { Plus } from 'lucide-react';
import { Button } from '../../components/Button';
import { LowStock } from './LowStock';
import { PO_TONE, PoDetailModal } from './PoDetailModal';
import { PoFormModal } from './PoFormModal';
import { purchasingApi } from './purchasingApi';
import { VendorDetailModal } from './VendorDetailModal';
import { VendorFormModal } from './VendorFormModal';
import './purchasing.css';
import { queryKeys } from '../../api/queryKeys';

/** What the server sorts the vendor list by. */
const VENDOR_SORTS = ['code', 'name', 'contact_name', 'email', 'city', 'country', 'lead_time_days', 'rating', 'created_at', 'updated_at'] as const satisfies readonly SortBy<VendorListQuery>[];

/** What the server sorts the purchase-order list by (the sortable columns). */
const PO_SORTS = ['po_number', 'vendor_name', 'status', 'order_date', 'expected_date', 'total_amount'] as const satisfies readonly SortBy<PurchaseOrderListQuery>[];

const PO_STATUSES = ['draft', 'ordered', 'shipped', 'received', 'closed', 'cancelled'] as const satisfies readonly NonNullable<PurchaseOrderListQuery['status']>[number][];

const poColumns: Column<PurchaseOrderRow>[] = [
  { key: 'po_number', header: 'PO', shrink: true, sortable: true, render: (r) => <span className="mono">{r.po_number}</span> },
  { key: 'vendor_name', header: 'Vendor', sortable: true, render: (r) => <span className="cell-strong">{r.vendor_name}</span> },
  { key: 'status', header: 'Status', shrink: true, sortable: true, render: (r) => <Badge tone={PO_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge> },
  { key: 'order_date', header: 'Ordered', shrink: true, sortable: true, render: (r) => r.order_date ?? '—' },
  { key: 'expected_date', header: 'Expected', shrink: true, hideOnTablet: true, sortable: true, render: (r) => r.expected_date ?? '—' },
  { key: 'line_count', header: 'Lines', align: 'right', shrink: true, hideOnTablet: true, render: (r) => <span className="num">{r.line_count}</span> },
  { key: 'total_amount', header: 'Total', align: 'right', shrink: true, sortable: true, render: (r) => <span className="num">{formatMoney(r.total_amount)}</span> },
];

/** What the delete confirmation needs of a vendor (a list row or the detail). */
type VendorRef = Pick<VendorListRow, 'id' | 'code' | 'name' | 'po_count' | 'is_active'>;

/** A vendor with purchase orders can only be deactivated; one without can be deleted. */
const canDelete = (v: VendorRef) => v.is_active || v.po_count === 0;

function vendorColumns(edit: (v: VendorListRow) => void, remove: (v: VendorListRow) => void): Column<VendorListRow>[] {
  return [
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
    { key: 'email', header: 'Email', hideOnTablet: true, sortable: true, render: (r) => r.email ?? '—' },
    { key: 'phone', header: 'Phone', shrink: true, render: (r) => r.phone ?? '—' },
    { key: 'where', sortKey: 'city', header: 'Location', hideOnTablet: true, sortable: true, render: (r) => [r.city, r.state].filter(Boolean).join(', ') || '—' },
    { key: 'rating', header: 'Rating', align: 'right', shrink: true, hideOnTablet: true, sortable: true, render: (r) => <span className="num">{r.rating != null ? `${r.rating} / 5` : '—'}</span> },
    { key: 'po_count', header: 'POs', align: 'right', shrink: true, render: (r) => <span className="num">{r.po_count}</span> },
    { key: 'is_active', header: 'Status', shrink: true, render: (r) => (r.is_active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      shrink: true,
      render: (r) => (
        <div className="row-actions" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
          <button type="button" className="icon-btn icon-btn--sm" aria-label={`Edit ${r.code}`} title="Edit" onClick={() => edit(r)}>
            <Pencil size={15} />
          </button>
          {canDelete(r) && (
            <button
              type="button"
              className="icon-btn icon-btn--sm icon-btn--danger"
              aria-label={`${r.po_count > 0 ? 'Deactivate' : 'Delete'} ${r.code}`}
              title={r.po_count > 0 ? 'Deactivate' : 'Delete'}
              onClick={() => remove(r)}
            >
              <Trash2 size={15} />
            </button>
          )}
        </div>
      ),
    },
  ];
}

function PurchaseOrders({ onOpen }: { onOpen: (id: number) => void }) {
  const list = useServerList({
    area: 'purchase-orders',
    filters: ['status'],
    fetch: (r, signal) =>
      purchaseOrdersApi.list(
        { offset: r.offset, limit: r.limit, search: r.search, status: PO_STATUSES.filter((s) => s === r.filters.status), sort_by: pickSort(PO_SORTS, r.sort_by), sort_order: r.sort_order },
        signal,
      ),
    select: (data: PurchaseOrderList) => ({ rows: data.items, total: data.pagination.total }),
  });
  const { table } = list;
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

interface VendorsProps {
  onOpen: (id: number) => void;
  onNew: () => void;
  onEdit: (id: number) => void;
  onDelete: (v: VendorRef) => void;
}

function Vendors({ onOpen, onNew, onEdit, onDelete }: VendorsProps) {
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
  return (
    <DataTable
      caption="Vendors"
      columns={vendorColumns((v) => onEdit(v.id), onDelete)}
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
      empty={{
        icon: <Store size={22} />,
        title: 'No vendors yet',
        description: 'The suppliers you buy from appear here.',
        action: (
          <Button variant="primary" icon={<Plus size={16} />} onClick={onNew}>
            New vendor
          </Button>
        ),
      }}
    />
  );
}

export function PurchasingPage() {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab = tabParam === 'vendors' ? 'vendors' : tabParam === 'low-stock' ? 'low-stock' : 'orders';
  const [openPo, setOpenPo] = useState<number | null>(null);
  // `?po=12` opens that order (links from other pages, e.g. an MRP release).
  const linkedPo = Number.parseInt(params.get('po') ?? '', 10) || null;
  const shownPo = openPo ?? linkedPo;
  const closePo = () => {
    setOpenPo(null);
    if (linkedPo !== null)
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete('po');
          return next;
        },
        { replace: true },
      );
  };
  const [openVendor, setOpenVendor] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  /** The vendor being edited, 'new' while creating one. */
  const [editingVendor, setEditingVendor] = useState<number | 'new' | null>(null);
  const [deletingVendor, setDeletingVendor] = useState<VendorRef | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const removeVendor = useMutation({
    mutationFn: (v: VendorRef) => purchasingApi.removeVendor(v.id),
    onSuccess: async (res, v) => {
      const message = res.message ?? `Vendor ${v.code} deleted`;
      toast.success(/deactivated/i.test(message) ? 'Vendor deactivated' : 'Vendor deleted', message);
      setDeletingVendor(null);
      if (openVendor === v.id) setOpenVendor(null);
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.vendors.all }), queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all })]);
    },
    onError: (err, v) => {
      setDeletingVendor(null);
      toast.error(`${v.code} was not deleted`, errorMessage(err));
    },
  });
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
          tab === 'vendors' ? (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditingVendor('new')}>
              New vendor
            </Button>
          ) : (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
              New purchase order
            </Button>
          )
        }
      />
      <nav className="tabs" aria-label="Purchasing sections">
        {tabLink('/admin/purchasing', 'orders', 'Purchase orders')}
        {tabLink('/admin/purchasing?tab=low-stock', 'low-stock', 'Low stock')}
        {tabLink('/admin/purchasing?tab=vendors', 'vendors', 'Vendors')}
      </nav>
      {tab === 'vendors' ? (
        <Vendors key="vendors" onOpen={setOpenVendor} onNew={() => setEditingVendor('new')} onEdit={setEditingVendor} onDelete={setDeletingVendor} />
      ) : tab === 'low-stock' ? (
        <LowStock onOpen={setOpenPo} />
      ) : (
        <PurchaseOrders key="orders" onOpen={setOpenPo} />
      )}
      <PoDetailModal poId={shownPo} onClose={closePo} />
      {/* The detail steps aside while its vendor is edited, and comes back with the changes. */}
      <VendorDetailModal
        vendorId={editingVendor === null ? openVendor : null}
        onClose={() => setOpenVendor(null)}
        onEdit={(v) => setEditingVendor(v.id)}
        onDelete={setDeletingVendor}
      />
      <VendorFormModal open={editingVendor !== null} vendorId={editingVendor === 'new' ? null : editingVendor} onClose={() => setEditingVendor(null)} />
      <ConfirmDialog
        open={deletingVendor !== null}
        title={deletingVendor && deletingVendor.po_count > 0 ? `Deactivate ${deletingVendor.code}?` : `Delete ${deletingVendor?.code ?? 'this vendor'}?`}
        message={
          <>
            <p>
              {deletingVendor && deletingVendor.po_count > 0 ? (
                <>
                  <strong>{deletingVendor.code}</strong> · {deletingVendor.name} has {deletingVendor.po_count} purchase order
                  {deletingVendor.po_count === 1 ? '' : 's'}, so it is deactivated: its orders keep it, and new orders can't use it.
                </>
              ) : (
                <>
                  <strong>{deletingVendor?.code}</strong> · {deletingVendor?.name} and its price list are deleted.
                </>
              )}
            </p>
            <p className="muted">A vendor with purchase orders is deactivated rather than deleted.</p>
          </>
        }
        confirmLabel={deletingVendor && deletingVendor.po_count > 0 ? 'Deactivate vendor' : 'Delete vendor'}
        busy={removeVendor.isPending}
        onCancel={() => setDeletingVendor(null)}
        onConfirm={() => deletingVendor && removeVendor.mutate(deletingVendor)}
      />
      <PoFormModal open={creating} onClose={() => setCreating(false)} onCreated={setOpenPo} />
    </div>
  );
}
