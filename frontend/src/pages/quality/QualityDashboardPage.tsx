/**
 * The quality dashboard: the period's key figures (first-pass yield, inspections waiting,
 * scrap rate and cost), the daily trend, scrap by reason, the inspection queue (a row opens
 * the order) and the latest verdicts. The period (7, 30 or 90 days) lives in the address.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { BarChart3, ClipboardCheck, Recycle, ShieldCheck } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatDateTime, formatMoney, formatQty, humanize } from '../../lib/format';
import { QC_TONE } from '../production/productionApi';
import { qualityApi, type QueueOrder } from './qualityApi';
import { hasTrend, parseDays, percent, PERIOD_DAYS, QUALITY_COLORS, yieldNote, yieldTone, type PeriodDays } from './qualityDashboard';
import '../dashboard/dashboard.css';
import './quality.css';

const TrendChart = lazy(() => import('./QualityCharts').then((m) => ({ default: m.TrendChart })));
const ScrapChart = lazy(() => import('./QualityCharts').then((m) => ({ default: m.ScrapChart })));

const FRESH = { staleTime: 10_000, placeholderData: keepPreviousData } as const;
const RECENT = 10;

function Panel<T>({ title, subtitle, query, skeleton, flush, children }: { title: string; subtitle?: string; query: UseQueryResult<T>; skeleton: number; flush?: boolean; children: (data: T) => ReactNode }) {
  return (
    <section className={`card qd-panel${query.isFetching && !query.isPending ? ' dash-panel is-refreshing' : ''}`} aria-label={title}>
      <header className="qd-panel__head">
        <div>
          <h2 className="card__title">{title}</h2>
          {subtitle && <p className="qd-panel__sub">{subtitle}</p>}
        </div>
      </header>
      <div className={`qd-panel__body${flush && query.data !== undefined ? ' qd-panel__body--flush' : ''}`}>
        {query.isPending ? <Skeleton width="100%" height={skeleton} /> : query.error ? <ErrorState error={query.error} onRetry={() => void query.refetch()} compact /> : children(query.data)}
      </div>
    </section>
  );
}

function Kpi({ label, value, hint, tone, icon, testId }: { label: string; value: string; hint?: string; tone?: 'good' | 'warn' | 'bad' | null; icon: ReactNode; testId: string }) {
  return (
    <div className={`kpi${tone ? ` qd-kpi--${tone}` : ''}`} data-testid={testId}>
      <span className="kpi__label dash-kpis">
        <span className="dash-kpi__icon" aria-hidden="true">
          {icon}
        </span>{' '}
        {label}
      </span>
      <span className="kpi__value">{value}</span>
      {hint && <span className="kpi__hint">{hint}</span>}
    </div>
  );
}

export function QualityDashboardPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const days = parseDays(params.get('days'));
  const [queuePage, setQueuePage] = useState(1);
  const [queueSize, setQueueSize] = useState(10);
  const setDays = (d: PeriodDays) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (d === 30) next.delete('days');
        else next.set('days', String(d));
        return next;
      },
      { replace: true },
    );

  const policy = useQuery({ queryKey: queryKeys.quality.policy(), queryFn: ({ signal }) => qualityApi.policy(signal) });
  const metrics = useQuery({ queryKey: queryKeys.quality.metrics(days), queryFn: ({ signal }) => qualityApi.metrics(days, signal), ...FRESH });
  const trend = useQuery({ queryKey: queryKeys.quality.trend(days), queryFn: ({ signal }) => qualityApi.trend(days, signal), ...FRESH });
  const scrap = useQuery({ queryKey: queryKeys.quality.scrapSummary(days), queryFn: ({ signal }) => qualityApi.scrapSummary(days, signal), ...FRESH });
  const offset = (queuePage - 1) * queueSize;
  const queue = useQuery({ queryKey: queryKeys.quality.queue(queueSize, offset), queryFn: ({ signal }) => qualityApi.queue(queueSize, offset, signal), ...FRESH });
  const recent = useQuery({ queryKey: queryKeys.quality.recent(RECENT), queryFn: ({ signal }) => qualityApi.recent(RECENT, signal), staleTime: 10_000 });
  const long = `in the last ${days} days`;

  const columns: Column<QueueOrder>[] = [
    { key: 'code', header: 'Order', shrink: true, render: (o) => <span className="mono cell-strong">{o.code}</span> },
    {
      key: 'product',
      header: 'Product',
      render: (o) => (
        <div className="cell-stack">
          <span className="mono">{o.product_sku ?? `#${o.product_id}`}</span>
          {o.product_name && <span className="cell-sub">{o.product_name}</span>}
        </div>
      ),
    },
    { key: 'quantity_completed', header: 'Made', align: 'right', shrink: true, hideOnTablet: true, render: (o) => <span className="num">{formatQty(o.quantity_completed)}</span> },
    {
      key: 'due_date',
      header: 'Due',
      shrink: true,
      render: (o) => (
        <div className="cell-stack">
          <span>{o.due_date ?? '—'}</span>
          <span className="cell-sub">priority {o.priority}</span>
        </div>
      ),
    },
    { key: 'qc_status', header: 'QC', shrink: true, render: (o) => <Badge tone={QC_TONE[o.qc_status] ?? 'neutral'}>{humanize(o.qc_status)}</Badge> },
  ];

  return (
    <div className="page qd">
      <PageHeader
        title="Quality"
        description="How inspections are going: first-pass yield, what waits for QC, and what scrap costs."
        actions={
          <div className="dash-periods" role="radiogroup" aria-label="Period">
            {PERIOD_DAYS.map((d) => (
              <label key={d} className={`dash-period${d === days ? ' is-active' : ''}`}>
                <input type="radio" name="quality-period" value={d} checked={d === days} onChange={() => setDays(d)} />
                {d} days
              </label>
            ))}
          </div>
        }
      />
      {policy.data && (
        <div className="qd-toolbar">
          <p className="cell-sub">
            Quality mode <Badge tone={policy.data.mode === 'off' ? 'neutral' : 'info'}>{policy.data.mode}</Badge>
            {policy.data.mode === 'full' && (
              <>
                {' '}
                · inspection gate <Badge tone={policy.data.gate_action === 'block' ? 'danger' : policy.data.gate_action === 'warn' ? 'warning' : 'neutral'}>{policy.data.gate_action}</Badge>
              </>
            )}
            {isAdmin(user) && (
              <>
                {' '}
                · <Link to="/admin/settings">change in Settings</Link>
              </>
            )}
          </p>
        </div>
      )}
      {policy.data?.mode === 'off' && (
        <div className="alert alert--info" role="status">
          <span>Quality management is off: orders complete and ship without inspection. {isAdmin(user) ? 'Turn it on in Settings → Quality.' : 'An administrator turns it on in Settings.'}</span>
        </div>
      )}

      {metrics.error ? (
        <div className="card">
          <ErrorState error={metrics.error} onRetry={() => void metrics.refetch()} />
        </div>
      ) : (
        <div className="qd-kpis" aria-label="Key figures" aria-busy={metrics.isPending}>
          {metrics.data ? (
            <>
              <Kpi
                label="First-pass yield"
                testId="kpi-fpy"
                icon={<ShieldCheck size={14} />}
                value={percent(metrics.data.first_pass_yield)}
                tone={yieldTone(metrics.data.first_pass_yield)}
                hint={yieldNote(metrics.data)}
              />
              <Kpi
                label="Pending inspections"
                testId="kpi-pending"
                icon={<ClipboardCheck size={14} />}
                value={metrics.data.pending_inspections.toLocaleString('en-US')}
                tone={metrics.data.pending_inspections > 0 ? 'warn' : null}
                hint="Complete orders waiting for QC now"
              />
              <Kpi
                label="Scrap rate"
                testId="kpi-scrap-rate"
                icon={<Recycle size={14} />}
                value={percent(metrics.data.scrap_rate)}
                tone={metrics.data.scrap_rate !== null && metrics.data.scrap_rate > 5 ? 'bad' : null}
                hint={`Of units made ${long}`}
              />
              <Kpi label="Scrapped cost" testId="kpi-scrap-cost" icon={<BarChart3 size={14} />} value={formatMoney(metrics.data.total_scrapped_cost)} hint={`Value written off ${long}`} />
            </>
          ) : (
            Array.from({ length: 4 }, (_, i) => (
              <div key={i} className="kpi">
                <Skeleton width="60%" />
                <Skeleton width="40%" height={26} />
              </div>
            ))
          )}
        </div>
      )}

      <div className="qd-row">
        <Panel title="Trend" subtitle={`First-pass yield and scrap cost per day, ${long}`} query={trend} skeleton={260}>
          {(rows) =>
            hasTrend(rows) ? (
              <>
                <ul className="dash-legend">
                  <li>
                    <span className="dash-swatch" style={{ background: QUALITY_COLORS.yield }} aria-hidden="true" /> First-pass yield (%)
                  </li>
                  <li>
                    <span className="dash-swatch" style={{ background: QUALITY_COLORS.scrap }} aria-hidden="true" /> Scrap cost
                  </li>
                </ul>
                <Suspense fallback={<Skeleton width="100%" height={260} />}>
                  <TrendChart data={rows} label={`Quality trend ${long}: ${rows.reduce((n, r) => n + r.inspections, 0)} inspections`} />
                </Suspense>
              </>
            ) : (
              <EmptyState compact icon={<BarChart3 size={22} />} title={`No inspections or scrap ${long}`} description="Each day's first-pass yield and scrap cost show up here." />
            )
          }
        </Panel>
        <Panel title="Scrap by reason" subtitle={`Cost written off ${long}, costliest first`} query={scrap} skeleton={200}>
          {(rows) =>
            rows.length > 0 ? (
              <Suspense fallback={<Skeleton width="100%" height={200} />}>
                <ScrapChart data={rows} label={`Scrap by reason ${long}: ${rows.map((r) => `${r.reason_name} ${formatMoney(r.total_cost)}`).join(', ')}`} />
              </Suspense>
            ) : (
              <EmptyState compact icon={<Recycle size={22} />} title={`Nothing scrapped ${long}`} description="Scrap recorded on production orders is summed here by reason." />
            )
          }
        </Panel>
      </div>

      <div className="qd-row">
        <section className="qd-panel" aria-label="Inspection queue">
          <DataTable
            caption="Inspection queue"
            columns={columns}
            rows={queue.data?.items}
            total={queue.data?.total}
            rowKey={(o) => o.id}
            page={queuePage}
            pageSize={queueSize}
            pageSizes={[10, 25, 50]}
            onPageChange={setQueuePage}
            onPageSizeChange={(s) => {
              setQueueSize(s);
              setQueuePage(1);
            }}
            loading={queue.isPending}
            fetching={queue.isFetching}
            error={queue.error}
            onRetry={() => void queue.refetch()}
            onRowClick={(o) => navigate(`/admin/production/${o.id}`)}
            rowLabel={(o) => `Open ${o.code}`}
            filters={<h2 className="card__title">Inspection queue</h2>}
            empty={{ icon: <ClipboardCheck size={22} />, title: 'Nothing waits for inspection', description: 'Complete orders that need QC are listed here by priority, then due date.' }}
          />
        </section>
        <Panel title="Recent verdicts" subtitle="The latest inspections of orders" query={recent} skeleton={200} flush>
          {(rows) =>
            rows.length > 0 ? (
              <ul className="qd-recent" aria-label="Recent verdicts">
                {rows.map((o) => (
                  <li key={o.id}>
                    <Link to={`/admin/production/${o.id}`}>
                      <span className="qd-recent__main">
                        <span className="mono cell-strong">{o.code}</span>
                        <span className="cell-sub">
                          {o.product_sku ?? `#${o.product_id}`} · {formatDateTime(o.qc_inspected_at)}
                        </span>
                      </span>
                      <Badge tone={QC_TONE[o.qc_status] ?? 'neutral'}>{humanize(o.qc_status)}</Badge>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState compact icon={<ShieldCheck size={22} />} title="No verdicts yet" description="Passed, failed and waived orders show up here as they are inspected." />
            )
          }
        </Panel>
      </div>
    </div>
  );
}
