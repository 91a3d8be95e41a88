/**
 * What the order page checks beside the order itself: whether its materials are there
 * (material availability, per operation) and whether its materials can print on the
 * printers chosen for it (the order's compatibility, and the check of a printer as it is
 * picked).
 */
import { Fragment } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { formatQty } from '../../lib/format';
import { AVAILABILITY_LABEL, AVAILABILITY_TONE, availabilityByOperation, checkReasons, compatibilityIssues } from './orderInsights';
import { productionApi, type CompatibilityIssue, type OrderCompatibility, type ProductionOrder } from './productionApi';

/** Statuses whose materials are still to be found (afterwards availability says nothing new). */
const OPEN = new Set(['draft', 'released', 'in_progress', 'on_hold', 'short']);

export function MaterialAvailabilityCard({ order }: { order: ProductionOrder }) {
  const open = OPEN.has(order.status);
  const q = useQuery({
    queryKey: queryKeys.production.availability(order.id),
    queryFn: ({ signal }) => productionApi.materialAvailability(order.id, signal),
    enabled: open,
  });
  if (!open) return null;
  if (q.isPending)
    return (
      <section className="card card--pad" aria-label="Material availability" aria-busy="true">
        <Skeleton width="30%" height={18} />
        <Skeleton width="80%" />
      </section>
    );
  if (q.isError)
    return (
      <section className="card" aria-label="Material availability">
        <ErrorState compact error={q.error} onRetry={() => void q.refetch()} />
      </section>
    );
  const a = q.data;
  if (a.materials.length === 0) return null;
  const groups = availabilityByOperation(a.materials);
  return (
    <section className="card card--pad" aria-labelledby="wo-availability">
      <div className="wo-card-head">
        <h2 id="wo-availability" className="section-title">
          Material availability
        </h2>
        {a.shortage_count === 0 ? (
          <Badge tone="success">Everything is here</Badge>
        ) : (
          <Badge tone="danger">
            {a.shortage_count} of {a.summary.total_materials} short now
          </Badge>
        )}
      </div>
      <div className="wo-scroll">
        <table className="table table--compact" aria-label="Material availability">
          <thead>
            <tr>
              <th scope="col">Component</th>
              <th scope="col" className="align-right">
                Required
              </th>
              <th scope="col" className="align-right">
                Reserved
              </th>
              <th scope="col" className="align-right">
                Available
              </th>
              <th scope="col" className="align-right">
                Incoming
              </th>
              <th scope="col" className="align-right">
                Short
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <Fragment key={g.operationId ?? 'order'}>
                {groups.length > 1 || g.operationId !== null ? (
                  <tr className="avail-group">
                    <th scope="rowgroup" colSpan={7}>
                      {g.title}
                    </th>
                  </tr>
                ) : null}
                {g.lines.map((l) => (
                  <tr key={l.material_id}>
                    <td>
                      <div className="cell-stack">
                        <span className="cell-strong">{l.component_sku ?? `#${l.component_id}`}</span>
                        {l.component_name && <span className="cell-sub">{l.component_name}</span>}
                      </div>
                    </td>
                    <td className="align-right num">{formatQty(l.quantity_required, l.unit)}</td>
                    <td className="align-right num">{formatQty(l.quantity_allocated, l.unit)}</td>
                    <td className="align-right num">{formatQty(l.quantity_available, l.unit)}</td>
                    <td className="align-right num">{Number(l.quantity_incoming) > 0 ? formatQty(l.quantity_incoming, l.unit) : '—'}</td>
                    <td className="align-right num">{Number(l.quantity_short) > 0 ? formatQty(l.quantity_short, l.unit) : '—'}</td>
                    <td className="shrink">
                      <Badge tone={AVAILABILITY_TONE[l.status]}>{AVAILABILITY_LABEL[l.status]}</Badge>
                    </td>
                  </tr>
                ))}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** One finding: errors in red, warnings in amber. */
export function IssueList({ issues, label }: { issues: readonly Pick<CompatibilityIssue, 'severity' | 'message'>[]; label: string }) {
  if (issues.length === 0) return null;
  return (
    <ul className="compat-list" aria-label={label}>
      {issues.map((i, k) => (
        <li key={k} className={`compat-item compat-item--${i.severity}`}>
          {i.severity === 'error' ? <XCircle size={14} aria-hidden="true" /> : <AlertTriangle size={14} aria-hidden="true" />}
          <span>
            <span className="sr-only">{i.severity === 'error' ? 'Error: ' : 'Warning: '}</span>
            {i.message}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The order's compatibility, read once for the page (the steps show their own findings from it). */
export function useOrderCompatibility(id: number, order: ProductionOrder | undefined) {
  const anyPrinter = order?.operations.some((o) => o.resource_id !== null) ?? false;
  return useQuery({
    queryKey: queryKeys.production.compatibility(id),
    queryFn: ({ signal }) => productionApi.compatibility(id, signal),
    enabled: anyPrinter,
  });
}

/**
 * Beside the Operations title: whether the printers chosen for the operations can print
 * their materials. Each step lists its own findings.
 */
export function CompatibilitySummary({ data }: { data: OrderCompatibility | undefined }) {
  if (!data || !data.operations.some((o) => o.printer_name)) return null;
  const issues = compatibilityIssues(data);
  const errors = issues.filter((i) => i.severity === 'error').length;
  const warnings = issues.length - errors;
  const label = [errors > 0 && `${errors} ${errors === 1 ? 'error' : 'errors'}`, warnings > 0 && `${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`].filter(Boolean).join(', ');
  return (
    <span aria-label="Printer compatibility" role="status" title={issues.map((i) => `${i.operation} on ${i.printer_name}: ${i.message}`).join('\n') || undefined}>
      {issues.length === 0 ? <Badge tone="success">Printers fit the materials</Badge> : <Badge tone={errors > 0 ? 'danger' : 'warning'}>{label} on the printers chosen</Badge>}
    </span>
  );
}

/**
 * The check of a printer as it is picked for an operation: the order's materials against the
 * printer. `blocked` is true while it has errors (the server would refuse the start).
 */
export function usePrinterCheck(orderId: number, printerId: number | null) {
  const q = useQuery({
    queryKey: queryKeys.production.printerCheck(orderId, printerId ?? 0),
    queryFn: ({ signal }) => productionApi.checkPrinter(orderId, printerId ?? 0, signal),
    enabled: printerId !== null,
    staleTime: 30_000,
  });
  const blocked = printerId !== null && q.data !== undefined && !q.data.compatible;
  return { ...q, blocked, reasons: q.data && !q.data.compatible ? checkReasons(q.data.reason) : [] };
}

export function PrinterCheckNote({ check, printer }: { check: ReturnType<typeof usePrinterCheck>; printer: string }) {
  if (check.fetchStatus === 'idle' && check.data === undefined) return null;
  if (check.isPending) return <p className="cell-sub">Checking {printer} against the materials…</p>;
  if (check.isError) return <p className="cell-sub">Could not check {printer} against the materials.</p>;
  if (check.data.compatible)
    return (
      <p className="compat-item compat-item--ok" role="status">
        <CheckCircle2 size={14} aria-hidden="true" /> {printer} can print this order’s materials.
      </p>
    );
  return (
    <div role="alert">
      <IssueList label={`Why ${printer} cannot print this`} issues={check.reasons.map((r) => ({ severity: 'error' as const, message: `${printer}: ${r}` }))} />
    </div>
  );
}
