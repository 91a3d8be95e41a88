import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/Field';
import { DownloadLink } from '../../components/DownloadLink';
import { Modal } from '../../components/Modal';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, formatQty, humanize } from '../../lib/format';
import { NEXT_STATUSES, STATUS_ACTION, purchasingApi, type PurchaseOrderLine } from './purchasingApi';
import { PoHeaderDialog, PoLineDialog } from './PoEditDialogs';
import { ReceiveDialog } from './ReceiveDialog';
import { queryKeys } from '../../api/queryKeys';

export const PO_TONE: Record<string, 'neutral' | 'info' | 'warning' | 'success' | 'danger'> = {
  draft: 'neutral',
  ordered: 'info',
  shipped: 'warning',
  received: 'success',
  closed: 'neutral',
  cancelled: 'danger',
};

/** One purchase order: lines, history, status actions (confirmed first) and receiving; a
 *  draft's details and lines are edited here too (removing a line is confirmed first). */
export function PoDetailModal({ poId, onClose }: { poId: number | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const detail = useQuery({ queryKey: queryKeys.purchaseOrders.detail(poId), queryFn: ({ signal }) => purchasingApi.get(poId!, signal), enabled: poId !== null });
  const events = useQuery({ queryKey: queryKeys.purchaseOrders.events(poId), queryFn: ({ signal }) => purchasingApi.events(poId!, signal), enabled: poId !== null });
  const documents = useQuery({ queryKey: queryKeys.purchaseOrders.documents(poId), queryFn: ({ signal }) => purchasingApi.documents(poId!, signal), enabled: poId !== null });
  const [docType, setDocType] = useState('invoice');
  const attach = useMutation({
    mutationFn: (file: File) => purchasingApi.uploadDocument(poId!, file, docType),
    onSuccess: async (d) => {
      toast.success('Document attached', d.filename);
      await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const [confirm, setConfirm] = useState<string | null>(null);
  const [receiving, setReceiving] = useState(false);
  const [editingHeader, setEditingHeader] = useState(false);
  /** The line being edited, 'new' while adding one. */
  const [editingLine, setEditingLine] = useState<PurchaseOrderLine | 'new' | null>(null);
  const [removingLine, setRemovingLine] = useState<PurchaseOrderLine | null>(null);
  const [error, setError] = useState<string | null>(null);
  const po = detail.data;
  const draft = po?.status === 'draft';
  const move = useMutation({
    mutationFn: (to: string) => purchasingApi.status(poId!, to),
    onSuccess: async (r) => {
      toast.success('Status changed', `${r.po_number} is ${humanize(r.status)}.`);
      setConfirm(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
    },
    onError: (err) => {
      setConfirm(null);
      setError(errorMessage(err));
    },
  });
  const remove = useMutation({
    mutationFn: () => purchasingApi.remove(poId!),
    onSuccess: async (r) => {
      toast.success('Deleted', r.message);
      setConfirm(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
      onClose();
    },
    onError: (err) => {
      setConfirm(null);
      setError(errorMessage(err));
    },
  });
  const removeLine = useMutation({
    mutationFn: (line: PurchaseOrderLine) => purchasingApi.removeLine(poId!, line.id),
    onSuccess: async (l) => {
      toast.success('Line removed', `${l.product_sku} is off ${po?.po_number ?? 'the order'}.`);
      setRemovingLine(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
    },
    onError: (err) => {
      setRemovingLine(null);
      setError(errorMessage(err));
    },
  });
  const canReceive = po && ['ordered', 'shipped', 'received'].includes(po.status) && po.lines.some((l) => Number(l.quantity_remaining) > 0);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <>
      <Modal
        open={poId !== null && !receiving && !editingHeader && editingLine === null}
        onClose={close}
        size="lg"
        title={po ? `Purchase order ${po.po_number}` : 'Purchase order'}
        description={po ? `${po.vendor_name} · ${formatMoney(po.total_amount)}` : undefined}
        footer={
          po ? (
            <>
              {po.status === 'draft' && (
                <Button variant="danger" onClick={() => setConfirm('delete')}>
                  Delete
                </Button>
              )}
              {(NEXT_STATUSES[po.status] ?? []).map((s) => (
                <Button key={s} variant={s === 'cancelled' ? 'secondary' : 'primary'} onClick={() => setConfirm(s)}>
                  {STATUS_ACTION[s]}
                </Button>
              ))}
              {canReceive && (
                <Button variant="primary" onClick={() => setReceiving(true)}>
                  Receive
                </Button>
              )}
            </>
          ) : undefined
        }
      >
        <FormError message={error} />
        {detail.isPending ? (
          <Skeleton height={120} />
        ) : detail.isError ? (
          <ErrorState error={detail.error} onRetry={() => void detail.refetch()} compact />
        ) : po ? (
          <div className="po-detail">
            <p>
              <Badge tone={PO_TONE[po.status] ?? 'neutral'}>{humanize(po.status)}</Badge>{' '}
              <span className="muted">
                Ordered {po.order_date ?? '—'} · Expected {po.expected_date ?? '—'} · Received {po.received_date ?? '—'}
              </span>
              {draft && (
                <>
                  {' '}
                  <Button size="sm" variant="ghost" icon={<Pencil size={14} />} onClick={() => setEditingHeader(true)}>
                    Edit details
                  </Button>
                </>
              )}
            </p>
            <p className="muted">
              Subtotal {formatMoney(po.subtotal)} · Shipping {formatMoney(po.shipping_cost)} · Tax {formatMoney(po.tax_amount)}
            </p>
            {po.notes ? <p className="po-notes">{po.notes}</p> : null}
            <table className="table table--compact" aria-label="Lines">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Item</th>
                  <th scope="col" className="align-right">
                    Ordered
                  </th>
                  <th scope="col" className="align-right">
                    Received
                  </th>
                  <th scope="col" className="align-right">
                    Unit cost
                  </th>
                  <th scope="col" className="align-right">
                    Total
                  </th>
                  {draft && (
                    <th scope="col">
                      <span className="sr-only">Edit or remove</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {po.lines.map((l) => (
                  <tr key={l.id}>
                    <td>{l.line_number}</td>
                    <td>
                      <span className="mono">{l.product_sku}</span> {l.product_name}
                    </td>
                    <td className="align-right num">{formatQty(l.quantity_ordered, l.purchase_unit)}</td>
                    <td className="align-right num">{formatQty(l.quantity_received, l.purchase_unit)}</td>
                    <td className="align-right num">{formatMoney(l.unit_cost)}</td>
                    <td className="align-right num">{formatMoney(l.line_total)}</td>
                    {draft && (
                      <td className="row-actions">
                        <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit line ${l.line_number}`} onClick={() => setEditingLine(l)} />
                        <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Remove line ${l.line_number}`} onClick={() => setRemovingLine(l)} />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
            {po.lines.length === 0 && <p className="muted">No lines yet{draft ? ': add what you are buying before placing the order.' : '.'}</p>}
            {draft && (
              <div>
                <Button size="sm" variant="secondary" icon={<Plus size={14} />} onClick={() => setEditingLine('new')}>
                  Add line
                </Button>
              </div>
            )}
            <h3 className="spool-detail__title">Documents</h3>
            <ul className="po-events" aria-label="Documents">
              {(documents.data ?? []).map((d) => (
                <li key={d.id}>
                  <DownloadLink url={d.download_url} filename={d.filename}>
                    {d.filename}
                  </DownloadLink>{' '}
                  <span className="muted">{humanize(d.document_type)}</span>
                </li>
              ))}
            </ul>
            <div className="po-attach">
              <select className="input input--select" aria-label="Document type" value={docType} onChange={(e) => setDocType(e.target.value)}>
                {['invoice', 'packing_slip', 'receipt', 'quote', 'shipping_label', 'other'].map((t) => (
                  <option key={t} value={t}>
                    {humanize(t)}
                  </option>
                ))}
              </select>
              <input
                type="file"
                aria-label="Attach a document"
                accept=".pdf,.png,.jpg,.jpeg"
                disabled={attach.isPending}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) attach.mutate(file);
                  e.target.value = '';
                }}
              />
            </div>
            <h3 className="spool-detail__title">History</h3>
            <ul className="po-events" aria-label="History">
              {(events.data ?? []).map((e) => (
                <li key={e.id}>
                  <strong>{e.title}</strong> <span className="muted">{formatDateTime(e.created_at)}</span>
                  {e.description ? <div className="muted">{e.description}</div> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Modal>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'delete' ? 'Delete this draft?' : `${STATUS_ACTION[confirm ?? ''] ?? ''}?`}
        message={confirm === 'delete' ? 'The draft and its lines are removed.' : `${po?.po_number ?? ''} moves to ${humanize(confirm ?? '')}.`}
        confirmLabel={confirm === 'delete' ? 'Delete' : (STATUS_ACTION[confirm ?? ''] ?? 'Confirm')}
        destructive={confirm === 'delete' || confirm === 'cancelled'}
        busy={move.isPending || remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => (confirm === 'delete' ? remove.mutate() : confirm && move.mutate(confirm))}
      />
      <ConfirmDialog
        open={removingLine !== null}
        title={`Remove line ${removingLine?.line_number ?? ''}?`}
        message={`${removingLine?.product_sku ?? ''} · ${removingLine?.product_name ?? ''} is removed from ${po?.po_number ?? 'the order'}.`}
        confirmLabel="Remove line"
        busy={removeLine.isPending}
        onCancel={() => setRemovingLine(null)}
        onConfirm={() => removingLine && removeLine.mutate(removingLine)}
      />
      <ReceiveDialog po={receiving && po ? po : null} onClose={() => setReceiving(false)} />
      {po && (
        <>
          <PoHeaderDialog po={po} open={editingHeader} onClose={() => setEditingHeader(false)} />
          <PoLineDialog po={po} line={editingLine === 'new' ? null : editingLine} open={editingLine !== null} onClose={() => setEditingLine(null)} />
        </>
      )}
    </>
  );
}
