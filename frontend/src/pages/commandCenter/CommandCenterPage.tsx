import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AlertTriangle, CheckCircle2, Printer as PrinterIcon, Send } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatQty, humanize } from '../../lib/format';
import { LIVE_INTERVAL, productionApi, type ActionItem, type ActiveWork, type DispatchSuggestion, type Tone } from '../production/productionApi';
import { STATUS_TONE } from '../printers/printerStatus';
import '../production/production.css';
import { queryKeys } from '../../api/queryKeys';

const SEVERITY_TONE: Record<string, Tone> = { high: 'danger', medium: 'warning', low: 'info' };
/** Action items about orders that are late or cannot move. */
export const LATE_OR_BLOCKED = ['late', 'blocked', 'waiting_for_material'];

/** Splits the action items into late/blocked orders and everything else, keeping their order (most urgent first). */
export function splitActionItems(items: ActionItem[]): { lateOrBlocked: ActionItem[]; other: ActionItem[] } {
  return {
    lateOrBlocked: items.filter((i) => LATE_OR_BLOCKED.includes(i.kind)),
    other: items.filter((i) => !LATE_OR_BLOCKED.includes(i.kind)),
  };
}

function Loading() {
  return (
    <div aria-busy="true" className="cc-list">
      <Skeleton width="70%" />
      <Skeleton width="50%" />
    </div>
  );
}

function PrinterCard({ p, workCenter }: { p: ActiveWork; workCenter: string | undefined }) {
  return (
    <article className="cc-printer" aria-label={`Printer ${p.printer_code}`}>
      <div className="cc-printer__head">
        <strong>{p.printer_code}</strong>
        <Badge tone={STATUS_TONE[p.status] ?? 'neutral'}>{humanize(p.status)}</Badge>
      </div>
      <span className="cell-sub">
        {p.printer_name}
        {workCenter && ` · ${workCenter}`}
      </span>
      {p.operation_id ? (
        <span>
          {p.operation_name} ·{' '}
          {p.production_order_id ? <Link to={`/admin/production/${p.production_order_id}`}>{p.production_order_code}</Link> : p.production_order_code}
          {p.product_sku && ` · ${p.product_sku}`}
          {p.started_at && <span className="cell-sub"> since {formatDateTime(p.started_at)}</span>}
        </span>
      ) : (
        <span className="muted">Nothing running</span>
      )}
      <span className="cell-sub">{p.queued_count} queued</span>
    </article>
  );
}

function ItemList({ items, empty }: { items: ActionItem[]; empty: string }) {
  if (items.length === 0) return <EmptyState compact icon={<CheckCircle2 size={22} />} title={empty} />;
  return (
    <ul className="cc-list">
      {items.map((i, k) => (
        <li key={`${i.kind}-${i.production_order_id ?? ''}-${i.printer_id ?? ''}-${k}`} className="cc-item">
          <span>
            <Badge tone={SEVERITY_TONE[i.severity] ?? 'neutral'}>{humanize(i.kind)}</Badge> {i.message}
          </span>
          {i.production_order_id && (
            <Link to={`/admin/production/${i.production_order_id}`} aria-label={`Open ${i.production_order_code ?? 'order'}`}>
              Open
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

function Suggestion({ s }: { s: DispatchSuggestion }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const accept = useMutation({
    mutationFn: () => productionApi.accept(s),
    onSuccess: async () => {
      toast.success('Dispatched', `${s.operation.operation_name} of ${s.operation.production_order_code} started on ${s.printer_code}.`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.commandCenter.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.printers.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.production.all }),
      ]);
    },
    onError: (err) => setError(errorMessage(err)),
  });
  return (
    <li className="cc-item">
      <div className="cell-stack">
        <span>
          <strong>{s.printer_code}</strong> → {s.operation.operation_name} of{' '}
          <Link to={`/admin/production/${s.operation.production_order_id}`}>{s.operation.production_order_code}</Link> ({s.operation.product_sku})
        </span>
        <span className="cell-sub">
          Priority {s.operation.priority} · due {s.operation.due_date ?? '—'} · {formatQty(s.operation.planned_minutes)} min
          {s.material_match ? ' · loaded spool matches' : ''}
        </span>
        {s.reasons.length > 0 && <span className="cell-sub">{s.reasons.join('; ')}</span>}
        {error && <p className="field__error">{error}</p>}
      </div>
      <Button size="sm" variant="primary" icon={<Send size={14} />} loading={accept.isPending} onClick={() => accept.mutate()} aria-label={`Accept: ${s.operation.operation_name} on ${s.printer_code}`}>
        Accept
      </Button>
    </li>
  );
}

export function CommandCenterPage() {
  const live = { refetchInterval: LIVE_INTERVAL, refetchIntervalInBackground: false };
  const summary = useQuery({ queryKey: queryKeys.commandCenter.summary(), queryFn: ({ signal }) => productionApi.summary(signal), ...live });
  const items = useQuery({ queryKey: queryKeys.commandCenter.actionItems(), queryFn: ({ signal }) => productionApi.actionItems(signal), ...live });
  const resources = useQuery({ queryKey: queryKeys.commandCenter.resources(), queryFn: ({ signal }) => productionApi.resources(signal), ...live });
  const work = useQuery({ queryKey: queryKeys.printers.activeWork(), queryFn: ({ signal }) => productionApi.activeWork(signal), ...live });
  const suggestions = useQuery({ queryKey: queryKeys.commandCenter.dispatchSuggestions(), queryFn: ({ signal }) => productionApi.suggestions(signal), ...live });
  const s = summary.data;
  const centers = new Map((resources.data?.work_centers ?? []).map((w) => [w.id, w.name]));
  const split = items.data ? splitActionItems(items.data) : null;
  const stats: [string, number | undefined, Tone?][] = [
    ['Running', s?.running],
    ['Late', s?.late, s && s.late > 0 ? 'danger' : undefined],
    ['Blocked', s?.blocked, s && s.blocked > 0 ? 'warning' : undefined],
    ['Waiting for material', s?.waiting_for_material, s && s.waiting_for_material > 0 ? 'warning' : undefined],
    ['QC pending', s?.qc_pending],
    ['Released', s?.released],
    ['In progress', s?.in_progress],
    ['Printers idle', s?.printers_idle],
    ['Printers printing', s?.printers_printing],
    ['Printers down', s?.printers_down, s && s.printers_down > 0 ? 'danger' : undefined],
  ];
  return (
    <div className="page">
      <PageHeader title="Command Center" description="What is running, what is late or blocked, and what each idle printer should do next." />
      {summary.error ? (
        <div className="card">
          <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
        </div>
      ) : (
        <dl className="cc-stats" aria-label="Summary">
          {stats.map(([label, value, tone]) => (
            <div key={label} className={`stat${tone === 'danger' ? ' stat--danger' : tone === 'warning' ? ' stat--warning' : ''}`}>
              <dt>{label}</dt>
              <dd>{value ?? <Skeleton width={32} height={20} />}</dd>
            </div>
          ))}
        </dl>
      )}
      <section className="card card--pad" aria-labelledby="cc-board">
        <h2 id="cc-board" className="section-title">
          Printers
        </h2>
        {work.error ? (
          <ErrorState compact error={work.error} onRetry={() => void work.refetch()} />
        ) : !work.data ? (
          <Loading />
        ) : work.data.length === 0 ? (
          <EmptyState compact icon={<PrinterIcon size={22} />} title="No active printers" description="Add printers and give them a work center to see them here." />
        ) : (
          <div className="cc-board">
            {work.data.map((p) => (
              <PrinterCard key={p.printer_id} p={p} workCenter={p.work_center_id ? centers.get(p.work_center_id) : undefined} />
            ))}
          </div>
        )}
      </section>
      <div className="cc-columns">
        <section className="card card--pad" aria-labelledby="cc-late">
          <h2 id="cc-late" className="section-title">
            Late and blocked orders
          </h2>
          {items.error ? <ErrorState compact error={items.error} onRetry={() => void items.refetch()} /> : split ? <ItemList items={split.lateOrBlocked} empty="Nothing late or blocked" /> : <Loading />}
          <h3 className="section-subtitle">Other things to look at</h3>
          {split ? <ItemList items={split.other} empty="All clear" /> : !items.error && <Loading />}
        </section>
        <section className="card card--pad" aria-labelledby="cc-dispatch">
          <h2 id="cc-dispatch" className="section-title">
            Dispatch suggestions
          </h2>
          <p className="muted">For each idle printer, the next operation it can run with the spool it has loaded.</p>
          {suggestions.error ? (
            <ErrorState compact error={suggestions.error} onRetry={() => void suggestions.refetch()} />
          ) : !suggestions.data ? (
            <Loading />
          ) : suggestions.data.length === 0 ? (
            <EmptyState compact icon={<AlertTriangle size={22} />} title="No suggestions" description="Either every printer is busy or nothing released can run on the idle ones." />
          ) : (
            <ul className="cc-list" aria-label="Dispatch suggestions">
              {suggestions.data.map((x) => (
                <Suggestion key={`${x.printer_id}-${x.operation.operation_id}`} s={x} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
