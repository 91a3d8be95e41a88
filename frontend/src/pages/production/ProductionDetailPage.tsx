import { useState, type ReactNode } from 'react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ArrowLeft, CalendarClock, CheckCircle2, CircleDashed, ClipboardCheck, Disc3, Pause, Play, PlayCircle, Scissors, ShieldCheck, SkipForward, Split, Trash2, XCircle } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, formatQty, humanize } from '../../lib/format';
import { spoolApi } from '../spools/spoolApi';
import { CostTab } from './CostTab';
import { CompatibilitySummary, IssueList, MaterialAvailabilityCard, PrinterCheckNote, useOrderCompatibility, usePrinterCheck } from './OrderChecks';
import { CompleteDialog, ConsumeSpoolDialog, ScheduleDialog, ScrapDialog, SplitDialog } from './OrderDialogs';
import { QcDialog } from './QcDialog';
import { canSwap, SwapMaterialButton, useMaterialVariants } from './MaterialSwap';
import type { Variant } from '../items/variantsApi';
import { InspectionPhotosDialog } from '../quality/InspectionPhotos';
import { InspectionsCard } from '../quality/InspectionsCard';
import type { QcRecorded } from '../quality/qualityApi';
import {
  LIVE_INTERVAL,
  OPERATION_TONE,
  ORDER_TONE,
  QC_TONE,
  orderActions,
  productionApi,
  type OperationCompatibility,
  type ProductionMaterial,
  type ProductionOperation,
  type ProductionOrder,
} from './productionApi';
import './production.css';
import { queryKeys } from '../../api/queryKeys';

type Tab = 'overview' | 'cost';
const TABS: { id: Tab; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'cost', label: 'Cost' },
];

type Dialog = 'consume' | 'complete' | 'scrap' | 'qc' | 'inspect' | 'split' | 'schedule' | 'cancel' | 'delete' | 'hold' | 'short' | null;

/** Invalidates production views and the sales orders it feeds (their status and required orders). */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.production.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sales.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.printers.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.commandCenter.all }),
    ]);
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

interface StepProps {
  order: ProductionOrder;
  op: ProductionOperation;
  printers: { id: number; code: string; name: string; status: string }[];
  /** The findings of the printer the operation is on (the order's compatibility). */
  compat: OperationCompatibility | undefined;
}

function OperationStep({ order, op, printers, compat }: StepProps) {
  const toast = useToast();
  const invalidate = useInvalidate();
  const [error, setError] = useState<string | null>(null);
  const [printer, setPrinter] = useState(op.resource_id ? String(op.resource_id) : '');
  const picking = op.status === 'queued' && printers.length > 0 && (order.status === 'released' || order.status === 'in_progress');
  const picked = picking && printer ? printers.find((p) => String(p.id) === printer) : undefined;
  const check = usePrinterCheck(order.id, picked ? picked.id : null);
  // The findings of the printer it is on, unless another one is being picked.
  const onPrinterIssues = compat && (!picked || picked.id === op.resource_id) ? compat.issues : [];
  const act = useMutation({
    mutationFn: (what: 'start' | 'complete' | 'skip') =>
      what === 'start'
        ? productionApi.startOperation(order.id, op.id, printer ? Number(printer) : null)
        : what === 'complete'
          ? productionApi.completeOperation(order.id, op.id)
          : productionApi.skipOperation(order.id, op.id),
    onSuccess: async (r) => {
      setError(null);
      toast.success('Operation updated', `${r.operation_name} is ${humanize(r.status).toLowerCase()}.`);
      await invalidate();
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const live = order.status === 'released' || order.status === 'in_progress';
  const icon =
    op.status === 'complete' ? <CheckCircle2 size={18} /> : op.status === 'running' ? <PlayCircle size={18} /> : op.status === 'skipped' ? <SkipForward size={18} /> : <CircleDashed size={18} />;
  return (
    <li className={`wo-step wo-step--${op.status}`}>
      <span className="wo-step__icon" aria-hidden="true">
        {icon}
      </span>
      <div className="wo-step__body">
        <div className="wo-step__title">
          <span className="mono muted">{op.sequence}</span>
          <strong>{op.operation_name}</strong>
          <Badge tone={OPERATION_TONE[op.status] ?? 'neutral'}>{humanize(op.status)}</Badge>
        </div>
        <div className="cell-sub">
          {[op.work_center_name ?? op.work_center_code, op.resource_name && `on ${op.resource_name}`, op.operator_name && `by ${op.operator_name}`]
            .filter(Boolean)
            .join(' · ')}
        </div>
        <div className="cell-sub">
          Planned {formatQty(op.planned_setup_minutes)} + {formatQty(op.planned_run_minutes)} min
          {op.actual_run_minutes !== null && ` · actual ${formatQty(op.actual_setup_minutes ?? 0)} + ${formatQty(op.actual_run_minutes)} min`}
          {op.efficiency_percent !== null && ` · ${Math.round(op.efficiency_percent)} % efficiency`}
          {op.actual_start && ` · started ${formatDateTime(op.actual_start)}`}
          {op.actual_end && ` · ended ${formatDateTime(op.actual_end)}`}
        </div>
        {onPrinterIssues.length > 0 && <IssueList label={`Compatibility of ${op.operation_name}`} issues={onPrinterIssues} />}
        {picked && picked.id !== op.resource_id && <PrinterCheckNote check={check} printer={picked.code} />}
        {picked && picked.id === op.resource_id && check.blocked && onPrinterIssues.length === 0 && <PrinterCheckNote check={check} printer={picked.code} />}
        {error && <p className="field__error">{error}</p>}
      </div>
      {live && (
        <div className="wo-step__actions">
          {picking && (
            <select className="input input--select input--sm" aria-label={`Printer for ${op.operation_name}`} value={printer} onChange={(e) => setPrinter(e.target.value)}>
              <option value="">No printer</option>
              {printers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.code} · {humanize(p.status)}
                </option>
              ))}
            </select>
          )}
          {op.status === 'queued' && (
            <Button
              size="sm"
              icon={<Play size={14} />}
              loading={act.isPending && act.variables === 'start'}
              disabled={check.blocked}
              title={check.blocked ? 'The printer picked cannot print this order’s materials.' : undefined}
              onClick={() => act.mutate('start')}
            >
              Start step
            </Button>
          )}
          {op.status === 'running' && (
            <Button size="sm" icon={<CheckCircle2 size={14} />} loading={act.isPending && act.variables === 'complete'} onClick={() => act.mutate('complete')}>
              Finish step
            </Button>
          )}
          {(op.status === 'pending' || op.status === 'queued') && (
            <Button size="sm" variant="ghost" icon={<SkipForward size={14} />} loading={act.isPending && act.variables === 'skip'} onClick={() => act.mutate('skip')}>
              Skip
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

function MaterialRow({ m, order, variants }: { m: ProductionMaterial; order: ProductionOrder; variants: Variant[] | undefined }) {
  const required = Number(m.quantity_required);
  const consumed = Number(m.quantity_consumed);
  const pct = required > 0 ? Math.min(100, (consumed / required) * 100) : 0;
  return (
    <tr>
      <td>
        <div className="cell-stack">
          <span className="cell-strong">{m.component_sku ?? `#${m.component_id}`}</span>
          {m.component_name && <span className="cell-sub">{m.component_name}</span>}
          {variants && canSwap(order, m) && <SwapMaterialButton order={order} material={m} variants={variants} />}
        </div>
      </td>
      <td className="align-right num">{formatQty(m.quantity_required, m.unit)}</td>
      <td className="align-right num">{formatQty(m.quantity_allocated, m.unit)}</td>
      <td className="align-right num">
        <div className="cell-stack">
          <span>{formatQty(m.quantity_consumed, m.unit)}</span>
          <span className="wo-progress" aria-hidden="true">
            <span style={{ width: `${pct}%` }} />
          </span>
        </div>
      </td>
      <td className="shrink">
        <Badge tone={m.status === 'consumed' ? 'success' : m.status === 'allocated' ? 'info' : m.status === 'short' ? 'danger' : 'neutral'}>{humanize(m.status)}</Badge>
      </td>
    </tr>
  );
}

export function ProductionDetailPage() {
  const { orderId } = useParams();
  const id = Number(orderId);
  const navigate = useNavigate();
  const toast = useToast();
  const invalidate = useInvalidate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [error, setError] = useState<string | null>(null);
  const [recorded, setRecorded] = useState<QcRecorded | null>(null);
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'cost' ? 'cost' : 'overview';
  const setTab = (t: Tab) => {
    const next = new URLSearchParams(params);
    if (t === 'overview') next.delete('tab');
    else next.set('tab', t);
    setParams(next, { replace: true });
  };
  const detail = useQuery({
    queryKey: queryKeys.production.detail(id),
    queryFn: ({ signal }) => productionApi.get(id, signal),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: LIVE_INTERVAL,
  });
  const move = useMutation({
    mutationFn: (what: 'release' | 'start' | 'hold' | 'short' | 'cancel') =>
      what === 'release'
        ? productionApi.release(id)
        : what === 'start'
          ? productionApi.start(id)
          : what === 'hold'
            ? productionApi.hold(id)
            : what === 'short'
              ? productionApi.acceptShort(id)
              : productionApi.cancel(id),
    onSuccess: async (o) => {
      setError(null);
      setDialog(null);
      toast.success('Status changed', `${order?.code ?? 'The order'} is ${humanize(o.status).toLowerCase()}.`);
      await invalidate();
    },
    onError: (err) => {
      setDialog(null);
      setError(errorMessage(err));
    },
  });
  const remove = useMutation({
    mutationFn: () => productionApi.remove(id),
    onSuccess: async () => {
      toast.success('Deleted', `${order?.code ?? 'The order'} was deleted.`);
      await invalidate();
      navigate('/admin/production');
    },
    onError: (err) => {
      setDialog(null);
      setError(errorMessage(err));
    },
  });
  const order = detail.data;
  const centers = useQuery({
    queryKey: queryKeys.production.workCenters(true),
    queryFn: ({ signal }) => productionApi.workCenters(true, signal),
    enabled: order !== undefined && order.operations.some((o) => o.status === 'queued'),
  });
  const compatibility = useOrderCompatibility(id, order);
  // The variants of each template among the materials ("Use a variant").
  const materialVariants = useMaterialVariants(order);
  const spoolIds = [...new Set((order?.spools ?? []).map((s) => s.spool_id))];
  const spoolNames = useQueries({
    queries: spoolIds.map((sid) => ({ queryKey: queryKeys.spools.detail(sid), queryFn: ({ signal }: { signal: AbortSignal }) => spoolApi.get(sid, signal), staleTime: 60_000 })),
  });
  const spoolNumber = (sid: number) => spoolNames.find((q) => q.data?.id === sid)?.data?.spool_number ?? `Spool #${sid}`;
  const back = (
    <Link to="/admin/production" className="wo-back">
      <ArrowLeft size={14} /> Production
    </Link>
  );
  if (!order) {
    return (
      <div className="page">
        <PageHeader title={`Production order ${orderId ?? ''}`.trim()} eyebrow={back} />
        {detail.error || !(Number.isInteger(id) && id > 0) ? (
          <div className="card">
            <ErrorState error={detail.error ?? new Error('That is not a production order number.')} onRetry={() => void detail.refetch()} />
          </div>
        ) : (
          <div className="card card--pad" aria-busy="true">
            <Skeleton width="40%" height={18} />
            <Skeleton width="70%" />
            <Skeleton width="60%" />
          </div>
        )}
      </div>
    );
  }
  const actions = orderActions(order);
  const busy = (w: string) => move.isPending && move.variables === w;
  return (
    <div className="page">
      <PageHeader
        eyebrow={back}
        title={`${order.code} · ${order.product_sku ?? ''}`}
        description={order.product_name ?? undefined}
        actions={
          <div className="wo-actions">
            {actions.includes('release') && (
              <Button variant="primary" loading={busy('release')} onClick={() => move.mutate('release')}>
                {order.status === 'on_hold' ? 'Resume (release)' : 'Release'}
              </Button>
            )}
            {actions.includes('start') && (
              <Button variant="primary" icon={<Play size={16} />} loading={busy('start')} onClick={() => move.mutate('start')}>
                Start
              </Button>
            )}
            {actions.includes('consume') && (
              <Button icon={<Disc3 size={16} />} onClick={() => setDialog('consume')}>
                Consume from spool
              </Button>
            )}
            {actions.includes('complete') && (
              <Button variant="primary" icon={<CheckCircle2 size={16} />} onClick={() => setDialog('complete')}>
                Complete
              </Button>
            )}
            {actions.includes('qc') && (
              <Button variant="primary" icon={<ShieldCheck size={16} />} onClick={() => setDialog('qc')}>
                Record QC
              </Button>
            )}
            {actions.includes('inspect') && (
              <Button icon={<ClipboardCheck size={16} />} onClick={() => setDialog('inspect')}>
                Inspect
              </Button>
            )}
            {actions.includes('split') && (
              <Button icon={<Split size={16} />} onClick={() => setDialog('split')}>
                Split
              </Button>
            )}
            {actions.includes('schedule') && (
              <Button icon={<CalendarClock size={16} />} onClick={() => setDialog('schedule')}>
                Schedule
              </Button>
            )}
            {actions.includes('short') && (
              <Button icon={<Scissors size={16} />} onClick={() => setDialog('short')}>
                Accept short
              </Button>
            )}
            {actions.includes('hold') && (
              <Button icon={<Pause size={16} />} onClick={() => setDialog('hold')}>
                Hold
              </Button>
            )}
            {actions.includes('scrap') && (
              <Button variant="danger" onClick={() => setDialog('scrap')}>
                Scrap
              </Button>
            )}
            {actions.includes('cancel') && (
              <Button variant="ghost" icon={<XCircle size={16} />} onClick={() => setDialog('cancel')}>
                Cancel order
              </Button>
            )}
            {actions.includes('delete') && (
              <Button variant="ghost" icon={<Trash2 size={16} />} onClick={() => setDialog('delete')}>
                Delete
              </Button>
            )}
          </div>
        }
      />
      <div className="wo-badges">
        <Badge tone={ORDER_TONE[order.status] ?? 'neutral'}>{humanize(order.status)}</Badge>
        {order.qc_status !== 'not_required' && <Badge tone={QC_TONE[order.qc_status] ?? 'neutral'}>QC {humanize(order.qc_status).toLowerCase()}</Badge>}
        <span className="cell-sub">
          Priority {order.priority} · due {order.due_date ?? '—'}
          {order.sales_order_code && (
            <>
              {' · for '}
              {order.sales_order_id ? (
                <Link to={`/admin/orders/${order.sales_order_id}`} className="mono">
                  {order.sales_order_code}
                </Link>
              ) : (
                order.sales_order_code
              )}
            </>
          )}
          {order.bom_code && ` · BOM ${order.bom_code}`}
          {order.routing_code && ` · routing ${order.routing_code}`}
          {order.remake_of_code && ` · remake of ${order.remake_of_code}`}
          {order.scheduled_start && ` · planned ${formatDateTime(order.scheduled_start)}${order.scheduled_end ? ` – ${formatDateTime(order.scheduled_end)}` : ''}`}
        </span>
      </div>
      <FormError message={error} />
      <dl className="stat-row" aria-label="Quantities and cost">
        <Stat label="Ordered">{formatQty(order.quantity_ordered)}</Stat>
        <Stat label="Completed">{formatQty(order.quantity_completed)}</Stat>
        <Stat label="Scrapped">{formatQty(order.quantity_scrapped)}</Stat>
        <Stat label="Remaining">{formatQty(order.quantity_remaining)}</Stat>
        <Stat label="Estimated cost">{formatMoney(order.estimated_total_cost)}</Stat>
        <Stat label="Actual cost">{formatMoney(order.actual_total_cost)}</Stat>
      </dl>
      <div className="tabs wo-tabs" role="tablist" aria-label="Order views">
        {TABS.map(({ id: t, label }) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className={`tab${tab === t ? ' is-active' : ''}`} onClick={() => setTab(t)}>
            {label}
          </button>
        ))}
      </div>
      {tab === 'cost' && <CostTab order={order} />}
      {tab === 'overview' && (
        <>
          <div className="wo-grid">
            <section className="card card--pad" aria-labelledby="wo-ops">
              <div className="wo-card-head">
                <h2 id="wo-ops" className="section-title">
                  Operations
                </h2>
                <CompatibilitySummary data={compatibility.data} />
              </div>
              {order.operations.length === 0 ? (
                <EmptyState compact title={order.status === 'draft' ? 'Operations appear on release' : 'No operations'} description="They are copied from the product's routing when the order is released." />
              ) : (
                <ol className="wo-timeline" aria-label="Operations timeline">
                  {order.operations.map((op) => (
                    <OperationStep
                      key={op.id}
                      order={order}
                      op={op}
                      printers={centers.data?.find((w) => w.id === op.work_center_id)?.printers ?? []}
                      compat={compatibility.data?.operations.find((c) => c.operation_id === op.id)}
                    />
                  ))}
                </ol>
              )}
            </section>
            <section className="card card--pad" aria-labelledby="wo-materials">
              <h2 id="wo-materials" className="section-title">
                Materials
              </h2>
              {order.materials.length === 0 ? (
                <EmptyState compact title={order.status === 'draft' ? 'Materials appear on release' : 'No materials'} description="The BOM is snapshotted and its components reserved when the order is released." />
              ) : (
                <table className="table table--compact" aria-label="Materials">
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
                        Consumed
                      </th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {order.materials.map((m) => (
                      <MaterialRow key={m.id} m={m} order={order} variants={materialVariants.get(m.component_id)} />
                    ))}
                  </tbody>
                </table>
              )}
              <h3 className="section-subtitle">Spools used</h3>
              {order.spools.length === 0 ? (
                <p className="muted">No filament consumed from a named spool yet.</p>
              ) : (
                <table className="table table--compact" aria-label="Spools used">
                  <thead>
                    <tr>
                      <th scope="col">Spool</th>
                      <th scope="col" className="align-right">
                        Grams
                      </th>
                      <th scope="col">When</th>
                    </tr>
                  </thead>
                  <tbody>
                    {order.spools.map((s) => (
                      <tr key={s.id}>
                        <td>
                          <span className="mono">{spoolNumber(s.spool_id)}</span>
                        </td>
                        <td className="align-right num">{formatQty(s.weight_consumed_g, 'g')}</td>
                        <td>{formatDateTime(s.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {order.serial_numbers.length > 0 && (
                <>
                  <h3 className="section-subtitle">Serial numbers</h3>
                  <ul className="wo-serials" aria-label="Serial numbers">
                    {order.serial_numbers.map((s) => (
                      <li key={s.id}>
                        <span className="mono">{s.serial_number}</span> <Badge tone={s.qc_passed ? 'success' : 'neutral'}>{humanize(s.status)}</Badge>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </section>
          </div>
          <MaterialAvailabilityCard order={order} />
          {order.status !== 'draft' && <InspectionsCard orderId={order.id} orderCode={order.code} operations={order.operations} />}
          {order.notes && (
            <section className="card card--pad">
              <h2 className="section-title">Notes</h2>
              <p className="wo-notes">{order.notes}</p>
            </section>
          )}
        </>
      )}
      <ConsumeSpoolDialog order={order} open={dialog === 'consume'} onClose={() => setDialog(null)} />
      <CompleteDialog key={`complete-${order.id}-${order.quantity_remaining}`} order={order} open={dialog === 'complete'} onClose={() => setDialog(null)} />
      <ScrapDialog key={`scrap-${order.id}-${order.quantity_remaining}`} order={order} open={dialog === 'scrap'} onClose={() => setDialog(null)} />
      <QcDialog key={`qc-${order.id}-${order.status}-${order.qc_status}`} order={order} open={dialog === 'qc' || dialog === 'inspect'} onClose={() => setDialog(null)} onRecorded={setRecorded} />
      {recorded?.inspection_id && (
        <InspectionPhotosDialog
          open
          inspectionId={recorded.inspection_id}
          title="Inspection recorded"
          description={`${recorded.message}. Add photos of what was inspected, or close this.`}
          warnings={recorded.warnings}
          onClose={() => setRecorded(null)}
        />
      )}
      <SplitDialog key={`split-${order.id}-${order.quantity_ordered}`} order={order} open={dialog === 'split'} onClose={() => setDialog(null)} />
      <ScheduleDialog key={`schedule-${order.id}-${order.scheduled_start}-${order.scheduled_end}`} order={order} open={dialog === 'schedule'} onClose={() => setDialog(null)} />
      <ConfirmDialog
        open={dialog === 'short'}
        title={`Accept ${order.code} short?`}
        message={`No more will be made than what is done now (${formatQty(order.quantity_completed)} of ${formatQty(order.quantity_ordered)}). Complete it afterwards with what was made, or cancel it.`}
        confirmLabel="Accept short"
        destructive={false}
        busy={busy('short')}
        onConfirm={() => move.mutate('short')}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'hold'}
        title={`Put ${order.code} on hold?`}
        message="Its reservations stay; release or start it again to carry on."
        confirmLabel="Put on hold"
        destructive={false}
        busy={busy('hold')}
        onConfirm={() => move.mutate('hold')}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'cancel'}
        title={`Cancel ${order.code}?`}
        message="Its reservations are released and any material already consumed is written off. This cannot be undone."
        confirmLabel="Cancel order"
        cancelLabel="Keep order"
        busy={busy('cancel')}
        onConfirm={() => move.mutate('cancel')}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={`Delete ${order.code}?`}
        message="The draft is removed for good."
        confirmLabel="Delete draft"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDialog(null)}
      />
    </div>
  );
}
