import { useQuery } from '@tanstack/react-query';
import { Modal } from '../../components/Modal';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { formatDateTime, humanize } from '../../lib/format';
import { spoolApi } from './spoolApi';
import { formatGrams } from './spoolWeight';
import { WeightBar } from './WeightBar';
import { formatDate, statusTone } from './spoolOptions';
import { queryKeys } from '../../api/queryKeys';

/** One spool: its facts, the weight bar and what production took from it. */
export function SpoolDetailModal({ spoolId, onClose }: { spoolId: number | null; onClose: () => void }) {
  const detail = useQuery({ queryKey: queryKeys.spools.detail(spoolId), queryFn: ({ signal }) => spoolApi.get(spoolId!, signal), enabled: spoolId !== null });
  const s = detail.data;
  return (
    <Modal open={spoolId !== null} onClose={onClose} size="lg" title={s ? `Spool ${s.spool_number}` : 'Spool'} description={s ? `${s.product_sku ?? ''} · ${s.product_name ?? ''}` : undefined}>
      {detail.isPending ? (
        <Skeleton height={120} />
      ) : detail.isError ? (
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} compact />
      ) : s ? (
        <div className="spool-detail">
          <WeightBar spool={s} />
          <dl className="spool-facts">
            <div>
              <dt>Status</dt>
              <dd>
                <Badge tone={statusTone(s.status)}>{humanize(s.status)}</Badge>
              </dd>
            </div>
            <div>
              <dt>Location</dt>
              <dd>{s.location_name ?? '—'}</dd>
            </div>
            <div>
              <dt>Supplier lot</dt>
              <dd>{s.supplier_lot_number ?? '—'}</dd>
            </div>
            <div>
              <dt>Received</dt>
              <dd>{formatDate(s.received_date)}</dd>
            </div>
            <div>
              <dt>Expires</dt>
              <dd>{formatDate(s.expiry_date)}</dd>
            </div>
            <div>
              <dt>Notes</dt>
              <dd>{s.notes ?? '—'}</dd>
            </div>
          </dl>
          <h3 className="spool-detail__title">Usage history</h3>
          {s.usage_history.length === 0 ? (
            <p className="muted">Nothing has been consumed from this spool yet.</p>
          ) : (
            <table className="table table--compact" aria-label="Usage history">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Production order</th>
                  <th scope="col" className="align-right">
                    Consumed
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.usage_history.map((u, i) => (
                  <tr key={i}>
                    <td>{formatDateTime(u.created_at)}</td>
                    <td className="mono">{u.production_order_code ?? (u.production_order_id ? `#${u.production_order_id}` : '—')}</td>
                    <td className="align-right num">{formatGrams(Number(u.weight_consumed_kg))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ) : null}
    </Modal>
  );
}
