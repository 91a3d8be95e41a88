import { useQuery } from '@tanstack/react-query';
import { Pencil, Trash2 } from 'lucide-react';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { ErrorState, Skeleton } from '../../components/States';
import { formatMoney } from '../../lib/format';
import { purchasingApi, type VendorDetail } from './purchasingApi';

interface VendorDetailModalProps {
  vendorId: number | null;
  onClose: () => void;
  /** Opens the vendor's edit dialog. */
  onEdit?: (vendor: VendorDetail) => void;
  /** Asks to delete (or deactivate) the vendor. */
  onDelete?: (vendor: VendorDetail) => void;
}

/** A vendor with its performance (orders, spend, on-time rate, lead time) and what it sells. */
export function VendorDetailModal({ vendorId, onClose, onEdit, onDelete }: VendorDetailModalProps) {
  const enabled = vendorId !== null;
  const vendor = useQuery({ queryKey: ['purchasing', 'vendor', vendorId], queryFn: ({ signal }) => purchasingApi.vendor(vendorId!, signal), enabled });
  const metrics = useQuery({ queryKey: ['purchasing', 'vendor-metrics', vendorId], queryFn: ({ signal }) => purchasingApi.vendorMetrics(vendorId!, signal), enabled });
  const items = useQuery({ queryKey: ['purchasing', 'vendor-items', vendorId], queryFn: ({ signal }) => purchasingApi.vendorItems(vendorId!, signal), enabled });
  const v = vendor.data;
  const m = metrics.data;
  return (
    <Modal
      open={enabled}
      onClose={onClose}
      size="lg"
      title={v ? `${v.code} · ${v.name}` : 'Vendor'}
      description={v?.email ?? undefined}
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
      <h3 className="spool-detail__title">Items bought</h3>
      {(items.data ?? []).length === 0 ? (
        <p className="muted">Nothing received from this vendor yet.</p>
      ) : (
        <table className="table table--compact" aria-label="Vendor items">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col" className="align-right">
                Last price
              </th>
              <th scope="col">Unit</th>
              <th scope="col" className="align-right">
                Lead time
              </th>
            </tr>
          </thead>
          <tbody>
            {(items.data ?? []).map((i) => (
              <tr key={i.id}>
                <td>
                  <span className="mono">{i.item_sku}</span> {i.item_name}
                </td>
                <td className="align-right num">{i.last_price ? formatMoney(i.last_price) : '—'}</td>
                <td>{i.purchase_unit ?? '—'}</td>
                <td className="align-right num">{i.lead_time_days != null ? `${i.lead_time_days} d` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Modal>
  );
}
