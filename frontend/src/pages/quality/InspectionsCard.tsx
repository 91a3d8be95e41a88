import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Camera, ShieldCheck } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { useAuth } from '../../auth/AuthContext';
import { Button } from '../../components/Button';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatDateTime, formatQty, humanize } from '../../lib/format';
import { InspectionPhotosDialog } from './InspectionPhotos';
import { limitsText, qualityApi, RESULT_TONE, type Inspection, type Measurement } from './qualityApi';
import './quality.css';

interface InspectionsCardProps {
  orderId: number;
  orderCode: string;
  /** The order's operations, to name the one an inspection was about. */
  operations: readonly { id: number; operation_code: string; operation_name: string }[];
}

function MeasurementRows({ rows }: { rows: readonly Measurement[] }) {
  return (
    <table className="table table--compact" aria-label="Measurements">
      <thead>
        <tr>
          <th scope="col">Characteristic</th>
          <th scope="col">Specification</th>
          <th scope="col" className="align-right">
            Measured
          </th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      <tbody>
        {[...rows]
          .sort((a, b) => a.sequence - b.sequence)
          .map((m) => {
            const attribute = m.measured_value === null && m.conforms !== null;
            const verdict = attribute ? m.conforms : m.is_within_spec;
            return (
              <tr key={m.id}>
                <td>
                  {m.characteristic_code && <span className="mono">{m.characteristic_code} </span>}
                  {m.characteristic}
                </td>
                <td className="cell-sub">{attribute ? 'Conforms' : limitsText(m.lower_limit, m.upper_limit, m.unit)}</td>
                <td className="align-right num">{attribute ? (m.conforms ? 'Yes' : 'No') : m.measured_value !== null ? formatQty(m.measured_value, m.unit) : '—'}</td>
                <td>
                  {verdict === true ? (
                    <Badge tone="success">{attribute ? 'Conforms' : 'In spec'}</Badge>
                  ) : verdict === false ? (
                    <Badge tone="danger">{attribute ? 'Nonconforming' : 'Out of spec'}</Badge>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            );
          })}
      </tbody>
    </table>
  );
}

/** An order's inspections, oldest first: verdict, who and when, defect, measurements, the gate's findings, photos. */
export function InspectionsCard({ orderId, orderCode, operations }: InspectionsCardProps) {
  const { user } = useAuth();
  const [photosOf, setPhotosOf] = useState<Inspection | null>(null);
  const history = useQuery({ queryKey: queryKeys.quality.inspections(orderId), queryFn: ({ signal }) => qualityApi.inspections(orderId, signal) });
  const policy = useQuery({ queryKey: queryKeys.quality.policy(), queryFn: ({ signal }) => qualityApi.policy(signal), staleTime: 60_000 });
  const anyDefect = history.data?.inspections.some((i) => i.defect_reason_id !== null) ?? false;
  const reasons = useQuery({
    queryKey: queryKeys.quality.defectReasonsAll(),
    queryFn: ({ signal }) => qualityApi.defectReasonsAll(signal),
    enabled: anyDefect,
    staleTime: 300_000,
  });
  const reasonName = (id: number) => reasons.data?.find((r) => r.id === id)?.name ?? `Defect #${id}`;
  const photosAllowed = policy.data?.surfaces_enabled !== false;
  const who = (id: number | null) => (id === null ? 'unknown' : user?.id === id ? 'you' : `user #${id}`);

  return (
    <section className="card card--pad" aria-labelledby="wo-inspections">
      <h2 id="wo-inspections" className="section-title">
        Inspections{history.data && history.data.total > 0 ? ` (${history.data.total})` : ''}
      </h2>
      {history.isPending ? (
        <Skeleton height={60} />
      ) : history.error ? (
        <ErrorState error={history.error} onRetry={() => void history.refetch()} compact />
      ) : history.data.inspections.length === 0 ? (
        <EmptyState compact icon={<ShieldCheck size={22} />} title="No inspections yet" description="In-process inspections of its operations and its final verdict are listed here, oldest first." />
      ) : (
        <ol className="qc-history" aria-label="Inspections">
          {history.data.inspections.map((i, n) => {
            const op = operations.find((o) => o.id === i.production_operation_id);
            return (
              <li key={i.id} className="qc-history__item" aria-label={`Inspection ${n + 1}: ${i.result}`}>
                <div className="qc-history__head">
                  <Badge tone={RESULT_TONE[i.result]}>{humanize(i.result)}</Badge>
                  <span className="cell-strong">{op ? `${op.operation_code} · ${op.operation_name}` : 'Order verdict'}</span>
                  <span className="cell-sub">
                    by {who(i.inspector_user_id)} · {formatDateTime(i.inspected_at)}
                    {i.quantity_passed !== null && ` · ${formatQty(i.quantity_passed)} passed`}
                    {i.quantity_failed !== null && Number(i.quantity_failed) > 0 && ` · ${formatQty(i.quantity_failed)} failed`}
                  </span>
                  {photosAllowed && (
                    <Button size="sm" variant="ghost" icon={<Camera size={14} />} onClick={() => setPhotosOf(i)}>
                      Photos
                    </Button>
                  )}
                </div>
                {(i.defect_reason_id !== null || i.failure_reason) && (
                  <p className="qc-history__text">
                    {i.defect_reason_id !== null && (
                      <>
                        Defect: <strong>{reasonName(i.defect_reason_id)}</strong>
                      </>
                    )}
                    {i.defect_reason_id !== null && i.failure_reason && ' · '}
                    {i.failure_reason}
                  </p>
                )}
                {i.notes && <p className="qc-history__text muted">{i.notes}</p>}
                {i.gate_findings.length > 0 && (
                  <ul className="qc-history__findings" aria-label="Gate findings">
                    {i.gate_findings.map((f) => (
                      <li key={f}>{f}</li>
                    ))}
                  </ul>
                )}
                {i.measurements.length > 0 && <MeasurementRows rows={i.measurements} />}
              </li>
            );
          })}
        </ol>
      )}
      {photosOf && (
        <InspectionPhotosDialog
          open
          inspectionId={photosOf.id}
          title={`Photos of the ${humanize(photosOf.result).toLowerCase()} inspection`}
          description={`${orderCode} · ${formatDateTime(photosOf.inspected_at)}`}
          onClose={() => setPhotosOf(null)}
        />
      )}
    </section>
  );
}
