/**
 * The dashboard (CONTRACT 5.1): what stands now (key figures, open orders by state), then the
 * period picked (sales and payments, gross profit, money owed, production, shipping and
 * purchasing), then the latest orders. Each card has its own call and its own loading, empty
 * and error states; a card whose call answers 403 is left out. The period lives in the
 * address (`?period=QTD`; MTD when absent). Charts are loaded on demand (recharts is large).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { AlertCircle, AlertTriangle, ArrowRight, BarChart3, Factory, PackageCheck, ShoppingCart, Sparkles, Truck, Wallet } from 'lucide-react';
import { ApiError, errorMessage } from '../../api/errors';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, Skeleton } from '../../components/States';
import { formatDateTime, formatMoney, formatQty, humanize } from '../../lib/format';
import { ORDER_TONE, PAYMENT_TONE, salesApi, type PaymentsDashboard } from '../sales/salesApi';
import { dashboardApi, type DashboardSummary, type ProfitSummary, type RecentOrder } from './dashboardApi';
import {
  formatDay,
  formatMonth,
  formatPercent,
  formatRange,
  greeting,
  hasActivity,
  orderStates,
  parsePeriod,
  PERIOD_LABEL,
  PERIODS,
  periodStart,
  plural,
  pointTitle,
  productionDays,
  productionSeries,
  purchasingMonths,
  purchasingSeries,
  salesSeries,
  shippingSeries,
  compactMoney,
  todayUtc,
  total,
  type Period,
} from './dashboardData';
import { COLORS } from './dashboardColors';
import './dashboard.css';
import { queryKeys } from '../../api/queryKeys';

const SalesChart = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.SalesChart })));
const MiniBarChart = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.MiniBarChart })));
const OrdersDonut = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.OrdersDonut })));

/**
 * The figures refresh on coming back to the page. No polling: an idle page makes no calls, so
 * a session left open still expires (and the access token is not renewed behind the user's back).
 */
const FRESH = { staleTime: 10_000 } as const;
const RECENT_ORDERS = 5;

const isForbidden = (e: unknown) => e instanceof ApiError && e.status === 403;

export function DashboardPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const period = parsePeriod(params.get('period'));
  const today = todayUtc();
  const days = productionDays(period, today);
  const months = purchasingMonths(period, today);

  const summary = useQuery({ queryKey: queryKeys.dashboard.summary(), queryFn: ({ signal }) => dashboardApi.summary(signal), ...FRESH });
  const sales = useQuery({
    queryKey: queryKeys.dashboard.salesTrend(period),
    queryFn: ({ signal }) => dashboardApi.salesTrend(period, signal),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
  const profit = useQuery({
    queryKey: queryKeys.dashboard.profitSummary(period),
    queryFn: ({ signal }) => dashboardApi.profitSummary(period, signal),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
  const shipping = useQuery({
    queryKey: queryKeys.dashboard.shippingTrend(period),
    queryFn: ({ signal }) => dashboardApi.shippingTrend(period, signal),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
  const production = useQuery({
    queryKey: queryKeys.dashboard.productionTrend(days),
    queryFn: ({ signal }) => dashboardApi.productionTrend(days, signal),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
  const purchasing = useQuery({
    queryKey: queryKeys.dashboard.purchasingTrend(months),
    queryFn: ({ signal }) => dashboardApi.purchasingTrend(months, signal),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
  // Admins only: an operator gets a 403 and the card stays away.
  const cash = useQuery({ queryKey: queryKeys.payments.dashboard(), queryFn: ({ signal }) => salesApi.paymentsDashboard(signal), ...FRESH });
  const recent = useQuery({
    queryKey: queryKeys.dashboard.recentOrders(RECENT_ORDERS),
    queryFn: ({ signal }) => dashboardApi.recentOrders(RECENT_ORDERS, signal),
    ...FRESH,
  });

  const setPeriod = (p: Period) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (p === 'MTD') next.delete('period');
        else next.set('period', p);
        return next;
      },
      { replace: true },
    );

  // The server cannot be reached at all: one notice (in the key figures) instead of one per card.
  const queryClient = useQueryClient();
  const unreachable = summary.error instanceof ApiError && summary.error.isUnreachable;
  const retryAll = () => void queryClient.refetchQueries({ predicate: (q) => [queryKeys.dashboard.all, queryKeys.payments.all].some(([root]) => q.queryKey[0] === root) });

  const start = periodStart(period, today);
  const long = PERIOD_LABEL[period].long;
  const periodic = [sales, profit, shipping, production, purchasing];
  const allForbidden = periodic.every((q) => isForbidden(q.error));

  return (
    <div className="page dash">
      <PageHeader title={`${greeting()}, ${user?.first_name?.trim() || 'there'}`} description="Here is where your shop stands today." />

      <div className={`dash-now${unreachable ? ' dash-now--alone' : ''}`}>
        <KeyFigures summary={summary} onRetry={retryAll} />
        {!isForbidden(summary.error) && !unreachable && <OpenOrders summary={summary} />}
      </div>

      {!allForbidden && !unreachable && (
        <>
          <div className="dash-toolbar">
            <div>
              <h2 className="dash-toolbar__title">Performance</h2>
              <p className="dash-toolbar__range" data-testid="dash-range">
                {formatRange(start, today)}
              </p>
            </div>
            <PeriodPicker value={period} onChange={setPeriod} />
          </div>

          <div className="dash-row dash-row--money">
            <Panel id="sales" title="Sales" subtitle={`Orders placed and payments received, per ${days > 100 ? 'week' : 'day'}`} query={sales} skeleton={330}>
              {(trend) => {
                const series = salesSeries(trend);
                const empty = trend.total_orders === 0 && trend.total_payment_count === 0;
                return (
                  <>
                    <dl className="dash-totals">
                      <Figure label="Revenue" testId="sales-revenue" value={formatMoney(trend.total_revenue)} />
                      <Figure label="Orders" testId="sales-orders" value={trend.total_orders.toLocaleString('en-US')} />
                      <Figure
                        label="Payments"
                        testId="sales-payments"
                        value={formatMoney(trend.total_payments)}
                        note={plural(trend.total_payment_count, 'payment')}
                      />
                      <Figure label="Average order" value={trend.total_orders ? formatMoney(trend.total_revenue / trend.total_orders) : '—'} />
                    </dl>
                    {empty ? (
                      <EmptyState
                        compact
                        icon={<BarChart3 size={22} />}
                        title={`No sales yet ${long}`}
                        description="Orders placed and payments received show up here day by day."
                        action={
                          <Link to="/admin/orders" className="btn btn--secondary btn--md">
                            Go to orders
                          </Link>
                        }
                      />
                    ) : (
                      <>
                        <Legend items={[{ label: 'Sales', color: COLORS.sales }, { label: 'Payments', color: COLORS.payments }]} />
                        <Suspense fallback={<Skeleton width="100%" height={260} />}>
                          <SalesChart data={series} label={`Sales ${long}: ${formatMoney(trend.total_revenue)} from ${plural(trend.total_orders, 'order')}`} />
                        </Suspense>
                        <table className="sr-only">
                          <caption>Sales per {series[0]?.granularity ?? 'day'}</caption>
                          <thead>
                            <tr>
                              <th>When</th>
                              <th>Sales</th>
                              <th>Orders</th>
                              <th>Payments</th>
                            </tr>
                          </thead>
                          <tbody>
                            {series
                              .filter((p) => p.sales || p.payments)
                              .map((p) => (
                                <tr key={p.date}>
                                  <td>{pointTitle(p)}</td>
                                  <td>{formatMoney(p.sales)}</td>
                                  <td>{p.orders}</td>
                                  <td>{formatMoney(p.payments)}</td>
                                </tr>
                              ))}
                          </tbody>
                        </table>
                      </>
                    )}
                  </>
                );
              }}
            </Panel>

            <div className="dash-stack">
              <Panel id="profit" title="Gross profit" subtitle={`Of what shipped ${long}`} query={profit} skeleton={200}>
                {(p) => <Profit profit={p} long={long} />}
              </Panel>
              <Panel id="receivables" title="Money owed to you" subtitle="Unpaid balances of all orders, right now" query={cash} skeleton={120}>
                {(d) => <Receivables cash={d} />}
              </Panel>
            </div>
          </div>

          <div className="dash-row dash-row--trends">
            <Panel id="production" title="Production" subtitle={`Units completed, per ${days > 100 ? 'week' : 'day'}`} query={production} skeleton={220}>
              {(rows) => {
                const series = productionSeries(rows, period, today);
                const made = total(series, 'completed');
                const scrapped = total(series, 'scrapped');
                return (
                  <>
                    <Headline
                      value={formatQty(made)}
                      unit={made === 1 ? 'unit made' : 'units made'}
                      testId="production-made"
                      note={`${plural(total(series, 'orders'), 'work order')} completed · ${formatQty(scrapped)} scrapped`}
                    />
                    {hasActivity(series, ['completed', 'scrapped']) ? (
                      <Suspense fallback={<Skeleton width="100%" height={170} />}>
                        <MiniBarChart
                          data={series.map((p) => ({ x: p.date, title: pointTitle(p), values: { completed: p.completed, scrapped: p.scrapped } }))}
                          xFormat={formatDay}
                          format={(n) => formatQty(n)}
                          stacked
                          series={[
                            { key: 'completed', label: 'Completed', color: COLORS.completed },
                            { key: 'scrapped', label: 'Scrapped', color: COLORS.scrapped },
                          ]}
                          label={`Production ${long}: ${formatQty(made)} units completed, ${formatQty(scrapped)} scrapped`}
                        />
                      </Suspense>
                    ) : (
                      <Quiet icon={<Factory size={18} />} text={`Nothing completed ${long} yet.`} to="/admin/production" link="Go to production" />
                    )}
                  </>
                );
              }}
            </Panel>

            <Panel id="shipping" title="Shipping" subtitle={`Orders shipped, per ${days > 100 ? 'week' : 'day'}`} query={shipping} skeleton={220}>
              {(trend) => {
                const series = shippingSeries(trend);
                return (
                  <>
                    <Headline
                      value={trend.total_shipped.toLocaleString('en-US')}
                      unit={trend.total_shipped === 1 ? 'shipment' : 'shipments'}
                      testId="shipping-total"
                      note={summary.data ? `${plural(summary.data.orders.ready_to_ship, 'order')} ready to ship now` : undefined}
                    />
                    {trend.total_shipped > 0 ? (
                      <Suspense fallback={<Skeleton width="100%" height={170} />}>
                        <MiniBarChart
                          data={series.map((p) => ({ x: p.date, title: pointTitle(p), values: { shipped: p.shipped } }))}
                          xFormat={formatDay}
                          format={(n) => n.toLocaleString('en-US')}
                          series={[{ key: 'shipped', label: 'Shipped', color: COLORS.shipped }]}
                          label={`Shipping ${long}: ${plural(trend.total_shipped, 'shipment')}`}
                        />
                      </Suspense>
                    ) : (
                      <Quiet icon={<Truck size={18} />} text={`Nothing shipped ${long} yet.`} to="/admin/shipping" link="Go to shipping" />
                    )}
                  </>
                );
              }}
            </Panel>

            <Panel id="purchasing" title="Purchasing" subtitle="Placed with vendors, per month" query={purchasing} skeleton={220}>
              {(rows) => {
                const series = purchasingSeries(rows);
                const spend = total(series, 'spend');
                return (
                  <>
                    <Headline
                      value={formatMoney(spend)}
                      unit="spent"
                      testId="purchasing-spend"
                      note={`${plural(total(series, 'orders'), 'purchase order')} since ${series[0] ? formatMonth(series[0].month, true) : '—'}`}
                    />
                    {spend > 0 ? (
                      <Suspense fallback={<Skeleton width="100%" height={170} />}>
                        <MiniBarChart
                          data={series.map((p) => ({ x: p.label, title: formatMonth(p.month, true), values: { spend: p.spend } }))}
                          xFormat={(l) => l}
                          format={(n) => formatMoney(n)}
                          axisFormat={compactMoney}
                          series={[{ key: 'spend', label: 'Spend', color: COLORS.spend }]}
                          label={`Purchasing: ${formatMoney(spend)} placed with vendors`}
                        />
                      </Suspense>
                    ) : (
                      <Quiet icon={<PackageCheck size={18} />} text="No purchase orders placed in these months." to="/admin/purchasing" link="Go to purchasing" />
                    )}
                  </>
                );
              }}
            </Panel>
          </div>
        </>
      )}

      {/* An operator may open only their own orders (CONTRACT 5.2), and these rows do not say whose they are. */}
      {!unreachable && <RecentOrders query={recent} canOpen={isAdmin(user)} />}
    </div>
  );
}

// ---------------------------------------------------------------- pieces

function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  return (
    <div className="dash-periods" role="radiogroup" aria-label="Period">
      {PERIODS.map((p) => (
        <label key={p} className={`dash-period${value === p ? ' is-active' : ''}`} title={`${p}: ${PERIOD_LABEL[p].long}`}>
          <input type="radio" name="dashboard-period" value={p} checked={value === p} onChange={() => onChange(p)} />
          {PERIOD_LABEL[p].short}
        </label>
      ))}
    </div>
  );
}

interface PanelProps<T> {
  id: string;
  title: string;
  subtitle?: ReactNode;
  query: UseQueryResult<T>;
  skeleton?: number;
  children: (data: T) => ReactNode;
}

/** A card fed by one call: skeleton while loading, the error with a retry, nothing at all on a 403. */
function Panel<T>({ id, title, subtitle, query, skeleton = 200, children }: PanelProps<T>) {
  if (isForbidden(query.error)) return null;
  return (
    <section className={`card dash-panel${query.isPlaceholderData ? ' is-refreshing' : ''}`} aria-labelledby={`dash-${id}-title`} data-testid={`dash-${id}`} aria-busy={query.isFetching || undefined}>
      <header className="dash-panel__head">
        <h2 id={`dash-${id}-title`} className="card__title">
          {title}
        </h2>
        {subtitle && <p className="dash-panel__sub">{subtitle}</p>}
      </header>
      <div className="dash-panel__body">
        {query.isPending ? (
          <Skeleton width="100%" height={skeleton} />
        ) : query.isError ? (
          <PanelError error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          children(query.data)
        )}
      </div>
    </section>
  );
}

/** A card's failed call, small: what went wrong and a retry. */
function PanelError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const notFound = error instanceof ApiError && error.isNotFound;
  return (
    <div className="dash-quiet dash-quiet--error" role="alert">
      <span className="dash-quiet__icon" aria-hidden="true">
        <AlertCircle size={18} />
      </span>
      <p>
        <strong>{notFound ? 'Not available on this server yet' : 'Could not load this'}</strong>
        {!notFound && <span>{errorMessage(error)}</span>}
      </p>
      <Button size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

function Figure({ label, value, note, testId }: { label: string; value: string; note?: string; testId?: string }) {
  return (
    <div className="dash-figure">
      <dt>{label}</dt>
      <dd>
        <span className="dash-figure__value num" data-testid={testId}>
          {value}
        </span>
        {note && <span className="dash-figure__note">{note}</span>}
      </dd>
    </div>
  );
}

function Headline({ value, unit, note, testId }: { value: string; unit: string; note?: string; testId?: string }) {
  return (
    <div className="dash-headline">
      <div>
        <span className="dash-headline__value num" data-testid={testId}>
          {value}
        </span>{' '}
        <span className="dash-headline__unit">{unit}</span>
      </div>
      {note && <div className="dash-headline__note">{note}</div>}
    </div>
  );
}

function Legend({ items }: { items: { label: string; color: string }[] }) {
  return (
    <ul className="dash-legend" aria-hidden="true">
      {items.map((i) => (
        <li key={i.label}>
          <span className="dash-swatch" style={{ background: i.color }} />
          {i.label}
        </li>
      ))}
    </ul>
  );
}

/** The small empty state of a trend card. */
function Quiet({ icon, text, to, link }: { icon: ReactNode; text: string; to: string; link: string }) {
  return (
    <div className="dash-quiet">
      <span className="dash-quiet__icon" aria-hidden="true">
        {icon}
      </span>
      <p>{text}</p>
      <Link to={to} className="link">
        {link}
      </Link>
    </div>
  );
}

interface Kpi {
  label: string;
  value: string;
  to: string;
  hint: ReactNode;
  warn?: boolean;
  icon: ReactNode;
}

function kpisOf(s: DashboardSummary): Kpi[] {
  const o = s.orders;
  return [
    {
      label: 'Revenue, 30 days',
      value: formatMoney(s.revenue.last_30_days),
      to: '/admin/orders',
      hint: `${plural(s.revenue.orders_last_30_days, 'order')} placed`,
      icon: <Wallet size={16} />,
    },
    {
      label: 'Open orders',
      value: String(s.inventory.active_orders),
      to: '/admin/orders',
      hint: o.overdue > 0 ? `${o.overdue} overdue` : `${o.ready_to_ship} ready to ship`,
      warn: o.overdue > 0,
      icon: <ShoppingCart size={16} />,
    },
    {
      label: 'Pending quotes',
      value: String(s.quotes.pending),
      to: '/admin/quotes?status=pending',
      hint: `${s.quotes.this_week} written this week`,
      icon: <Sparkles size={16} />,
    },
    {
      label: 'Work orders running',
      value: String(s.production.in_progress),
      to: '/admin/production?status=in_progress',
      hint: `${s.production.scheduled} released · ${s.production.ready_to_start} draft`,
      icon: <Factory size={16} />,
    },
    {
      label: 'Low stock',
      value: String(s.inventory.low_stock_count),
      to: '/admin/purchasing?tab=low-stock',
      hint: s.inventory.low_stock_count > 0 ? 'Items at or below reorder point' : 'Everything above reorder point',
      warn: s.inventory.low_stock_count > 0,
      icon: <AlertTriangle size={16} />,
    },
    {
      label: 'Active BOMs',
      value: String(s.boms.active),
      to: '/admin/bom',
      hint: s.boms.needs_review > 0 ? `${s.boms.needs_review} waiting for review` : 'None waiting for review',
      warn: s.boms.needs_review > 0,
      icon: <PackageCheck size={16} />,
    },
  ];
}

function KeyFigures({ summary, onRetry }: { summary: UseQueryResult<DashboardSummary>; onRetry: () => void }) {
  if (isForbidden(summary.error)) return null;
  const unavailable = summary.error instanceof ApiError && summary.error.isNotFound;
  return (
    <section aria-label="Key figures" className="kpi-grid dash-kpis">
      {summary.isPending &&
        Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="kpi">
            <Skeleton width="50%" />
            <Skeleton width="35%" height={26} />
            <Skeleton width="60%" />
          </div>
        ))}
      {summary.data &&
        kpisOf(summary.data).map((k) => (
          <Link key={k.label} to={k.to} className="kpi kpi--link">
            <span className="kpi__label">
              <span className="dash-kpi__icon" aria-hidden="true">
                {k.icon}
              </span>
              {k.label}
            </span>
            <span className="kpi__value">{k.value}</span>
            <span className={`kpi__hint${k.warn ? ' text-warning' : ''}`}>{k.hint}</span>
          </Link>
        ))}
      {summary.error && (
        <div className="kpi-grid__notice">
          <Sparkles size={18} aria-hidden="true" />
          <div>
            <strong>{unavailable ? 'Your key figures will appear here' : 'Key figures could not be loaded'}</strong>
            <span>
              {unavailable
                ? 'Quotes, production, shipping, stock and revenue at a glance, once the server offers the dashboard.'
                : summary.error.message}
            </span>
          </div>
          {!unavailable && (
            <Button size="sm" onClick={onRetry}>
              Try again
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

function OpenOrders({ summary }: { summary: UseQueryResult<DashboardSummary> }) {
  return (
    <Panel id="orders-by-state" title="Open orders by state" query={summary} skeleton={150}>
      {(s) => {
        const slices = orderStates(s);
        const open = s.inventory.active_orders;
        if (open === 0) {
          return <Quiet icon={<ShoppingCart size={18} />} text="No open orders right now." to="/admin/orders" link="Go to orders" />;
        }
        return (
          <div className="dash-states">
            <Suspense fallback={<Skeleton width={150} height={150} />}>
              <OrdersDonut slices={slices} total={open} />
            </Suspense>
            <ul className="dash-states__list">
              {slices.map((sl) => (
                <li key={sl.key}>
                  <Link to={sl.to} className="dash-state">
                    <span className="dash-swatch" style={{ background: sl.color }} aria-hidden="true" />
                    <span className="dash-state__label">{sl.label}</span>
                    <strong className="num">{sl.value}</strong>
                  </Link>
                </li>
              ))}
              {s.orders.overdue > 0 && (
                <li>
                  <Link to="/admin/orders?sort=due_date" className="dash-state dash-state--warn">
                    <AlertTriangle size={14} aria-hidden="true" />
                    <span className="dash-state__label">Overdue</span>
                    <strong className="num">{s.orders.overdue}</strong>
                  </Link>
                </li>
              )}
            </ul>
          </div>
        );
      }}
    </Panel>
  );
}

function Profit({ profit, long }: { profit: ProfitSummary; long: string }) {
  if (profit.shipments === 0) {
    return <Quiet icon={<Truck size={18} />} text={`Nothing shipped ${long} yet, so no profit to show.`} to="/admin/shipping" link="Go to shipping" />;
  }
  const revenue = Math.max(0, profit.revenue);
  const costShare = revenue > 0 ? Math.min(100, (Math.max(0, profit.cost_of_goods) / revenue) * 100) : 100;
  const loss = profit.gross_profit < 0;
  return (
    <div className="dash-profit">
      <div className="dash-headline">
        <div>
          <span className={`dash-headline__value num${loss ? ' dash-negative' : ''}`} data-testid="profit-gross">
            {formatMoney(profit.gross_profit)}
          </span>{' '}
          <Badge tone={loss ? 'danger' : profit.gross_margin_percent >= 30 ? 'success' : 'warning'}>{formatPercent(profit.gross_margin_percent)} margin</Badge>
        </div>
        <div className="dash-headline__note">From {plural(profit.shipments, 'shipment')}</div>
      </div>
      <div className="dash-profit__bar" role="img" aria-label={`Cost of goods is ${formatPercent(costShare)} of revenue`}>
        <span className="dash-profit__cost" style={{ width: `${costShare}%` }} />
      </div>
      <dl className="dash-profit__rows">
        <div>
          <dt>
            <span className="dash-swatch" style={{ background: COLORS.sales }} aria-hidden="true" /> Revenue
          </dt>
          <dd className="num">{formatMoney(profit.revenue)}</dd>
        </div>
        <div>
          <dt>
            <span className="dash-swatch" style={{ background: COLORS.spend }} aria-hidden="true" /> Cost of goods
          </dt>
          <dd className="num">{formatMoney(profit.cost_of_goods)}</dd>
        </div>
        <div className="dash-profit__total">
          <dt>Gross profit</dt>
          <dd className="num">{formatMoney(profit.gross_profit)}</dd>
        </div>
      </dl>
    </div>
  );
}

function Receivables({ cash }: { cash: PaymentsDashboard }) {
  const received: [string, number, string][] = [
    ['Today', cash.payments_today, cash.amount_today],
    ['This week', cash.payments_this_week, cash.amount_this_week],
    ['This month', cash.payments_this_month, cash.amount_this_month],
  ];
  return (
    <div className="dash-profit">
      <Headline
        value={formatMoney(cash.total_outstanding)}
        unit="outstanding"
        testId="receivables-outstanding"
        note={cash.orders_with_balance ? `Across ${plural(cash.orders_with_balance, 'order')} with a balance` : 'Every order is paid up'}
      />
      <dl className="dash-profit__rows" aria-label="Payments received">
        {received.map(([label, n, amount]) => (
          <div key={label}>
            <dt>
              Received {label.toLowerCase()} <span className="muted">({n})</span>
            </dt>
            <dd className="num">{formatMoney(amount)}</dd>
          </div>
        ))}
      </dl>
      <Link to="/admin/payments" className="link dash-more">
        Payments <ArrowRight size={14} aria-hidden="true" />
      </Link>
    </div>
  );
}

function RecentOrders({ query, canOpen }: { query: UseQueryResult<RecentOrder[]>; canOpen: boolean }) {
  const navigate = useNavigate();
  if (isForbidden(query.error)) return null;
  return (
    <section className="card dash-panel dash-recent" aria-labelledby="dash-recent-title" data-testid="dash-recent-orders">
      <header className="dash-panel__head dash-panel__head--row">
        <div>
          <h2 id="dash-recent-title" className="card__title">
            Recent orders
          </h2>
          <p className="dash-panel__sub">The latest {RECENT_ORDERS} orders, newest first</p>
        </div>
        <Link to="/admin/orders" className="link dash-more">
          All orders <ArrowRight size={14} aria-hidden="true" />
        </Link>
      </header>
      {query.isPending ? (
        <div className="dash-panel__body">
          <Skeleton width="100%" height={160} />
        </div>
      ) : query.isError ? (
        <div className="dash-panel__body">
          <PanelError error={query.error} onRetry={() => void query.refetch()} />
        </div>
      ) : query.data.length === 0 ? (
        <div className="dash-panel__body">
          <EmptyState
            compact
            icon={<ShoppingCart size={22} />}
            title="No orders yet"
            description="Orders appear here as soon as they are placed, converted from a quote or imported."
            action={
              <Link to="/admin/orders" className="btn btn--secondary btn--md">
                Go to orders
              </Link>
            }
          />
        </div>
      ) : (
        <div className="datatable__scroll">
          <table className="table">
            <caption className="sr-only">Recent orders</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Customer</th>
                <th scope="col" className="shrink">
                  Status
                </th>
                <th scope="col" className="shrink dash-hide-narrow">
                  Payment
                </th>
                <th scope="col" className="align-right shrink">
                  Total
                </th>
                <th scope="col" className="shrink dash-hide-narrow">
                  Placed
                </th>
              </tr>
            </thead>
            <tbody>
              {query.data.map((o) => (
                <tr key={o.id} className={canOpen ? 'is-clickable' : undefined} onClick={canOpen ? () => navigate(`/admin/orders/${o.id}`) : undefined}>
                  <td className="shrink">
                    {canOpen ? (
                      <Link to={`/admin/orders/${o.id}`} className="link mono" onClick={(e) => e.stopPropagation()}>
                        {o.order_number}
                      </Link>
                    ) : (
                      <span className="mono">{o.order_number}</span>
                    )}
                  </td>
                  <td>
                    <div className="cell-stack">
                      <span className="cell-strong">{o.customer_name}</span>
                      {o.product_name && <span className="cell-sub">{o.product_name}</span>}
                    </div>
                  </td>
                  <td className="shrink">
                    <Badge tone={ORDER_TONE[o.status] ?? 'neutral'}>{humanize(o.status)}</Badge>
                  </td>
                  <td className="shrink dash-hide-narrow">
                    <Badge tone={PAYMENT_TONE[o.payment_status] ?? 'neutral'}>{humanize(o.payment_status)}</Badge>
                  </td>
                  <td className="align-right shrink num">{formatMoney(o.grand_total)}</td>
                  <td className="shrink dash-hide-narrow muted">{formatDateTime(o.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
