import { useQuery } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { ErrorState, Skeleton } from '../../components/States';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { planningApi } from './planningApi';

/** How many runs the header reads (the newest is the one it shows). */
export const RUN_HISTORY = 5;

/** The last MRP run: when, what it created and found; a failed run says why. */
export function LastRun() {
  const runs = useQuery({ queryKey: queryKeys.planning.runs(RUN_HISTORY), queryFn: ({ signal }) => planningApi.runs(RUN_HISTORY, signal) });
  if (runs.isPending) {
    return (
      <section className="plan-summary card" aria-label="Last MRP run" aria-busy="true">
        <Skeleton width="40%" height={14} />
        <Skeleton width="100%" height={44} />
      </section>
    );
  }
  if (runs.isError) return <ErrorState compact error={runs.error} onRetry={() => void runs.refetch()} />;
  const last = runs.data.runs[0];
  if (!last) {
    return (
      <section className="plan-summary card plan-summary--empty" aria-label="Last MRP run">
        <CalendarClock size={20} aria-hidden="true" />
        <div>
          <strong>MRP has not run yet.</strong>
          <span className="muted"> Run it to turn open orders into suggestions of what to buy and make.</span>
        </div>
      </section>
    );
  }
  const failed = last.status === 'failed';
  return (
    <section className="plan-summary card" aria-label="Last MRP run">
      <div className="plan-summary__head">
        <span className="plan-summary__title">
          Last run <time dateTime={last.run_date} title={formatDateTime(last.run_date)}>{formatRelativeTime(last.run_date)}</time>
        </span>
        <span className="muted">
          {last.planning_horizon_days}-day horizon · {last.orders_processed} open order{last.orders_processed === 1 ? '' : 's'} · {last.components_analyzed} item
          {last.components_analyzed === 1 ? '' : 's'} netted
          {runs.data.last_successful_run && failed && <> · last successful {formatRelativeTime(runs.data.last_successful_run)}</>}
        </span>
      </div>
      {failed && (
        <div className="alert alert--error" role="alert">
          <strong className="alert__title">The last run failed</strong> <span>{last.error_message ?? 'It stopped before it finished.'}</span>
        </div>
      )}
      <dl className="stat-row stat-row--compact">
        <div className="stat">
          <dt>Planned orders created</dt>
          <dd>{last.planned_orders_created}</dd>
        </div>
        <div className={`stat${last.shortages_found > 0 ? ' stat--warning' : ''}`}>
          <dt>Shortages</dt>
          <dd>{last.shortages_found}</dd>
        </div>
        <div className={`stat${last.exceptions_found > 0 ? ' stat--danger' : ''}`}>
          <dt>Exceptions</dt>
          <dd>{last.exceptions_found}</dd>
        </div>
      </dl>
    </section>
  );
}
