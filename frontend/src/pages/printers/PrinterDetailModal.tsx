import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Trash2, Wrench } from 'lucide-react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Modal } from '../../components/Modal';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { errorMessage } from '../../api/errors';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { MaintenanceForm } from './MaintenanceForm';
import { BRANDS, MAINTENANCE_TYPES, printerApi, type MaintenanceLog, type PrinterBrand, type PrinterDetail } from './printerApi';
import { STATUS_TONE } from './printerStatus';
import { useWorkCenters, workCenterName } from './workCenters';
import { queryKeys } from '../../api/queryKeys';

/** One printer: its facts, its maintenance history and a form to log more. */
export function PrinterDetailModal({ printerId, onClose, onEdit }: { printerId: number | null; onClose: () => void; onEdit: (p: PrinterDetail) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [logging, setLogging] = useState(false);
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<MaintenanceLog | null>(null);
  const open = printerId !== null;
  const detail = useQuery({ queryKey: queryKeys.printers.detail(printerId), queryFn: ({ signal }) => printerApi.get(printerId!, signal), enabled: open });
  const centers = useWorkCenters(open);
  const history = useQuery({
    queryKey: queryKeys.printers.maintenance(printerId, page),
    queryFn: ({ signal }) => printerApi.history(printerId!, page, signal),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (log: MaintenanceLog) => printerApi.deleteMaintenance(log.id),
    onSuccess: async () => {
      toast.success('Maintenance log deleted');
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.printers.all });
    },
    onError: (err) => {
      toast.error('Could not delete the log', errorMessage(err));
      setDeleting(null);
    },
  });
  const close = () => {
    setLogging(false);
    setPage(1);
    onClose();
  };
  const p = detail.data;
  const h = history.data;
  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title={p ? `${p.code} · ${p.name}` : 'Printer'}
      description={p ? [BRANDS[p.brand as PrinterBrand] ?? p.brand, p.model].filter(Boolean).join(' · ') : undefined}
    >
      {detail.isPending ? (
        <Skeleton height={120} />
      ) : detail.isError ? (
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} compact />
      ) : p ? (
        <div className="printer-detail">
          <div className="printer-detail__head">
            <Badge tone={STATUS_TONE[p.status] ?? 'neutral'}>{humanize(p.status)}</Badge>
            <Button variant="secondary" icon={<Pencil size={14} />} onClick={() => onEdit(p)}>
              Edit printer
            </Button>
          </div>
          <dl className="printer-facts">
            <div>
              <dt>Address</dt>
              <dd className="mono">{p.ip_address ?? '—'}</dd>
            </div>
            <div>
              <dt>Serial number</dt>
              <dd>{p.serial_number ?? '—'}</dd>
            </div>
            <div>
              <dt>Work center</dt>
              <dd>{workCenterName(centers.data, p.work_center_id)}</dd>
            </div>
            <div>
              <dt>Location</dt>
              <dd>{p.location ?? '—'}</dd>
            </div>
            <div>
              <dt>Last seen</dt>
              <dd>{formatDateTime(p.last_seen)}</dd>
            </div>
            <div>
              <dt>Active</dt>
              <dd>{p.active ? 'Yes' : 'No'}</dd>
            </div>
            <div>
              <dt>Notes</dt>
              <dd>{p.notes ?? '—'}</dd>
            </div>
          </dl>
          <div className="printer-detail__head">
            <h3 className="printer-detail__title">Maintenance</h3>
            {!logging && (
              <Button variant="primary" icon={<Plus size={14} />} onClick={() => setLogging(true)}>
                Log maintenance
              </Button>
            )}
          </div>
          {logging && <MaintenanceForm printerId={p.id} onDone={() => setLogging(false)} />}
          {history.isPending ? (
            <Skeleton height={80} />
          ) : history.isError ? (
            <ErrorState error={history.error} onRetry={() => void history.refetch()} compact />
          ) : h && h.items.length === 0 ? (
            <EmptyState compact icon={<Wrench size={20} />} title="No maintenance logged" description="Log cleaning, nozzle changes and repairs to see when this printer is due again." />
          ) : h ? (
            <>
              <table className="table table--compact" aria-label="Maintenance history">
                <thead>
                  <tr>
                    <th scope="col">Done</th>
                    <th scope="col">Kind</th>
                    <th scope="col">What</th>
                    <th scope="col">Next due</th>
                    <th scope="col" className="align-right">
                      Cost
                    </th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {h.items.map((m) => (
                    <tr key={m.id}>
                      <td>
                        <div className="cell-stack">
                          <span>{formatDateTime(m.performed_at)}</span>
                          {m.performed_by && <span className="cell-sub">{m.performed_by}</span>}
                        </div>
                      </td>
                      <td>{MAINTENANCE_TYPES[m.maintenance_type]}</td>
                      <td>{m.description}</td>
                      <td>{m.next_due_at ? formatDateTime(m.next_due_at) : '—'}</td>
                      <td className="align-right num">{m.cost ? formatMoney(m.cost) : '—'}</td>
                      <td className="align-right">
                        <Button variant="ghost" aria-label={`Delete the log of ${formatDateTime(m.performed_at)}`} icon={<Trash2 size={14} />} onClick={() => setDeleting(m)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {h.total_pages > 1 && (
                <div className="form__row form__row--end">
                  <Button variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    Newer
                  </Button>
                  <span className="muted">
                    Page {h.page} of {h.total_pages}
                  </span>
                  <Button variant="secondary" disabled={page >= h.total_pages} onClick={() => setPage(page + 1)}>
                    Older
                  </Button>
                </div>
              )}
            </>
          ) : null}
        </div>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this maintenance log?"
        message={deleting ? `${MAINTENANCE_TYPES[deleting.maintenance_type]} of ${formatDateTime(deleting.performed_at)}: ${deleting.description}. The printer's due date is recomputed from what remains.` : ''}
        confirmLabel="Delete log"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Modal>
  );
}
