import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Star, Trash2 } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney } from '../../lib/format';
import { purchasingApi, type VendorDetail, type VendorItem } from './purchasingApi';
import { VendorItemDialog } from './VendorItemDialog';
import { queryKeys } from '../../api/queryKeys';

interface VendorDetailModalProps {
  vendorId: number | null;
  onClose: () => void;
  /** Opens the vendor's edit dialog. */
  onEdit?: (vendor: VendorDetail) => void;
  /** Asks to delete (or deactivate) the vendor. */
  onDelete?: (vendor: VendorDetail) => void;
}

/**
 * A vendor with its performance (orders, spend, on-time rate, lead time) and its price list:
 * items are added, their entries changed, marked preferred and removed (confirmed first).
 */
export function VendorDetailModal({ vendorId, onClose, onEdit, onDelete }: VendorDetailModalProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const enabled = vendorId !== null;
  const vendor = useQuery({ queryKey: queryKeys.purchasing.vendor(vendorId), queryFn: ({ signal }) => purchasingApi.vendor(vendorId!, signal), enabled });
  const metrics = useQuery({ queryKey: queryKeys.purchasing.vendorMetrics(vendorId), queryFn: ({ signal }) => purchasingApi.vendorMetrics(vendorId!, signal), enabled });
  const items = useQuery({ queryKey: queryKeys.purchasing.vendorItems(vendorId), queryFn: ({ signal }) => purchasingApi.vendorItems(vendorId!, signal), enabled });
  /** The entry being changed, 'new' while adding one. */
  const [editing, setEditing] = useState<VendorItem | 'new' | null>(null);
  const [removing, setRemoving] = useState<VendorItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  const name = vendor.data?.name ?? 'this vendor';
  const prefer = useMutation({
    mutationFn: (entry: VendorItem) => purchasingApi.updateVendorItem(vendorId!, entry.item_id, { is_preferred: true }),
    onSuccess: async (entry) => {
      toast.success('Preferred vendor set', `${name} is the preferred vendor for ${entry.item_sku ?? 'the item'}.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all });
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: (entry: VendorItem) => purchasingApi.removeVendorItem(vendorId!, entry.item_id),
    onSuccess: async (_none, entry) => {
      toast.success('Item removed', `${entry.item_sku ?? 'The item'} is off ${name}'s price list.`);
      setRemoving(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all });
    },
    onError: (err) => {
      setRemoving(null);
      setError(errorMessage(err));
    },
  });
  const close = () => {
    setError(null);
    onClose();
  };
  const v = vendor.data;
  const m = metrics.data;
  const entries = items.data ?? [];
  return (
    <>
      <Modal
        open={enabled && editing === null}
        onClose={close}
        size="lg"
        title={v ? `${v.code} · ${v.name}` : 'Vendor'}
        description={v ? [v.contact_name, v.email, v.phone].filter(Boolean).join(' · ') || undefined : undefined}
        footer={
          v && (onEdit || onDelete) ? (
            <>
              {onDelete && (v.is_active || v.po_count === 0) && (
                <Button variant="danger" icon={<Trash2 size={16} />} onClick={() => onDelete(v)}>
                  {v.po_count > 0 ? 'Deactivate' : 'Delete'}
                </Button>
              )}
              {onEdit && (
                <Button variant="primary" icon={<Pencil size={16} />} onClick={() => onEdit(v)}>
                  Edit vendor
                </Button>
              )}
            </>
          ) : undefined
        }
      >
        <FormError message={error} />
        {vendor.isError && <ErrorState error={vendor.error} onRetry={() => void vendor.refetch()} compact />}
        {v && !v.is_active && (
          <p>
            <Badge>Inactive</Badge> <span className="muted">New purchase orders can't use this vendor.</span>
          </p>
        )}
        {metrics.isPending ? (
          <Skeleton height={80} />
        ) : metrics.isError ? (
          <ErrorState error={metrics.error} compact />
        ) : m ? (
          <dl className="spool-facts" aria-label="Vendor metrics">
            <div>
              <dt>Purchase orders</dt>
              <dd>{m.total_pos}</dd>
            </div>
            <div>
              <dt>Received</dt>
              <dd>{m.received_pos}</dd>
            </div>
            <div>
              <dt>Spend</dt>
              <dd>{formatMoney(m.total_spend)}</dd>
            </div>
            <div>
              <dt>On-time rate</dt>
              <dd>{m.on_time_rate != null ? `${Number(m.on_time_rate)} %` : '—'}</dd>
            </div>
            <div>
              <dt>Average lead time</dt>
              <dd>{m.avg_lead_time_days != null ? `${Number(m.avg_lead_time_days)} days` : '—'}</dd>
            </div>
            <div>
              <dt>Last order</dt>
              <dd>{m.last_order_date ?? '—'}</dd>
            </div>
          </dl>
        ) : null}
        <div className="vendor-prices__head">
          <h3 className="spool-detail__title">Price list</h3>
          <Button size="sm" variant="secondary" icon={<Plus size={14} />} onClick={() => setEditing('new')} disabled={!v}>
            Add item
          </Button>
        </div>
        {items.isPending ? (
          <Skeleton height={80} />
        ) : items.isError ? (
          <ErrorState error={items.error} onRetry={() => void items.refetch()} compact />
        ) : entries.length === 0 ? (
          <p className="muted">No items yet: add what this vendor sells, or receive an order from it.</p>
        ) : (
          <table className="table table--compact" aria-label="Price list">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col" className="hide-tablet">
                  Vendor SKU
                </th>
                <th scope="col" className="align-right">
                  Price
                </th>
                <th scope="col">Unit</th>
                <th scope="col" className="align-right">
                  Lead time
                </th>
                <th scope="col">Preferred</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((i) => (
                <tr key={i.id}>
                  <td>
                    <span className="mono">{i.item_sku}</span> {i.item_name}
                  </td>
                  <td className="hide-tablet mono">{i.vendor_sku ?? '—'}</td>
                  <td className="align-right num">{i.last_price != null ? formatMoney(i.last_price) : '—'}</td>
                  <td>{i.purchase_unit ?? '—'}</td>
                  <td className="align-right num">{i.lead_time_days != null ? `${i.lead_time_days} d` : '—'}</td>
                  <td>{i.is_preferred ? <Badge tone="success">Preferred</Badge> : <span className="muted">—</span>}</td>
                  <td className="row-actions">
                    {!i.is_preferred && (
                      <Button
                        size="sm"
                        variant="ghost"
                        icon={<Star size={14} />}
                        aria-label={`Make preferred for ${i.item_sku ?? 'the item'}`}
                        title="Make this the item's preferred vendor"
                        loading={prefer.isPending && prefer.variables?.item_id === i.item_id}
                        onClick={() => {
                          setError(null);
                          prefer.mutate(i);
                        }}
                      />
                    )}
                    <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${i.item_sku ?? 'item'}`} title="Edit" onClick={() => setEditing(i)} />
                    <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Remove ${i.item_sku ?? 'item'}`} title="Remove" onClick={() => setRemoving(i)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Modal>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.item_sku ?? 'the item'}?`}
        message={`${removing?.item_sku ?? ''} · ${removing?.item_name ?? ''} comes off ${name}'s price list${removing?.is_preferred ? ', and the item has no preferred vendor until you mark another one' : ''}. Purchase orders are not changed.`}
        confirmLabel="Remove item"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          setError(null);
          if (removing) remove.mutate(removing);
        }}
      />
      {v && <VendorItemDialog vendor={v} entry={editing === 'new' ? null : editing} listed={entries.map((e) => e.item_id)} open={editing !== null} onClose={() => setEditing(null)} />}
    </>
  );
}
