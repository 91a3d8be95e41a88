import type { SortBy, ItemListQuery } from '../../api/model';
import { pickSort } from '../../lib/useServerList';
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ListChecks, Package, Pencil, Plus, Trash2, Upload } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { ItemList, ItemListRow } from '../../api/model';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { isItemType, ITEM_TYPE_TONE, ITEM_TYPES, itemTypeLabel } from './itemOptions';
import { ItemBulkEditModal } from './ItemBulkEditModal';
import { ItemFormModal, type ItemTab } from './ItemFormModal';
import { ItemImportModal } from './ItemImportModal';
import { RecostAllButton } from './ItemRecost';
import { SuggestPricesButton } from './SuggestPricesModal';
import { queryKeys } from '../../api/queryKeys';

/** What the server sorts this list by. */
const SORTS = ['sku', 'name', 'item_type', 'procurement_type', 'unit', 'standard_cost', 'selling_price', 'created_at', 'updated_at'] as const satisfies readonly SortBy<ItemListQuery>[];

const FILTERS = ['type', 'status'] as const;

/** `?item=` as the dialog's item: an id, `new`, or none. */
function parseEditing(raw: string | null): number | 'new' | null {
  if (raw === 'new') return 'new';
  const id = raw ? Number(raw) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function ItemsPage() {
  const list = useServerList({
    area: 'items',
    filters: FILTERS,
    fetch: (r, signal) =>
      itemsApi.list(
        {
          limit: r.limit,
          offset: r.offset,
          search: r.search,
          item_type: isItemType(r.filters.type) ? r.filters.type : undefined,
          active_only: r.filters.status !== 'all',
          sort_by: pickSort(SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    select: (data: ItemList) => ({ rows: data.items, total: data.total }),
  });
  const { table } = list;
  const queryClient = useQueryClient();
  const toast = useToast();
  // The item open in the dialog (and its tab) lives in the URL (`?item=12&tab=variants`),
  // so a variant's link opens it and Back returns to the template.
  const [params, setParams] = useSearchParams();
  const editing = parseEditing(params.get('item'));
  const itemTab: ItemTab = params.get('tab') === 'variants' ? 'variants' : 'details';
  const setEditing = (next: number | null | 'new') =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (next === null) p.delete('item');
        else p.set('item', String(next));
        p.delete('tab');
        return p;
      },
      { replace: next === null },
    );
  const setItemTab = (tab: ItemTab) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (tab === 'details') p.delete('tab');
        else p.set('tab', tab);
        return p;
      },
      { replace: true },
    );
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<ItemListRow | null>(null);
  const { user } = useAuth();
  const admin = isAdmin(user);
  // Selected item ids; kept across pages so a bulk edit can span them.
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [bulkEditing, setBulkEditing] = useState(false);
  const toggle = (id: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const pageRows = list.tableProps.rows ?? [];
  const pageSelected = pageRows.length > 0 && pageRows.every((r) => selected.has(r.id));
  const togglePage = () =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const r of pageRows) {
        if (pageSelected) next.delete(r.id);
        else next.add(r.id);
      }
      return next;
    });

  const itemType = table.filters.type ?? '';
  const showInactive = table.filters.status === 'all';

  const remove = useMutation({
    mutationFn: (row: ItemListRow) => itemsApi.remove(row.id),
    onSuccess: async (res, row) => {
      setDeleting(null);
      toast.success('Item deactivated', res?.message ?? `${row.sku} was deactivated.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    },
    onError: (err) => {
      setDeleting(null);
      toast.error('The item was not deleted', errorMessage(err));
    },
  });

  const columns: Column<ItemListRow>[] = [
    {
      key: 'select',
      header: 'Select',
      shrink: true,
      render: (r) => (
        <input
          type="checkbox"
          aria-label={`Select ${r.sku}`}
          checked={selected.has(r.id)}
          onChange={() => toggle(r.id)}
          onClick={(e) => e.stopPropagation()}
          onKeyDown={(e) => e.stopPropagation()}
        />
      ),
    },
    { key: 'sku', header: 'SKU', shrink: true, sortable: true, render: (r) => <span className="mono">{r.sku}</span> },
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      render: (r) => (
        <div className="cell-stack">
          <span className="cell-inline">
            <span className="cell-strong">{r.name}</span>
            {!r.active && (
              <span className="only-tablet">
                <Badge>Inactive</Badge>
              </span>
            )}
          </span>
          {r.category_name && <span className="cell-sub">{r.category_name}</span>}
        </div>
      ),
    },
    {
      key: 'item_type',
      header: 'Type',
      shrink: true,
      sortable: true,
      render: (r) => <Badge tone={ITEM_TYPE_TONE[r.item_type] ?? 'neutral'}>{itemTypeLabel(r.item_type)}</Badge>,
    },
    { key: 'unit', header: 'Unit', shrink: true, sortable: true, hideOnTablet: true, render: (r) => <span className="muted">{r.unit}</span> },
    {
      key: 'standard_cost',
      header: 'Std cost',
      align: 'right',
      shrink: true,
      hideOnTablet: true,
      sortable: true,
      render: (r) => <span className="num">{formatMoney(r.standard_cost)}</span>,
    },
    {
      key: 'selling_price',
      header: 'Price',
      align: 'right',
      shrink: true,
      sortable: true,
      render: (r) => <span className="num">{formatMoney(r.selling_price)}</span>,
    },
    {
      key: 'on_hand_qty',
      header: 'On hand',
      align: 'right',
      shrink: true,
      render: (r) => (
        <span className={`num${r.needs_reorder ? ' text-warning' : ''}`} title={r.needs_reorder ? 'Below reorder point' : undefined}>
          {formatQty(r.on_hand_qty)}
        </span>
      ),
    },
    {
      key: 'active',
      header: 'Status',
      shrink: true,
      hideOnTablet: true,
      render: (r) => (r.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      shrink: true,
      render: (r) => (
        <div className="row-actions" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
          <button type="button" className="icon-btn icon-btn--sm" aria-label={`Edit ${r.sku}`} title="Edit" onClick={() => setEditing(r.id)}>
            <Pencil size={15} />
          </button>
          {r.active && (
            <button
              type="button"
              className="icon-btn icon-btn--sm icon-btn--danger"
              aria-label={`Delete ${r.sku}`}
              title="Delete"
              onClick={() => setDeleting(r)}
            >
              <Trash2 size={15} />
            </button>
          )}
        </div>
      ),
    },
  ];

  return (
    <div className="page">
      <PageHeader
        title="Items"
        description="Products, components, materials and supplies: everything you make, buy or stock."
        actions={
          <>
            {admin && <RecostAllButton />}
            {admin && <SuggestPricesButton />}
            <Button icon={<Upload size={16} />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing('new')}>
              New item
            </Button>
          </>
        }
      />
      <div className="toolbar" role="group" aria-label="Selection">
        <label className="checkbox">
          <input type="checkbox" checked={pageSelected} onChange={togglePage} disabled={pageRows.length === 0} />
          <span>Select this page</span>
        </label>
        {selected.size > 0 && (
          <>
            <span className="muted" aria-live="polite">
              {selected.size} selected
            </span>
            <Button size="sm" variant="primary" icon={<ListChecks size={14} />} onClick={() => setBulkEditing(true)}>
              Bulk edit
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </>
        )}
      </div>
      <DataTable
        caption="Items"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search by SKU, name or UPC"
        searchLabel="Search items"
        filters={
          <>
            <label className="filter">
              <span className="sr-only">Item type</span>
              <select
                className="input input--select"
                aria-label="Item type"
                value={itemType}
                onChange={(e) => table.setFilter('type', e.target.value)}
              >
                <option value="">All types</option>
                {ITEM_TYPES.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="filter">
              <span className="sr-only">Status</span>
              <select
                className="input input--select"
                aria-label="Status"
                value={showInactive ? 'all' : ''}
                onChange={(e) => table.setFilter('status', e.target.value)}
              >
                <option value="">Active only</option>
                <option value="all">Active and inactive</option>
              </select>
            </label>
          </>
        }
        empty={{
          icon: <Package size={22} />,
          title: 'No items yet',
          description: 'Add your first product, component or material, or import a CSV from your shop.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing('new')}>
              New item
            </Button>
          ),
        }}
        onRowClick={(r) => setEditing(r.id)}
        rowLabel={(r) => `Edit ${r.sku} ${r.name}`}
      />

      <ItemFormModal
        open={editing !== null}
        itemId={editing === 'new' ? null : editing}
        tab={itemTab}
        onTabChange={setItemTab}
        onClose={() => setEditing(null)}
      />
      <ItemImportModal open={importing} onClose={() => setImporting(false)} />
      <ItemBulkEditModal
        itemIds={bulkEditing ? [...selected] : []}
        onClose={() => setBulkEditing(false)}
        onDone={() => {
          setBulkEditing(false);
          setSelected(new Set());
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this item?"
        message={
          <>
            <strong>{deleting?.sku}</strong> · {deleting?.name} will be deactivated and hidden from lists. Items with stock on
            hand or used in an active bill of materials can’t be deleted.
          </>
        }
        confirmLabel="Delete item"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
